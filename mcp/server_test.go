package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// newServer writes files into a new project directory and makes a Server
// for it (extensions from ext/ unless opts says otherwise).
func newServer(t *testing.T, files map[string]string, opts Options) (*Server, string) {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, files)
	opts.Dir = dir
	if opts.Extensions == nil {
		opts.Extensions = []string{"ext"}
	}
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv, dir
}

// connect starts a Server for a project made of files and connects an SDK
// client to it in memory.
func connect(t *testing.T, files map[string]string, opts Options, copts *sdk.ClientOptions) (*sdk.ClientSession, *Server, string) {
	t.Helper()
	srv, dir := newServer(t, files, opts)
	ct, st := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Run(ctx, st)
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, copts)
	cs, err := client.Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs, srv, dir
}

func call(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	return res
}

func text(r *sdk.CallToolResult, i int) string {
	if i >= len(r.Content) {
		return ""
	}
	if tc, ok := r.Content[i].(*sdk.TextContent); ok {
		return tc.Text
	}
	return ""
}

const demoExt = `
defineTool({
  name: "demo.add",
  description: "Add two numbers",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  exposeAsTool: true,
}, async ({ args }) => ({ sum: args.a + args.b }));
defineTool({ name: "demo.hidden" }, async () => "hidden");
defineTool({ name: "demo.text", exposeAsTool: true }, async () => "plain text");
defineTool({ name: "demo.mcp", exposeAsTool: true }, async () => ({ content: [{ type: "text", text: "as is" }] }));
defineTool({ name: "demo.viaPlugins", exposeAsTool: true }, async () => "via " + await plugins["demo.hidden"]());
defineTool({ name: "demo.throws", exposeAsTool: true }, async () => { throw new Error("kaput"); });
defineTool({ name: "run_script", exposeAsTool: true }, async () => "shadow");
defineTool({ name: "bad name!", exposeAsTool: true }, async () => "x");
defineTool({ name: "demo.slow", exposeAsTool: true, timeoutMs: 100 }, () => new Promise(() => {}));
defineTool({ name: "demo.progress", exposeAsTool: true }, async ({ progress }) => {
  for (let i = 1; i <= 3; i++) { await new Promise((r) => setTimeout(r, 5)); progress(i, 3, "step " + i); }
  return "done";
});
`

func TestServerServesExposedTools(t *testing.T) {
	cs, _, _ := connect(t, map[string]string{"ext/demo.ts": demoExt}, Options{}, nil)
	if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || !caps.Tools.ListChanged {
		t.Fatalf("tools.listChanged not advertised: %+v", caps)
	}
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var add *sdk.Tool
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
		if tl.Name == "demo.add" {
			add = tl
		}
	}
	got := strings.Join(names, ",")
	for _, want := range []string{"demo.add", "demo.text", "demo.mcp", "ferridriver_extensions", "run_script"} {
		if !strings.Contains(","+got+",", ","+want+",") {
			t.Fatalf("%s missing from tools/list: %s", want, got)
		}
	}
	if strings.Contains(got, "demo.hidden") || strings.Contains(got, "bad name!") {
		t.Fatalf("non-exposed tools listed: %s", got)
	}
	if add.Description != "Add two numbers" {
		t.Fatalf("description: %q", add.Description)
	}
	schema, _ := json.Marshal(add.InputSchema)
	if !strings.Contains(string(schema), `"required":["a","b"]`) {
		t.Fatalf("inputSchema is the contract: %s", schema)
	}

	r := call(t, cs, "demo.add", map[string]any{"a": 2, "b": 3})
	// The value is sent once: as JSON text (no tool declares an outputSchema).
	if r.IsError || text(r, 0) != `{"sum":5}` || r.StructuredContent != nil {
		t.Fatalf("add: %+v %q", r, text(r, 0))
	}
	if r := call(t, cs, "demo.text", nil); text(r, 0) != "plain text" {
		t.Fatalf("string result: %q", text(r, 0))
	}
	if r := call(t, cs, "demo.mcp", nil); text(r, 0) != "as is" || len(r.Content) != 1 {
		t.Fatalf("MCP-shaped result: %+v", r)
	}
	if r := call(t, cs, "demo.viaPlugins", nil); text(r, 0) != "via hidden" {
		t.Fatalf("plugins from a promoted tool: %q", text(r, 0))
	}
	// The built-in keeps its meaning.
	if r := call(t, cs, "run_script", map[string]any{"source": "return 1"}); strings.Contains(text(r, 0), "shadow") {
		t.Fatalf("an extension shadowed a built-in: %q", text(r, 0))
	}
	// Not exposed: unknown to tools/call (a protocol error).
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "demo.hidden"}); err == nil {
		t.Fatal("a non-exposed tool was callable over MCP")
	}
}

func TestServerErrorsAreToolResults(t *testing.T) {
	cs, _, _ := connect(t, map[string]string{"ext/demo.ts": demoExt}, Options{}, nil)
	r := call(t, cs, "demo.add", map[string]any{"a": "2"})
	if !r.IsError || !strings.HasPrefix(text(r, 0), `invalid arguments for tool "demo.add"`) {
		t.Fatalf("schema violation: %+v %q", r, text(r, 0))
	}
	r = call(t, cs, "demo.throws", nil)
	if !r.IsError || text(r, 0) != "Error: kaput" {
		t.Fatalf("throw: message first: %q", text(r, 0))
	}
	if d := text(r, 1); !strings.Contains(d, "Error: kaput\n    at ") || !strings.Contains(d, "ext/demo.ts:12") {
		t.Fatalf("throw: detail is the mapped stack: %q", d)
	}
	r = call(t, cs, "demo.slow", nil)
	if !r.IsError || !strings.Contains(text(r, 0), `tool "demo.slow" timed out after 100 ms`) {
		t.Fatalf("timeout: %q", text(r, 0))
	}
	// The session is still usable.
	if r := call(t, cs, "demo.text", nil); r.IsError {
		t.Fatal("session broken after errors")
	}
}

func TestServerProgress(t *testing.T) {
	var mu sync.Mutex
	var got []string
	copts := &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		p := req.Params
		got = append(got, strings.Join([]string{p.ProgressToken.(string), p.Message}, ":"))
	}}
	cs, _, _ := connect(t, map[string]string{"ext/demo.ts": demoExt}, Options{}, copts)
	params := &sdk.CallToolParams{Name: "demo.progress"}
	params.SetProgressToken("tok")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatal(err, res)
	}
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 3 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(got, ",") != "tok:step 1,tok:step 2,tok:step 3" {
		t.Fatalf("progress: %v", got)
	}
	got = nil
	mu.Unlock()

	// A tool called through plugins[...] by run_script reports to the
	// script's progress token too (issue 17, item 7).
	params = &sdk.CallToolParams{Name: "run_script", Arguments: map[string]any{"source": `return await plugins["demo.progress"]()`}}
	params.SetProgressToken("script")
	if res, err := cs.CallTool(context.Background(), params); err != nil || res.IsError {
		t.Fatal(err, res)
	}
	waitUntil := time.Now().Add(2 * time.Second)
	for time.Now().Before(waitUntil) {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 5 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	if strings.Join(got, ",") != "script:executing script,script:step 1,script:step 2,script:step 3,script:done" {
		t.Fatalf("progress through run_script: %v", got)
	}
}

func TestExtensionsToolReportsAndReloads(t *testing.T) {
	changed := make(chan struct{}, 4)
	copts := &sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} }}
	cs, _, dir := connect(t, map[string]string{
		"ext/demo.ts": demoExt,
		"ext/cmd.ts": `defineTool({ name: "ops.build", timeoutMs: 5000, allow: { net: ["*.example.com"], commands: {
  make: { run: ["make", "-C", "${dir}"], output: "lines" },
  dev: { run: "npm run dev | tee log", persistent: true, env: ["PORT"] },
} } }, async () => 1);`,
		"ext/z_broken.ts": `defineTool({ name: "demo.add" }, async () => 1);`,
	}, Options{}, copts)
	r := call(t, cs, "ferridriver_extensions", map[string]any{"include_schema": true})
	var rep Report
	if err := json.Unmarshal([]byte(text(r, 0)), &rep); err != nil {
		t.Fatal(err, text(r, 0))
	}
	if rep.Host != "mcp" || rep.Count != 11 || len(rep.Files) != 3 {
		t.Fatalf("report: host %s, count %d, %d files", rep.Host, rep.Count, len(rep.Files))
	}
	if len(rep.Errors) != 1 || rep.Errors[0].File != "ext/z_broken.ts" || !strings.Contains(rep.Errors[0].Message, "ext/demo.ts:2") {
		t.Fatalf("errors: %+v", rep.Errors)
	}
	var build ToolReport
	for _, f := range rep.Files {
		for _, tl := range f.Tools {
			if tl.Name == "ops.build" {
				build = tl
			}
		}
	}
	if build.TimeoutMs == nil || *build.TimeoutMs != 5000 || build.Exposed || build.Allow.Net[0] != "*.example.com" {
		t.Fatalf("ops.build: %+v", build)
	}
	if mk := build.Allow.Commands["make"]; mk.Shell != "" || strings.Join(mk.Argv, " ") != "make -C ${dir}" || mk.TimeoutMs != 120000 || mk.Output != "lines" {
		t.Fatalf("argv spec in full: %+v", mk)
	}
	if dev := build.Allow.Commands["dev"]; dev.Shell != "npm run dev | tee log" || !dev.Persistent || dev.Env[0] != "PORT" {
		t.Fatalf("shell spec in full: %+v", dev)
	}
	if !strings.Contains(text(r, 0), `"inputSchema":null`) || !strings.Contains(text(r, 0), `"required":[`) {
		t.Fatalf("include_schema: every tool's schema (null when none): %s", text(r, 0))
	}
	if r := call(t, cs, "ferridriver_extensions", nil); strings.Contains(text(r, 0), "inputSchema") {
		t.Fatal("schemas are included only on request")
	}
	warned := map[string]bool{}
	for _, w := range rep.Warnings {
		warned[w.Tool] = true
	}
	if !warned["run_script"] || !warned["bad name!"] {
		t.Fatalf("warnings: %+v", rep.Warnings)
	}

	// Reload: a new exposed tool appears and the client is told.
	os.WriteFile(filepath.Join(dir, "ext", "new.ts"), []byte(`defineTool({ name: "fresh.tool", exposeAsTool: true }, async () => "fresh");`), 0o644)
	os.Remove(filepath.Join(dir, "ext", "z_broken.ts"))
	r = call(t, cs, "ferridriver_extensions", map[string]any{"action": "reload"})
	var rel struct {
		Reloaded ReloadReport `json:"reloaded"`
		Errors   []Problem    `json:"errors"`
	}
	json.Unmarshal([]byte(text(r, 0)), &rel)
	if strings.Join(rel.Reloaded.Added, ",") != "fresh.tool" || !rel.Reloaded.ToolListChanged || len(rel.Errors) != 0 {
		t.Fatalf("reload: %s", text(r, 0))
	}
	select {
	case <-changed:
	case <-time.After(3 * time.Second):
		t.Fatal("no notifications/tools/list_changed after reload")
	}
	if r := call(t, cs, "fresh.tool", nil); text(r, 0) != "fresh" {
		t.Fatalf("reloaded tool: %q", text(r, 0))
	}
}

func TestRunScript(t *testing.T) {
	cs, _, _ := connect(t, map[string]string{"ext/demo.ts": demoExt}, Options{}, nil)
	r := call(t, cs, "run_script", map[string]any{"source": `console.log("hi", args[0]); return { sum: (await plugins["demo.add"]({ a: args[0], b: 1 })).sum }`, "args": []any{41}})
	var res ScriptResult
	json.Unmarshal([]byte(text(r, 0)), &res)
	if r.IsError || res.Status != "ok" || res.Console != "hi 41\n" {
		t.Fatalf("run_script: %s", text(r, 0))
	}
	if v, _ := json.Marshal(res.Value); string(v) != `{"sum":42}` {
		t.Fatalf("value: %s", v)
	}
	r = call(t, cs, "run_script", map[string]any{"source": "throw new TypeError('nope')"})
	json.Unmarshal([]byte(text(r, 0)), &res)
	if r.IsError || res.Status != "error" || res.Error.Name != "TypeError" || !strings.Contains(res.Error.Stack, "run_script.js:1") {
		t.Fatalf("run_script always succeeds, with status error: %s", text(r, 0))
	}
	r = call(t, cs, "run_script", map[string]any{"source": "globalThis.kept = 1; for (;;) {}", "timeout_ms": 100})
	json.Unmarshal([]byte(text(r, 0)), &res)
	if res.Status != "error" || res.Error.Name != "TimeoutError" {
		t.Fatalf("timeout: %s", text(r, 0))
	}
	r = call(t, cs, "run_script", map[string]any{"source": "return typeof globalThis.kept"})
	json.Unmarshal([]byte(text(r, 0)), &res)
	if string(mustJSON(res.Value)) != `"undefined"` {
		t.Fatalf("the VM is rebuilt after a timeout: %s", text(r, 0))
	}
	r = call(t, cs, "run_script", map[string]any{"source": "return 1", "bogus": true})
	if !r.IsError {
		t.Fatal("unknown run_script argument accepted")
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// Result conventions (issue 17, items 2, 8, 9, 10, 11 and 13): null is "null", an
// MCP-shaped result keeps isError whatever other keys it has, invalid
// content blocks are a tool error, values over MaxResultBytes are an error
// that says their size, and run_script reports values JSON cannot carry.
func TestResultConventions(t *testing.T) {
	ext := `
defineTool({ name: "r.null", exposeAsTool: true }, async () => null);
defineTool({ name: "r.failExtra", exposeAsTool: true }, async () => ({ content: [{ type: "text", text: "broken" }], isError: true, extra: 1 }));
defineTool({ name: "r.badImage", exposeAsTool: true }, async () => ({ content: [{ type: "image" }] }));
defineTool({ name: "r.badType", exposeAsTool: true }, async () => ({ content: [{ type: "video", data: "x" }] }));
defineTool({ name: "r.fn", exposeAsTool: true }, async () => ({ ok: 1, f: () => 1 }));
defineTool({ name: "r.throwObj", exposeAsTool: true }, async () => { throw { code: 7 }; });
defineTool({ name: "r.huge", exposeAsTool: true }, async () => ({ s: "x".repeat(5 * 1024 * 1024) }));
`
	cs, _, _ := connect(t, map[string]string{"ext/r.ts": ext}, Options{}, nil)
	if r := call(t, cs, "r.null", nil); r.IsError || text(r, 0) != "null" {
		t.Fatalf("null: %+v %q", r, text(r, 0))
	}
	// Item 11: a tool without inputSchema advertises {"type":"object"}.
	for _, bad := range []any{[]any{1, 2}, "str", 5} {
		if r := call(t, cs, "r.null", bad); !r.IsError || !strings.Contains(text(r, 0), "the arguments must be a JSON object") {
			t.Fatalf("arguments %v reached the handler: %q", bad, text(r, 0))
		}
	}
	if r := call(t, cs, "r.failExtra", nil); !r.IsError || text(r, 0) != "broken" || len(r.Content) != 1 {
		t.Fatalf("an MCP-shaped failure with an extra key must stay a failure: %+v %q", r, text(r, 0))
	}
	if r := call(t, cs, "r.badImage", nil); !r.IsError || !strings.Contains(text(r, 0), `content[0]: an image block needs base64 "data" and a "mimeType"`) {
		t.Fatalf("image block without data: %+v %q", r, text(r, 0))
	}
	if r := call(t, cs, "r.badType", nil); !r.IsError || !strings.Contains(text(r, 0), `unknown block type "video"`) {
		t.Fatalf("unknown block type: %+v %q", r, text(r, 0))
	}
	if r := call(t, cs, "r.fn", nil); !r.IsError || !strings.Contains(text(r, 0), `property "f" is a function, which JSON cannot carry`) {
		t.Fatalf("a function property must not vanish: %q", text(r, 0))
	}
	if r := call(t, cs, "r.throwObj", nil); !r.IsError || text(r, 0) != `Error: thrown value {"code":7}` {
		t.Fatalf("a thrown plain object is shown as JSON: %q", text(r, 0))
	}
	r := call(t, cs, "r.huge", nil)
	if !r.IsError || !strings.Contains(text(r, 0), "returned 5242888 bytes of JSON; the limit for one result is 4194304 bytes") {
		t.Fatalf("oversized result: %v %.200q", r.IsError, text(r, 0))
	}

	for _, tc := range []struct{ source, name, msg string }{
		{"const o = {}; o.self = o; return o", "TypeError", "not JSON-serialisable"},
		{"return 10n", "TypeError", "not JSON-serialisable"},
		{"return () => 1", "TypeError", "the value is a function, which JSON cannot carry"},
		{"return { a: 1, f: () => 1 }", "TypeError", `property "f" is a function, which JSON cannot carry`},
		{`return "x".repeat(5 * 1024 * 1024)`, "RangeError", "bytes of JSON; the limit for one result is 4194304 bytes"},
		{`return require("fs").readFileSync("x")`, "Error", `fs.readFileSync: reading "x" is not allowed: it is outside the folders [mcp] allowRead (--allow-read) grants (none)`},
		{`return require("left-pad")`, "Error", `require: module "left-pad" is not available in ferridriver`},
	} {
		r := call(t, cs, "run_script", map[string]any{"source": tc.source})
		var res ScriptResult
		if err := json.Unmarshal([]byte(text(r, 0)), &res); err != nil {
			t.Fatalf("%s: %v", tc.source, err)
		}
		if res.Status != "error" || res.Error == nil || res.Error.Name != tc.name || !strings.Contains(res.Error.Message, tc.msg) {
			t.Fatalf("%s: %.300s", tc.source, text(r, 0))
		}
	}
}

// A handler that spins past its timeoutMs is interrupted, and the next
// call (of any tool) answers at once on a rebuilt VM (issue 11; issue 17,
// items 3 and 5).
func TestRunawayHandlerDoesNotBlockTheSession(t *testing.T) {
	ext := `
defineTool({ name: "spin", exposeAsTool: true, timeoutMs: 300 }, async () => { globalThis.mark = 1; while (true) {} });
defineTool({ name: "spinLater", exposeAsTool: true, timeoutMs: 300 }, async () => { globalThis.mark = 1; await 0; for (;;) {} });
defineTool({ name: "echo", exposeAsTool: true }, async ({ args }) => ({ args, mark: globalThis.mark ?? null }));
`
	cs, _, _ := connect(t, map[string]string{"ext/r.ts": ext}, Options{Timeout: 20 * time.Second}, nil)
	for _, name := range []string{"spin", "spinLater"} {
		start := time.Now()
		r := call(t, cs, name, nil)
		if !r.IsError || !strings.Contains(text(r, 0), "300") || !strings.Contains(text(r, 1), "the script VM was rebuilt") {
			t.Fatalf("%s: %q", name, text(r, 0))
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Fatalf("%s: its timeoutMs of 300 ms ended it after %s", name, took)
		}
		start = time.Now()
		r = call(t, cs, "echo", map[string]any{"x": 1})
		if took := time.Since(start); r.IsError || took > 2*time.Second {
			t.Fatalf("after %s the next call took %s: %q", name, took, text(r, 0))
		}
		if text(r, 0) != `{"args":{"x":1},"mark":null}` {
			t.Fatalf("after %s the VM was not rebuilt: %s", name, text(r, 0))
		}
	}
}

// Cancelling a call whose handler spins frees the session at once (issue
// 17, item 3): the loop is interrupted and the VM rebuilt.
func TestCancelledSpinningCallFreesTheSession(t *testing.T) {
	ext := `defineTool({ name: "spin", exposeAsTool: true }, async () => { for (;;) {} });`
	cs, _, _ := connect(t, map[string]string{"ext/r.ts": ext}, Options{Timeout: 30 * time.Second}, nil)
	for _, tc := range []struct {
		tool string
		args any
	}{{"spin", nil}, {"run_script", map[string]any{"source": "for (;;) {}"}}} {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
		cancel()
		if err == nil {
			t.Fatalf("%s: the cancelled call returned a result", tc.tool)
		}
		start := time.Now()
		r := call(t, cs, "run_script", map[string]any{"source": "return 1 + 1"})
		if took := time.Since(start); took > 3*time.Second || !strings.Contains(text(r, 0), `"value":2`) {
			t.Fatalf("after cancelling %s the next call took %s: %s", tc.tool, took, text(r, 0))
		}
	}
}

// --timeout is an idle limit for extension tools: a handler that reports
// progress outlives it, a silent one does not (issue 17, item 6).
func TestProgressKeepsALongToolAlive(t *testing.T) {
	ext := `
defineTool({ name: "chatty", exposeAsTool: true }, async ({ progress }) => {
  for (let i = 1; i <= 8; i++) { await new Promise((r) => setTimeout(r, 150)); progress(i, 8, "step " + i); }
  return "done";
});
defineTool({ name: "silent", exposeAsTool: true }, () => new Promise((r) => setTimeout(() => r("late"), 5000)));
`
	cs, _, _ := connect(t, map[string]string{"ext/r.ts": ext}, Options{Timeout: 600 * time.Millisecond}, nil)
	if r := call(t, cs, "chatty", nil); r.IsError || text(r, 0) != "done" {
		t.Fatalf("a tool reporting progress every 150 ms for 1.2 s under a 600 ms idle limit: %q", text(r, 0))
	}
	start := time.Now()
	r := call(t, cs, "silent", nil)
	if !r.IsError || !strings.Contains(text(r, 0), "did not finish within the server's limit") {
		t.Fatalf("silent tool: %q", text(r, 0))
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("the silent tool was stopped after %s", took)
	}
}

// A file that stops building keeps serving its last good tools, the reload
// says what failed (isError), and the tool list does not change (issue 17,
// item 14).
func TestReloadKeepsTheLastGoodToolsOfABrokenFile(t *testing.T) {
	cs, _, dir := connect(t, map[string]string{"ext/a.ts": `defineTool({ name: "a.one", exposeAsTool: true }, async () => "one");`}, Options{}, nil)
	testenv.WriteFiles(t, dir, map[string]string{"ext/a.ts": `defineTool({ name: "a.one", exposeAsTool: true }, async () => "one"); this is not TypeScript (`})
	r := call(t, cs, "ferridriver_extensions", map[string]any{"action": "reload"})
	var rep struct {
		Errors   []struct{ File, Message string }
		Reloaded ReloadReport
	}
	if err := json.Unmarshal([]byte(text(r, 0)), &rep); err != nil {
		t.Fatal(err, text(r, 0))
	}
	if !r.IsError || len(rep.Errors) != 1 || rep.Errors[0].File != "ext/a.ts" || !strings.Contains(rep.Errors[0].Message, "its last good build is still served") {
		t.Fatalf("reload of a broken file: isError=%v %s", r.IsError, text(r, 0))
	}
	if rep.Reloaded.ToolListChanged || len(rep.Reloaded.Removed) != 0 {
		t.Fatalf("the broken file's tools were dropped: %s", text(r, 0))
	}
	if r := call(t, cs, "a.one", nil); r.IsError || text(r, 0) != "one" {
		t.Fatalf("last good tool: %q", text(r, 0))
	}
	testenv.WriteFiles(t, dir, map[string]string{"ext/a.ts": `defineTool({ name: "a.one", exposeAsTool: true }, async () => "one"); defineTool({ name: "a.two", exposeAsTool: true }, async () => "two");`})
	r = call(t, cs, "ferridriver_extensions", map[string]any{"action": "reload"})
	if r.IsError || !strings.Contains(text(r, 0), `"added":["a.two"]`) || !strings.Contains(text(r, 0), `"errors":[]`) {
		t.Fatalf("reload after the fix: %s", text(r, 0))
	}
}

// Globals implemented in Go have their JavaScript names, not Go's (issue
// 17, item 13).
func TestNativeGlobalsHaveJSNames(t *testing.T) {
	cs, _, _ := connect(t, map[string]string{"ext/demo.ts": demoExt}, Options{}, nil)
	r := call(t, cs, "run_script", map[string]any{"source": `return [Buffer.name, URL.name, Buffer.from("x").constructor.name, TextEncoder.name, String(Buffer).includes("github.com")].join("|")`})
	if !strings.Contains(text(r, 0), `"value":"Buffer|URL|Buffer|TextEncoder|false"`) {
		t.Fatalf("native names: %s", text(r, 0))
	}
}

// A handler or script that keeps allocating is stopped when the heap
// passes the memory limit; the call fails saying so, the VM is rebuilt and
// its memory returned, and the next call answers (issue 11: a handler that
// exhausts memory does not take the server down).
func TestMemoryHogIsStopped(t *testing.T) {
	ext := `
defineTool({ name: "hog", exposeAsTool: true }, async () => { globalThis.keep = []; for (;;) globalThis.keep.push("x".repeat(1 << 20) + Math.random()); });
defineTool({ name: "echo", exposeAsTool: true }, async ({ args }) => ({ args, kept: typeof globalThis.keep }));
`
	const limit = 128 << 20
	cs, _, _ := connect(t, map[string]string{"ext/r.ts": ext}, Options{MemoryLimit: limit}, nil)
	r := call(t, cs, "hog", nil)
	if !r.IsError || !strings.Contains(text(r, 0), `tool "hog" was stopped: the server's heap reached`) || !strings.Contains(text(r, 0), "over the limit of 128 MiB") {
		t.Fatalf("hog: %q", text(r, 0))
	}
	if r := call(t, cs, "echo", map[string]any{"x": 1}); r.IsError || text(r, 0) != `{"args":{"x":1},"kept":"undefined"}` {
		t.Fatalf("after the hog, the VM was not rebuilt: %q", text(r, 0))
	}
	// The dropped VM's last goroutines may still be unwinding (slowly
	// under the race detector): its memory must be gone shortly.
	deadline := time.Now().Add(5 * time.Second)
	for h := heapBytes(); h > limit; h = heapBytes() {
		if time.Now().After(deadline) {
			t.Errorf("the hog's memory was not returned: heap %d MiB", h>>20)
			break
		}
		time.Sleep(50 * time.Millisecond)
		runtime.GC()
	}
	r = call(t, cs, "run_script", map[string]any{"source": `const a = []; for (;;) a.push("y".repeat(1 << 20) + Math.random());`})
	if !strings.Contains(text(r, 0), `"name":"RangeError"`) || !strings.Contains(text(r, 0), "the script was stopped: the server's heap reached") {
		t.Fatalf("run_script hog: %s", text(r, 0))
	}
	if r := call(t, cs, "run_script", map[string]any{"source": "return 1 + 1"}); !strings.Contains(text(r, 0), `"value":2`) {
		t.Fatalf("after the script hog: %s", text(r, 0))
	}
}
