package demoapp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/demoapp"
)

// The users, login, echo, status and redirect endpoints that the built-in
// API steps' features use.
func TestUsersAndEchoAPI(t *testing.T) {
	srv := httptest.NewServer(demoapp.Handler())
	defer srv.Close()
	c := srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	do := func(method, path, ctype, body string, header ...string) (int, http.Header, map[string]any) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var v map[string]any
		if len(data) > 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatalf("%s %s: not a JSON object: %s", method, path, data)
			}
		}
		return resp.StatusCode, resp.Header, v
	}

	if code, h, v := do("GET", "/api/users?role=editor", "", ""); code != 200 || v["total"] != float64(2) || h.Get("X-Total-Count") != "2" {
		t.Errorf("users?role=editor: %d %v", code, v)
	}
	if code, _, v := do("GET", "/api/users/1", "", ""); code != 200 || v["address"].(map[string]any)["city"] != "London" {
		t.Errorf("users/1: %d %v", code, v)
	}
	if code, _, _ := do("GET", "/api/users/42", "", ""); code != 404 {
		t.Errorf("users/42: %d", code)
	}
	code, h, v := do("POST", "/api/users", "application/json", `{"name":"Katherine Johnson","email":"kj@example.com"}`)
	if code != 201 || h.Get("Location") != "/api/users/4" || v["id"] != float64(4) || len(v["uuid"].(string)) != 36 {
		t.Errorf("create: %d %v %v", code, h, v)
	}
	if code, _, v := do("POST", "/api/users", "application/json", `{"email":"nope"}`); code != 400 || len(v["errors"].([]any)) != 2 {
		t.Errorf("invalid create: %d %v", code, v)
	}
	if code, _, v := do("PATCH", "/api/users/4", "application/json", `{"active":false}`); code != 200 || v["active"] != false || v["name"] != "Katherine Johnson" {
		t.Errorf("patch: %d %v", code, v)
	}
	if code, _, _ := do("DELETE", "/api/users/4", "", ""); code != 204 {
		t.Errorf("delete: %d", code)
	}

	if code, h, _ := do("GET", "/api/me", "", ""); code != 401 || h.Get("WWW-Authenticate") == "" {
		t.Errorf("me without a token: %d %v", code, h)
	}
	if code, _, _ := do("POST", "/api/login", "application/x-www-form-urlencoded", "username=demo&password=wrong"); code != 401 {
		t.Errorf("login with a wrong password: %d", code)
	}
	code, _, v = do("POST", "/api/login", "application/json", `{"username":"demo","password":"secret"}`)
	tok, _ := v["token"].(string)
	if code != 200 || tok == "" {
		t.Fatalf("login: %d %v", code, v)
	}
	if code, _, v := do("GET", "/api/me", "", "", "Authorization", "Bearer "+tok); code != 200 || v["username"] != "demo" {
		t.Errorf("me with the token: %d %v", code, v)
	}

	code, h, v = do("PUT", "/api/echo?a=1&a=2&b=x", "application/x-www-form-urlencoded", "name=Ada&lang=en", "X-Trace", "t1")
	q := v["query"].(map[string]any)
	if code != 200 || v["method"] != "PUT" || q["b"] != "x" || len(q["a"].([]any)) != 2 ||
		v["form"].(map[string]any)["name"] != "Ada" || v["headers"].(map[string]any)["x-trace"] != "t1" || h.Get("X-Request-Id") == "" {
		t.Errorf("echo: %d %v", code, v)
	}
	if code, _, v := do("GET", "/api/status/418", "", ""); code != 418 || v["text"] != "I'm a teapot" {
		t.Errorf("status/418: %d %v", code, v)
	}
	if code, h, _ := do("GET", "/api/redirect?to=/api/health", "", ""); code != 302 || h.Get("Location") != "/api/health" {
		t.Errorf("redirect: %d %v", code, h)
	}

	if code, h, v := do("POST", "/api/jobs?ms=0", "", ""); code != 202 || v["status"] != "running" || h.Get("Location") != "/api/jobs/1" {
		t.Errorf("start a job: %d %v %v", code, h, v)
	}
	if code, _, v := do("GET", "/api/jobs/1", "", ""); code != 200 || v["status"] != "done" {
		t.Errorf("a finished job: %d %v", code, v)
	}
	do("POST", "/api/jobs?ms=60000", "", "")
	if code, _, v := do("GET", "/api/jobs/2", "", ""); code != 200 || v["status"] != "running" {
		t.Errorf("a running job: %d %v", code, v)
	}
	if code, _, _ := do("GET", "/api/jobs/3", "", ""); code != 404 {
		t.Errorf("no job 3: %d", code)
	}
}
