package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// rawMCP is `ferridriver mcp` driven line by line, as a careless client
// would: it writes frames to stdin and reads stdout's lines.
type rawMCP struct {
	t     *testing.T
	stdin io.WriteCloser
	lines chan string
	cmd   *exec.Cmd
}

func startRawMCP(t *testing.T) *rawMCP {
	t.Helper()
	m := startRawMCPUninitialized(t)
	m.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := m.reply(); !strings.Contains(r, `"serverInfo"`) {
		t.Fatalf("initialize: %s", r)
	}
	m.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m
}

func startRawMCPUninitialized(t *testing.T) *rawMCP {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": `extensions = ["ext"]`,
		"ext/echo.ts": `defineTool({ name: "echo", exposeAsTool: true, annotations: { readOnlyHint: true } }, async ({ args }) => args);
defineTool({ name: "spin", exposeAsTool: true }, async () => { for (;;) {} });`,
	})
	cmd := exec.Command(binary, "mcp")
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr testenv.SyncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m := &rawMCP{t: t, stdin: stdin, lines: make(chan string, 16), cmd: cmd}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			m.lines <- sc.Text()
		}
		close(m.lines)
	}()
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("stderr:\n%s", stderr.String())
		}
	})
	return m
}

func (m *rawMCP) send(frame string) {
	m.t.Helper()
	if _, err := io.WriteString(m.stdin, frame+"\n"); err != nil {
		m.t.Fatalf("writing %q: %v (the server is gone)", frame, err)
	}
}

// reply is the next line the server writes.
func (m *rawMCP) reply() string {
	m.t.Helper()
	select {
	case l, ok := <-m.lines:
		if !ok {
			m.t.Fatal("the server closed stdout (it exited)")
		}
		return l
	case <-time.After(20 * time.Second):
		m.t.Fatal("no reply within 20 s")
	}
	return ""
}

// Issue 17, item 1: no malformed line kills the server. Each gets the
// JSON-RPC error it calls for (id null when the frame has no usable id),
// and the next valid request still answers.
func TestMCPMalformedFramesGetErrorsAndTheServerCarriesOn(t *testing.T) {
	m := startRawMCP(t)
	for i, tc := range []struct {
		name, frame string
		code        int
		id          string
	}{
		{"not JSON", `{not json`, -32700, "null"},
		{"truncated object", `{"jsonrpc":"2.0","id":5,"method":"tools/li`, -32700, "null"},
		{"NUL bytes", "\x00\x00{\"jsonrpc\":\"2.0\"}", -32700, "null"},
		{"empty array", `[]`, -32600, "null"},
		{"a batch", `[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]`, -32600, "null"},
		{"bare number", `42`, -32600, "null"},
		{"bare string", `"hello"`, -32600, "null"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":8,"method":"tools/list"}`, -32600, "8"},
		{"no jsonrpc", `{"id":9,"method":"tools/list"}`, -32600, "9"},
		{"object id", `{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`, -32600, "null"},
		{"no method", `{"jsonrpc":"2.0","id":"m1"}`, -32600, `"m1"`},
		{"method not a string", `{"jsonrpc":"2.0","id":10,"method":3}`, -32600, "10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m.t = t
			m.send(tc.frame)
			var r struct {
				ID    json.RawMessage `json:"id"`
				Error *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			line := m.reply()
			if err := json.Unmarshal([]byte(line), &r); err != nil || r.Error == nil {
				t.Fatalf("reply %q: not an error response", line)
			}
			if r.Error.Code != tc.code || string(r.ID) != tc.id {
				t.Fatalf("reply %s: want code %d, id %s", line, tc.code, tc.id)
			}
			// The server carries on.
			id := 100 + i
			m.send(`{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/call","params":{"name":"echo","arguments":{"n":1}}}`)
			if next := m.reply(); !strings.Contains(next, `"id":`+itoa(id)) || !strings.Contains(next, `{\"n\":1}`) {
				t.Fatalf("after %q the next call answered %s", tc.frame, next)
			}
		})
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// Closing stdin while a handler spins ends the server within a second or
// two, not at --timeout (issue 17, item 4).
func TestMCPStdinEOFDuringASpinningCallExits(t *testing.T) {
	m := startRawMCP(t)
	m.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"spin","arguments":{}}}`)
	time.Sleep(300 * time.Millisecond) // let the handler start spinning
	start := time.Now()
	m.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- m.cmd.Wait() }()
	select {
	case <-done:
		if took := time.Since(start); took > 3*time.Second {
			t.Fatalf("the server took %s to exit after EOF", took)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server still runs 20 s after stdin closed (its --timeout is 5 minutes)")
	}
}

// Editing an extension file reloads it without a reload call: a new tool
// is listed after notifications/tools/list_changed; a file that then fails
// to build keeps its tools and sends nothing (issue 17, item 14; issue 11's
// hot reload).
func TestMCPHotReload(t *testing.T) {
	listChanged := make(chan struct{}, 8)
	copts := &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { listChanged <- struct{}{} }}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/a.ts": `defineTool({ name: "a.one", exposeAsTool: true }, async () => "one");`})
	cs, stderr := mcpClientWith(t, dir, nil, copts)
	testenv.WriteFiles(t, dir, map[string]string{"ext/b.ts": `defineTool({ name: "b.two", exposeAsTool: true }, async () => "two");`})
	select {
	case <-listChanged:
	case <-time.After(15 * time.Second):
		t.Fatalf("no list_changed after adding ext/b.ts\n%s", stderr.String())
	}
	if !toolNames(t, cs)["b.two"] {
		t.Fatal("the new file's tool is not listed")
	}
	testenv.WriteFiles(t, dir, map[string]string{"ext/b.ts": `defineTool({ name: "b.two", exposeAsTool: true }, async () => "two"); syntax error (`})
	waitFor(t, func() bool { return strings.Contains(stderr.String(), "its last good build is still served") })
	select {
	case <-listChanged:
		t.Fatal("list_changed sent though the served tools did not change")
	default:
	}
	if r := mcpCall(t, cs, "b.two", nil); r.IsError || resultText(r, 0) != "two" {
		t.Fatalf("the broken file's last good tool: %+v", r)
	}
}

// A request before initialize is an invalid request (-32600) with its id,
// not an error with code 0; initialize then works (issue 17, item 1).
func TestMCPRequestBeforeInitialize(t *testing.T) {
	m := startRawMCPUninitialized(t)
	m.send(`{"jsonrpc":"2.0","id":"early","method":"tools/list"}`)
	if r := m.reply(); !strings.Contains(r, `"id":"early"`) || !strings.Contains(r, `"code":-32600`) || !strings.Contains(r, "before initialize") {
		t.Fatalf("request before initialize: %s", r)
	}
	m.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := m.reply(); !strings.Contains(r, `"serverInfo"`) {
		t.Fatalf("initialize after the refusal: %s", r)
	}
}

// Declared annotations are advertised as declared, nothing added (issue
// 17, item 12).
func TestMCPAnnotationsAsDeclared(t *testing.T) {
	m := startRawMCP(t)
	m.send(`{"jsonrpc":"2.0","id":"l","method":"tools/list"}`)
	r := m.reply()
	var res struct {
		Result struct {
			Tools []struct {
				Name        string          `json:"name"`
				Annotations json.RawMessage `json:"annotations"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(r), &res); err != nil {
		t.Fatal(err, r)
	}
	for _, tl := range res.Result.Tools {
		if tl.Name == "echo" {
			if string(tl.Annotations) != `{"readOnlyHint":true}` {
				t.Fatalf("echo's annotations: %s", tl.Annotations)
			}
			return
		}
	}
	t.Fatalf("echo not listed: %s", r)
}
