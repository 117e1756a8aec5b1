package mcp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer serves a Server for a project made of files over HTTP with
// o; it returns the endpoint and the server.
func httpServer(t *testing.T, files map[string]string, o HTTPOptions) (string, *Server) {
	t.Helper()
	srv, _ := newServer(t, files, Options{})
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewServer(srv.HTTPHandler(o))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp", srv
}

func initialize(t *testing.T, endpoint string, headers map[string]string) (int, string) {
	t.Helper()
	return postJSON(t, endpoint, headers, `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
}

// postJSON posts a JSON-RPC body with headers and returns the status and
// the answer.
func postJSON(t *testing.T, endpoint string, headers map[string]string, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", endpoint, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestHTTPOriginAndToken(t *testing.T) {
	endpoint, _ := httpServer(t, nil, HTTPOptions{Token: "tok", Origins: []string{"https://App.example/"}})
	for _, c := range []struct {
		origin, auth string
		want         int
	}{
		{"", "Bearer tok", 200},
		{"", "bearer tok", 200},
		{"", "BeArEr   tok", 200},
		{"", "Bearer tok2", 401},
		{"", "tok", 401},
		{"", "", 401},
		{"http://localhost:1234", "Bearer tok", 200},
		{"http://sub.localhost", "Bearer tok", 200},
		{"https://127.0.0.1", "Bearer tok", 200},
		{"http://[::1]:80", "Bearer tok", 200},
		{"https://app.example", "Bearer tok", 200},
		{"http://app.example", "Bearer tok", 403},
		{"null", "Bearer tok", 403},
		{"http://evil.example", "Bearer tok", 403},
		{"http://localhost.evil.example", "Bearer tok", 403},
		{"http://127.0.0.1.evil.example", "Bearer tok", 403},
		{"file://", "Bearer tok", 403},
		{"http://evil.example", "", 403},
	} {
		h := map[string]string{}
		if c.origin != "" {
			h["Origin"] = c.origin
		}
		if c.auth != "" {
			h["Authorization"] = c.auth
		}
		got, body := initialize(t, endpoint, h)
		if got != c.want {
			t.Errorf("Origin %q, Authorization %q: %d, want %d: %s", c.origin, c.auth, got, c.want, body)
		}
		if got == 403 && !strings.Contains(body, "--http-origins") {
			t.Errorf("the 403 should say how to allow an origin: %s", body)
		}
	}
}

func TestHTTPSessionCap(t *testing.T) {
	endpoint, srv := httpServer(t, nil, HTTPOptions{MaxSessions: 1})
	ctx := context.Background()
	first, err := sdk.NewClient(&sdk.Implementation{Name: "a", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	status, body := initialize(t, endpoint, nil)
	if status != 200 || !strings.Contains(body, `"id":7`) || !strings.Contains(body, "--max-sessions") {
		t.Fatalf("past the cap: %d %s", status, body)
	}
	_, err = sdk.NewClient(&sdk.Implementation{Name: "b", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("a client past the cap: %v", err)
	}
	first.Close()
	waitUntil(t, func() bool {
		n := 0
		for range srv.SDK().Sessions() {
			n++
		}
		return n == 0
	})
	second, err := sdk.NewClient(&sdk.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatalf("after the first client left: %v", err)
	}
	second.Close()
}

// TestHTTPSessionCapCountsEachClientOnce: clients that connect one after
// the other up to the cap all get in (a client's initialize is not counted
// twice while its answer is still being sent).
func TestHTTPSessionCapCountsEachClientOnce(t *testing.T) {
	_, srv := httpServer(t, nil, HTTPOptions{})
	h := srv.HTTPHandler(HTTPOptions{MaxSessions: 5}).(*httpFront)
	// The SDK's handler returns a while after its answer went out (the
	// client is then already on): such a request must not count as a
	// session on top of the one it opened.
	sdkHandler := h.next
	h.next = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sdkHandler.ServeHTTP(w, r)
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			time.Sleep(300 * time.Millisecond)
		}
	})
	ts := httptest.NewServer(h)
	defer ts.Close()
	endpoint := ts.URL + "/mcp"
	for i := range 5 {
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "a", Version: "1"}, nil).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err != nil {
			t.Fatalf("client %d of 5: %v", i+1, err)
		}
		defer cs.Close()
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestHTTPIdleSessionIsClosedWithItsClientState(t *testing.T) {
	endpoint, srv := httpServer(t, nil, HTTPOptions{SessionIdleTimeout: 300 * time.Millisecond})
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "a", Version: "1"}, nil).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if r := call(t, cs, "run_script", map[string]any{"source": "globalThis.x = 1; return 1"}); r.IsError {
		t.Fatal(text(r, 0))
	}
	if srv.Clients() != 1 {
		t.Fatalf("clients: %d", srv.Clients())
	}
	waitUntil(t, func() bool { return srv.Clients() == 0 })
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_script", Arguments: map[string]any{"source": "return 1"}}); err == nil {
		t.Fatal("a call on an expired session should fail")
	}
}

func TestHTTPSlowBodyIsCut(t *testing.T) {
	endpoint, _ := httpServer(t, nil, HTTPOptions{ReadTimeout: 300 * time.Millisecond})
	sendSlowBody(t, endpoint)
}

// TestHTTPSlowBodyPastTheSessionCapIsCut: the body of a new client that
// the cap refuses is read (for its id) under the same read timeout.
func TestHTTPSlowBodyPastTheSessionCapIsCut(t *testing.T) {
	endpoint, _ := httpServer(t, nil, HTTPOptions{ReadTimeout: 300 * time.Millisecond, MaxSessions: 1})
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "a", Version: "1"}, nil).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	sendSlowBody(t, endpoint)
}

// sendSlowBody sends a new client's POST whose body comes a byte every
// 50 ms, and fails unless the server cuts it soon after its 300 ms read
// timeout.
func sendSlowBody(t *testing.T, endpoint string) {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(endpoint, "http://"), "/mcp")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{", addr)
	start := time.Now()
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
				if _, err := c.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	_ = c.SetReadDeadline(time.Now().Add(8 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("a body sent a byte every 50 ms was not cut at the 300 ms read timeout: %v after %s (%q)", err, d, line)
	}
}

// post sends body to the session's endpoint and returns the status and
// the answer.
func post(t *testing.T, endpoint, session, body string) (int, string) {
	t.Helper()
	return postJSON(t, endpoint, map[string]string{"Mcp-Session-Id": session}, body)
}

func TestHTTPOversizedMessagesAreAnsweredWithoutTheSDK(t *testing.T) {
	endpoint, _ := httpServer(t, nil, HTTPOptions{})
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "a", Version: "1"}, nil).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	big := strings.Repeat("y", 6<<20)
	for _, c := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"a call, id first", `{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"run_script","arguments":{"source":"` + big + `"}}}`,
			200, `{"id":41,"jsonrpc":"2.0","result":{"content":[{"type":"text","text":"the arguments of run_script are 6291469 bytes of JSON; the limit for one call is 4194304 bytes (4 MiB)`},
		{"a call, id last", `{"params":{"arguments":{"x":[1,{"a":"` + big + `"}]},"name":"run_script"},"method":"tools/call","jsonrpc":"2.0","id":"s"}`,
			200, `{"id":"s","jsonrpc":"2.0","result":{"content":[{"type":"text","text":"the arguments of run_script are`},
		{"another request", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"` + big + `"}}`,
			200, `"id":3,"jsonrpc":"2.0"}`},
		{"a notification", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"x":"` + big + `"}}`, 202, ""},
		{"not JSON", `{"jsonrpc":"2.0","id":3,"method":` + big, 400, "not one JSON-RPC message"},
		{"over the frame limit", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"x":"` + strings.Repeat("z", MaxFrameBytes) + `"}}`, 413, "over 33554432 bytes"},
	} {
		start := time.Now()
		status, got := post(t, endpoint, cs.ID(), c.body)
		t.Logf("%s: %s", c.name, time.Since(start))
		if status != c.status || !strings.Contains(got, c.want) {
			t.Errorf("%s: %d %.300s, want %d and %q", c.name, status, got, c.status, c.want)
		}
	}
	if status, got := post(t, endpoint, "no-such-session", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":"`+big+`"}}}`); status != 404 {
		t.Errorf("an unknown session: %d %.200s", status, got)
	}
	// The session carries on.
	if r := call(t, cs, "run_script", map[string]any{"source": "return 5"}); !strings.Contains(text(r, 0), `"value":5`) {
		t.Errorf("after the oversized messages: %s", text(r, 0))
	}
}

// TestHTTPReadTimeoutBoundsOnlyTheBody: a call that runs longer than the
// read timeout, its body long read, is answered.
func TestHTTPReadTimeoutBoundsOnlyTheBody(t *testing.T) {
	endpoint, _ := httpServer(t, nil, HTTPOptions{ReadTimeout: 300 * time.Millisecond})
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "a", Version: "1"}, nil).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	r := call(t, cs, "run_script", map[string]any{"source": "await new Promise((r) => setTimeout(r, 1000)); return 'late'"})
	if !strings.Contains(text(r, 0), `"value":"late"`) {
		t.Fatalf("a call longer than the read timeout: %s", text(r, 0))
	}
}
