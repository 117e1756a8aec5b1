package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"sync"
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

// rawExt are the extension tools most raw-client tests call.
var rawExt = map[string]string{
	"ferridriver.toml": `extensions = ["ext"]`,
	"ext/echo.ts": `defineTool({ name: "echo", exposeAsTool: true, annotations: { readOnlyHint: true } }, async ({ args }) => args);
defineTool({ name: "spin", exposeAsTool: true }, async () => { for (;;) {} });`,
}

func startRawMCP(t *testing.T) *rawMCP {
	t.Helper()
	return startRawMCPWith(t, rawExt)
}

// startRawMCPWith starts `ferridriver mcp` (with args) in a project made
// of files and initializes the session.
func startRawMCPWith(t *testing.T, files map[string]string, args ...string) *rawMCP {
	t.Helper()
	m := startRawMCPProject(t, files, args...)
	m.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := m.reply(); !strings.Contains(r, `"serverInfo"`) {
		t.Fatalf("initialize: %s", r)
	}
	m.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return m
}

func startRawMCPUninitialized(t *testing.T) *rawMCP {
	t.Helper()
	return startRawMCPProject(t, rawExt)
}

func startRawMCPProject(t *testing.T, files map[string]string, args ...string) *rawMCP {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, files)
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	stdin, stdout, _ := startPiped(t, cmd, "ferridriver mcp")
	m := &rawMCP{t: t, stdin: stdin, lines: make(chan string, 16), cmd: cmd}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			m.lines <- sc.Text()
		}
		close(m.lines)
	}()
	return m
}

// startPiped starts cmd with pipes to its stdin and stdout, keeping its
// stderr. When the test ends, stdin is closed and the process waited for
// (killed after 10 s); its stderr is logged if the test failed.
func startPiped(t *testing.T, cmd *exec.Cmd, what string) (io.WriteCloser, io.ReadCloser, *testenv.SyncBuffer) {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &testenv.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", what, err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s's stderr:\n%s", what, stderr.String())
		}
	})
	return stdin, stdout, stderr
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
		{"unknown method", `{"jsonrpc":"2.0","id":11,"method":"foo/bar"}`, -32601, "11"},
		{"unknown tool", `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"nope"}}`, -32602, "12"},
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

// Closing stdin while a handler spins ends the server within seconds, not
// at --timeout (issue 17, item 4). The browser the server launched at start
// (perhaps still launching) closes with it, which a loaded machine makes
// take a few seconds.
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
		if took := time.Since(start); took > 6*time.Second {
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

// rawReply is a JSON-RPC response as the raw client reads it.
type rawReply struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		IsError bool `json:"isError"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	line string
}

func (r rawReply) text(i int) string {
	if r.Result == nil || i >= len(r.Result.Content) {
		return ""
	}
	return r.Result.Content[i].Text
}

// call sends tools/call name with the raw JSON args and returns the
// response with that id (notifications before it are skipped).
func (m *rawMCP) call(id int, name, args string) rawReply {
	m.t.Helper()
	m.send(`{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/call","params":{"name":` + mustQuote(name) + `,"arguments":` + args + `}}`)
	for {
		line := m.reply()
		var r rawReply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			m.t.Fatalf("reply %.300q: %v", line, err)
		}
		if string(r.ID) == itoa(id) {
			r.line = line
			return r
		}
	}
}

func mustQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// Issue 17, items 2 and 8–13, through the binary and on the wire: a value
// is sent once, compact, with no structuredContent copy; a result over
// 4 MiB (10 MiB as found) is a tool error that says its size, on a line
// the official TypeScript client can read; null is "null"; a function
// property, a cycle or a BigInt is reported, by tools and run_script
// alike; an MCP-shaped failure with an extra key keeps isError; invalid
// content blocks are errors; arguments that are not an object never reach
// the handler; a thrown object is shown as JSON; require of fs or of an
// unknown module says what is missing; Go globals have JavaScript names.
func TestMCPResultConventionsOnTheWire(t *testing.T) {
	m := startRawMCPWith(t, map[string]string{
		"ferridriver.toml": `extensions = ["ext"]`,
		"ext/r.ts": `
globalThis.entered = 0;
defineTool({ name: "r.value", exposeAsTool: true }, async () => ({ a: 1, list: [1, 2] }));
defineTool({ name: "r.null", exposeAsTool: true }, async () => null);
defineTool({ name: "r.count", exposeAsTool: true }, async () => ++globalThis.entered);
defineTool({ name: "r.entered", exposeAsTool: true }, async () => globalThis.entered);
defineTool({ name: "r.failExtra", exposeAsTool: true }, async () => ({ content: [{ type: "text", text: "broken" }], isError: true, extra: 1 }));
defineTool({ name: "r.badImage", exposeAsTool: true }, async () => ({ content: [{ type: "image" }] }));
defineTool({ name: "r.badType", exposeAsTool: true }, async () => ({ content: [{ type: "video", data: "x" }] }));
defineTool({ name: "r.fn", exposeAsTool: true }, async () => ({ f: () => 1 }));
defineTool({ name: "r.cycle", exposeAsTool: true }, async () => { const o: any = {}; o.self = o; return o; });
defineTool({ name: "r.bigint", exposeAsTool: true }, async () => 10n);
defineTool({ name: "r.throwObj", exposeAsTool: true }, async () => { throw { code: 7 }; });
defineTool({ name: "r.huge", exposeAsTool: true }, async () => "x".repeat(10 * 1024 * 1024));
`,
	})
	id := 0
	next := func() int { id++; return id }

	r := m.call(next(), "r.value", `{}`)
	if r.Result == nil || r.Result.IsError || len(r.Result.Content) != 1 || r.text(0) != `{"a":1,"list":[1,2]}` || r.Result.StructuredContent != nil {
		t.Errorf("item 2: a value is sent once, as compact JSON text: %s", r.line)
	}
	r = m.call(next(), "r.huge", `{}`)
	if !r.Result.IsError || !strings.Contains(r.text(0), "returned 10485762 bytes of JSON; the limit for one result is 4194304 bytes") || len(r.line) > 1<<20 {
		t.Errorf("item 2: a 10 MiB result: a %d-byte line: %.300s", len(r.line), r.line)
	}
	if r = m.call(next(), "r.null", `{}`); r.Result.IsError || r.text(0) != "null" {
		t.Errorf("item 8: null: %s", r.line)
	}
	for _, tc := range []struct{ tool, want string }{
		{"r.fn", `tool "r.fn" returned a value that is not JSON-serialisable: property "f" is a function, which JSON cannot carry`},
		{"r.cycle", "not JSON-serialisable"},
		{"r.bigint", "not JSON-serialisable"},
	} {
		if r = m.call(next(), tc.tool, `{}`); !r.Result.IsError || !strings.Contains(r.text(0), tc.want) {
			t.Errorf("item 9: %s: %s", tc.tool, r.line)
		}
	}
	if r = m.call(next(), "r.failExtra", `{}`); !r.Result.IsError || r.text(0) != "broken" || len(r.Result.Content) != 1 {
		t.Errorf("item 10: an MCP-shaped failure with an extra key: %s", r.line)
	}
	if r = m.call(next(), "r.badImage", `{}`); !r.Result.IsError || !strings.Contains(r.text(0), `content[0]: an image block needs base64 "data" and a "mimeType"`) {
		t.Errorf("item 10: an image block without data: %s", r.line)
	}
	if r = m.call(next(), "r.badType", `{}`); !r.Result.IsError || !strings.Contains(r.text(0), `unknown block type "video"`) {
		t.Errorf("item 10: an unknown block type: %s", r.line)
	}
	for _, bad := range []string{`[1,2]`, `"str"`, `5`} {
		if r = m.call(next(), "r.count", bad); !r.Result.IsError || !strings.Contains(r.text(0), "the arguments must be a JSON object") {
			t.Errorf("item 11: arguments %s: %s", bad, r.line)
		}
	}
	if r = m.call(next(), "r.entered", `{}`); r.text(0) != "0" {
		t.Errorf("item 11: the handler was entered for arguments that are not an object: %s", r.line)
	}
	if r = m.call(next(), "r.throwObj", `{}`); !r.Result.IsError || r.text(0) != `Error: thrown value {"code":7}` {
		t.Errorf("item 13: a thrown plain object: %s", r.line)
	}
	for _, tc := range []struct{ source, status, want string }{
		{"const o = {}; o.self = o; return o", "error", "not JSON-serialisable"},
		{"return 10n", "error", "not JSON-serialisable"},
		{"return { a: 1, f: () => 1 }", "error", `property \"f\" is a function, which JSON cannot carry`},
		{`return "x".repeat(10 * 1024 * 1024)`, "error", "bytes of JSON; the limit for one result is 4194304 bytes"},
		{`return require("fs").readFileSync("x")`, "error", `is not allowed: it is outside the folders [mcp] allowRead (--allow-read) grants (none)`},
		{`return require("left-pad")`, "error", `module \"left-pad\" is not available in ferridriver`},
		{`return [Buffer.name, Buffer.from("x").constructor.name, URL.name, TextEncoder.name].join("|")`, "ok", `"value":"Buffer|Buffer|URL|TextEncoder"`},
	} {
		r = m.call(next(), "run_script", `{"source":`+mustQuote(tc.source)+`}`)
		if !strings.Contains(r.text(0), `"status":"`+tc.status+`"`) || !strings.Contains(r.text(0), tc.want) || strings.Contains(r.text(0), "github.com/") || len(r.line) > 1<<20 {
			t.Errorf("items 9/13: run_script %s: %.400s", tc.source, r.line)
		}
	}
	// The session carries on after all of it.
	if r = m.call(next(), "r.count", `{}`); r.text(0) != "1" {
		t.Errorf("after the conventions: %s", r.line)
	}
}

// A 10 MB argument gets a tool error naming its size, not a crash; the
// next call answers (issue 11).
func TestMCPTenMegabyteArgument(t *testing.T) {
	m := startRawMCP(t)
	r := m.call(1, "echo", `{"s":"`+strings.Repeat("x", 10<<20)+`"}`)
	if r.Result == nil || !r.Result.IsError || !strings.Contains(r.text(0), "the arguments of echo are 10485768 bytes of JSON; the limit for one call is 4194304 bytes") {
		t.Fatalf("a 10 MB argument: %.300s", r.line)
	}
	if r = m.call(2, "echo", `{"n":1}`); r.text(0) != `{"n":1}` {
		t.Fatalf("after the 10 MB argument: %s", r.line)
	}
}

// runawayExt are tools whose JavaScript never yields.
const runawayExt = `
defineTool({ name: "runaway", exposeAsTool: true, timeoutMs: 500 }, async () => { globalThis.mark = 1; while (true) {} });
defineTool({ name: "spinLater", exposeAsTool: true, timeoutMs: 1000 }, async () => { globalThis.mark = 1; await 0; for (;;) {} });
defineTool({ name: "spin", exposeAsTool: true }, async () => { for (;;) {} });
defineTool({ name: "echo", exposeAsTool: true }, async ({ args }) => ({ args, mark: globalThis.mark ?? null }));
`

// Issue 11's runaway handler and issue 17, item 5, through the binary: a
// handler looping forever (before or after an await) is interrupted at
// its timeoutMs, whatever the server's --timeout, and the next call of
// another tool answers within a second on a rebuilt VM.
func TestMCPRunawayHandlerThroughTheBinary(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/r.ts": runawayExt})
	cs, _ := mcpClient(t, dir, nil, "--timeout", "5s")
	for _, tc := range []struct {
		tool string
		ms   string
	}{{"runaway", "500"}, {"spinLater", "1000"}} {
		start := time.Now()
		r := mcpCall(t, cs, tc.tool, nil)
		took := time.Since(start)
		if !r.IsError || !strings.Contains(resultText(r, 0), "timed out after "+tc.ms+" ms") || !strings.Contains(resultText(r, 1), "the script VM was rebuilt") {
			t.Fatalf("%s: %q %q", tc.tool, resultText(r, 0), resultText(r, 1))
		}
		if took > 3*time.Second {
			t.Errorf("%s (timeoutMs %s) answered after %s: its own timeout was not honoured (--timeout is 5s)", tc.tool, tc.ms, took)
		}
		start = time.Now()
		r = mcpCall(t, cs, "echo", map[string]any{"x": 1})
		if took := time.Since(start); r.IsError || took > time.Second {
			t.Fatalf("after %s the next call took %s: %q", tc.tool, took, resultText(r, 0))
		}
		if resultText(r, 0) != `{"args":{"x":1},"mark":null}` {
			t.Errorf("after %s the VM was not rebuilt (a global set before survived): %s", tc.tool, resultText(r, 0))
		}
	}
}

// Issue 17, item 3 as found: under --timeout 40s a call whose handler
// spins is cancelled after 1 s (the Go SDK client sends
// notifications/cancelled); the next run_script answers within a second.
// The same for run_script itself.
func TestMCPCancelledSpinningCallThroughTheBinary(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/r.ts": runawayExt})
	cs, _ := mcpClient(t, dir, nil, "--timeout", "40s")
	for _, tc := range []struct {
		tool string
		args any
	}{{"spin", nil}, {"run_script", map[string]any{"source": "for (;;) {}"}}} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
		cancel()
		if err == nil {
			t.Fatalf("%s: the cancelled call returned a result", tc.tool)
		}
		start := time.Now()
		r := mcpCall(t, cs, "run_script", map[string]any{"source": "return 1 + 1"})
		if took := time.Since(start); took > time.Second || !strings.Contains(resultText(r, 0), `"value":2`) {
			t.Fatalf("after cancelling %s the next call took %s: %s", tc.tool, took, resultText(r, 0))
		}
	}
}

// Issue 17, items 6 and 7, through the binary: under --timeout 2s a tool
// reporting progress every 500 ms for 5 s finishes (the limit is an idle
// one), a silent one is stopped near 2 s; progress of a tool that
// run_script calls through plugins[...] reaches run_script's token.
func TestMCPProgressThroughTheBinary(t *testing.T) {
	var mu sync.Mutex
	progress := map[any][]string{}
	copts := &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		progress[req.Params.ProgressToken] = append(progress[req.Params.ProgressToken], req.Params.Message)
	}}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/p.ts": `
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
defineTool({ name: "chatty", exposeAsTool: true }, async ({ progress }) => {
  for (let i = 1; i <= 10; i++) { await sleep(500); progress(i, 10, "step " + i); }
  return "done";
});
defineTool({ name: "silent", exposeAsTool: true }, () => sleep(10000).then(() => "late"));
defineTool({ name: "inner" }, async ({ progress }) => {
  for (let i = 1; i <= 2; i++) { await sleep(5); progress(i, 2, "inner " + i); }
  return "inner done";
});
`})
	cs, _ := mcpClientWith(t, dir, nil, copts, "--timeout", "2s")
	params := &sdk.CallToolParams{Name: "chatty"}
	params.SetProgressToken("chatty")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if r, err := cs.CallTool(ctx, params); err != nil || r.IsError || resultText(r, 0) != "done" {
		t.Fatalf("item 6: a tool reporting progress every 500 ms for 5 s under --timeout 2s: %v %q", err, resultText(r, 0))
	}
	start := time.Now()
	r := mcpCall(t, cs, "silent", nil)
	took := time.Since(start)
	if !r.IsError || !strings.Contains(resultText(r, 0), "did not finish within the server's limit of 2s") || took < 1500*time.Millisecond || took > 5*time.Second {
		t.Fatalf("item 6: a silent tool under --timeout 2s answered after %s: %q", took, resultText(r, 0))
	}
	params = &sdk.CallToolParams{Name: "run_script", Arguments: map[string]any{"source": `return await plugins["inner"]()`}}
	params.SetProgressToken("script")
	if r, err := cs.CallTool(ctx, params); err != nil || !strings.Contains(resultText(r, 0), `"value":"inner done"`) {
		t.Fatalf("item 7: run_script: %v %q", err, resultText(r, 0))
	}
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(progress["script"]) >= 4 })
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(progress["script"], "; "); got != "executing script; inner 1; inner 2; done" {
		t.Errorf("item 7: progress of a tool called through plugins in run_script: %q", got)
	}
	if len(progress["chatty"]) != 10 {
		t.Errorf("item 6: the chatty tool's progress: %q", progress["chatty"])
	}
}

// Issue 17, item 14, with an explicit reload through the binary: a file
// that no longer builds keeps its last good tools, the reload answers
// isError naming the file, and nothing changes for the client (no
// list_changed); once fixed, its new tool is added and the client told.
func TestMCPReloadOfABrokenFileThroughTheBinary(t *testing.T) {
	listChanged := make(chan struct{}, 8)
	copts := &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { listChanged <- struct{}{} }}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/a.ts": `defineTool({ name: "a.one", exposeAsTool: true }, async () => "one");`})
	cs, _ := mcpClientWith(t, dir, nil, copts, "--no-watch")
	testenv.WriteFiles(t, dir, map[string]string{"ext/a.ts": `defineTool({ name: "a.one", exposeAsTool: true }, async () => "one"); this is not TypeScript (`})
	r := mcpCall(t, cs, "ferridriver_extensions", map[string]any{"action": "reload"})
	if !r.IsError || !strings.Contains(resultText(r, 0), `"file":"ext/a.ts"`) || !strings.Contains(resultText(r, 0), "its last good build is still served") || !strings.Contains(resultText(r, 0), `"toolListChanged":false`) {
		t.Fatalf("reload of a broken file: isError=%v %s", r.IsError, resultText(r, 0))
	}
	if r := mcpCall(t, cs, "a.one", nil); r.IsError || resultText(r, 0) != "one" {
		t.Fatalf("the broken file's last good tool: %q", resultText(r, 0))
	}
	select {
	case <-listChanged:
		t.Fatal("list_changed sent though the served tools did not change")
	case <-time.After(300 * time.Millisecond):
	}
	testenv.WriteFiles(t, dir, map[string]string{"ext/a.ts": `defineTool({ name: "a.one", exposeAsTool: true }, async () => "one"); defineTool({ name: "a.two", exposeAsTool: true }, async () => "two");`})
	r = mcpCall(t, cs, "ferridriver_extensions", map[string]any{"action": "reload"})
	if r.IsError || !strings.Contains(resultText(r, 0), `"added":["a.two"]`) || !strings.Contains(resultText(r, 0), `"errors":[]`) {
		t.Fatalf("reload after the fix: %s", resultText(r, 0))
	}
	select {
	case <-listChanged:
	case <-time.After(5 * time.Second):
		t.Fatal("no list_changed after the fixed file added a tool")
	}
}

// A handler that keeps allocating is stopped at --memory-limit; the
// server stays up and the next call answers on a rebuilt VM (issue 11:
// "a handler that ... exhausts memory does not take the server down").
func TestMCPMemoryHogThroughTheBinary(t *testing.T) {
	m := startRawMCPWith(t, map[string]string{
		"ferridriver.toml": `extensions = ["ext"]`,
		"ext/hog.ts": `defineTool({ name: "hog", exposeAsTool: true }, async () => { globalThis.keep = []; for (;;) globalThis.keep.push("x".repeat(1 << 20) + Math.random()); });
defineTool({ name: "kept", exposeAsTool: true }, async () => typeof globalThis.keep);`,
	}, "--memory-limit", "200")
	start := time.Now()
	r := m.call(1, "hog", `{}`)
	if r.Result == nil || !r.Result.IsError || !strings.Contains(r.text(0), "over the limit of 200 MiB") {
		t.Fatalf("the memory hog: %.400s", r.line)
	}
	t.Logf("stopped after %s", time.Since(start).Round(time.Millisecond))
	if r = m.call(2, "kept", `{}`); r.text(0) != "undefined" {
		t.Fatalf("after the hog: %s", r.line)
	}
	r = m.call(3, "run_script", `{"source":"const a = []; for (;;) a.push(\"y\".repeat(1 << 20) + Math.random());"}`)
	if !strings.Contains(r.text(0), "the script was stopped") || !strings.Contains(r.text(0), "over the limit of 200 MiB") {
		t.Fatalf("the script hog: %.400s", r.line)
	}
	if r = m.call(4, "run_script", `{"source":"return 6 * 7"}`); !strings.Contains(r.text(0), `"value":42`) {
		t.Fatalf("after the script hog: %s", r.line)
	}
}
