package demoapp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ferridriver/ferridriver/demoapp"
)

// The endpoints of the round-two built-in steps: the catalogue's basket
// and export, GraphQL, XML and the WebSocket.
func TestCatalogueGraphQLXMLAndWebSocket(t *testing.T) {
	srv := httptest.NewServer(demoapp.Handler())
	defer srv.Close()
	do := func(method, path, ctype, body string) (int, http.Header, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	for _, tc := range []struct {
		name, method, path, ctype, body string
		status                          int
		want                            []string
	}{
		{"catalogue page", "GET", "/catalogue.html", "", "", 200, []string{`id="products"`}},
		{"basket", "POST", "/api/basket", "application/json", `{"sku": "F-3", "quantity": 2}`, 201, []string{`"name":"Eggs"`, `"quantity":2`, `"price":3.1`}},
		{"basket over stock", "POST", "/api/basket", "application/json", `{"sku": "F-4", "quantity": 1}`, 409, []string{`only 0 in stock`}},
		{"export", "GET", "/api/export.csv", "", "", 200, []string{"sku,name,price\nF-1,Milk,1.20\n"}},
		{"graphql query", "POST", "/graphql", "application/json", `{"query": "query ($id: Int!) { user(id: $id) { name address { city } } }", "variables": {"id": 2}}`, 200, []string{`{"data":{"user":{"address":{"city":"New York"},"name":"Grace Hopper"}}}`}},
		{"graphql get", "GET", "/graphql?query=%7Busers(role%3A%22viewer%22)%7Bname%7D%7D", "", "", 200, []string{`{"data":{"users":[{"name":"Alan Turing"}]}}`}},
		{"graphql error", "POST", "/graphql", "application/json", `{"query": "{ user(id: 42) { name } }"}`, 200, []string{`"message":"no user 42"`, `"path":["user"]`, `"data":{"user":null}`}},
		{"graphql mutation", "POST", "/graphql", "application/json", `{"query": "mutation { addToBasket(sku: \"F-1\", quantity: 3) { quantity name } }"}`, 200, []string{`{"data":{"addToBasket":{"name":"Milk","quantity":3}}}`}},
		{"graphql not a request", "POST", "/graphql", "application/json", `nope`, 400, []string{`body must be JSON`}},
		{"xml users", "GET", "/api/xml/users", "", "", 200, []string{`<users total="3">`, `<user id="1" active="true">`, `<role>editor</role>`}},
		{"xml user", "GET", "/api/xml/users/3", "", "", 200, []string{`<user id="3" active="false">`, `<name>Alan Turing</name>`}},
		{"xml no user", "GET", "/api/xml/users/9", "", "", 404, []string{`<error>no user 9</error>`}},
		{"xml echo", "POST", "/api/xml/echo", "application/xml", `<?xml version="1.0"?><a b="1">x</a>`, 200, []string{`<echo method="POST" contentType="application/xml"><a b="1">x</a></echo>`}},
		{"xml echo not xml", "POST", "/api/xml/echo", "application/xml", `<a>`, 400, []string{`the body is not XML`}},
	} {
		status, h, body := do(tc.method, tc.path, tc.ctype, tc.body)
		if status != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, status, tc.status, body)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the body lacks %s:\n%s", tc.name, w, body)
			}
		}
		if tc.name == "export" && h.Get("Content-Disposition") != `attachment; filename="products.csv"` {
			t.Errorf("export: Content-Disposition %q", h.Get("Content-Disposition"))
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws?user=ada", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	read := func() string {
		t.Helper()
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	write := func(s string) {
		t.Helper()
		if err := c.Write(ctx, websocket.MessageText, []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(); got != `{"type":"welcome","user":"ada"}` {
		t.Errorf("welcome: %s", got)
	}
	write(`{"type": "ping", "id": 7}`)
	if got := read(); got != `{"id":7,"type":"pong"}` {
		t.Errorf("pong: %s", got)
	}
	write(`{"type": "subscribe", "topic": "orders"}`)
	for i := 1; i <= 3; i++ {
		if got := read(); !strings.Contains(got, `"type":"order"`) {
			t.Errorf("order %d: %s", i, got)
		}
	}
	write("hello")
	if got := read(); got != "echo: hello" {
		t.Errorf("echo: %s", got)
	}
	write(`{"type": "close"}`)
	_, _, err = c.Read(ctx)
	if websocket.CloseStatus(err) != websocket.StatusNormalClosure {
		t.Errorf("close: %v", err)
	}
}
