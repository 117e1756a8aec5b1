package jsbridge

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestDefineToolRegistersBothForms(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({
  name: "acme.greet",
  description: "Say hello",
  inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
  exposeAsTool: true,
  timeoutMs: 1500,
  allow: { net: ["api.example.com"], exec: { hi: { run: ["echo", "hi"] } } },
  handler: async ({ args }) => "hello " + args.who,
});
defineTool({ name: "acme.plain" }, async () => 42);
`,
	}).mustLoad()
	reg := e.vm.Registry()
	if len(reg.Tools) != 2 {
		t.Fatalf("want 2 tools, got %d", len(reg.Tools))
	}
	g := reg.Tool("acme.greet")
	if g.Description != "Say hello" || !g.ExposeAsTool || g.Timeout != 1500*time.Millisecond {
		t.Fatalf("manifest not read: %+v", g)
	}
	if g.File != "ext/a.ts" || g.Source.URI != "ext/a.ts" || g.Source.Line != 2 {
		t.Fatalf("source: file %q, source %v", g.File, g.Source)
	}
	if got := g.Allow.Net.Entries(); len(got) != 1 || got[0] != "api.example.com" {
		t.Fatalf("allow.net: %v", got)
	}
	if names := g.Allow.Commands.Names(); len(names) != 1 || names[0] != "hi" {
		t.Fatalf("allow.exec (alias of commands): %v", names)
	}
	p := reg.Tool("acme.plain")
	if p.ExposeAsTool || p.Timeout != 0 || p.InputSchema != nil || !p.Allow.Net.Unrestricted() {
		t.Fatalf("defaults: %+v", p)
	}
	if got := e.mustRun(`return await plugins["acme.greet"]({ who: "Ada" })`); got != "hello Ada" {
		t.Fatalf("plugins call: %v", got)
	}
	if got := e.mustRun(`return await plugins["acme.plain"]()`); got != int64(42) {
		t.Fatalf("second form: %v", got)
	}
	if got := e.mustRun(`const m = __ferridriver_require("ferridriver"); return typeof m.defineTool + typeof m.plugins + Object.keys(plugins).join(",")`); got != "functionobjectacme.greet,acme.plain" {
		t.Fatalf("module exports: %v", got)
	}
}

func TestDefineToolRejectsBadManifests(t *testing.T) {
	cases := map[string]struct{ src, want string }{
		"blank name":    {`defineTool({ name: "  " }, () => 1)`, "name must be a non-empty string"},
		"missing name":  {`defineTool({ description: "x" }, () => 1)`, "name is required"},
		"no handler":    {`defineTool({ name: "x" })`, `tool "x": no handler`},
		"unknown key":   {`defineTool({ name: "x", exposeAsMcpTool: true }, () => 1)`, `unknown manifest key "exposeAsMcpTool"`},
		"bad timeout":   {`defineTool({ name: "x", timeoutMs: "30s" }, () => 1)`, `timeoutMs must be a positive number`},
		"zero timeout":  {`defineTool({ name: "x", timeoutMs: 0 }, () => 1)`, `timeoutMs must be a positive number`},
		"bad expose":    {`defineTool({ name: "x", exposeAsTool: "yes" }, () => 1)`, `exposeAsTool must be a boolean`},
		"allow typo":    {`defineTool({ name: "x", allow: { comands: {} } }, () => 1)`, `allow: unknown key "comands"`},
		"allow fs":      {`defineTool({ name: "x", allow: { fs: { reed: ["/"] } } }, () => 1)`, `allow.fs: unknown key "reed" (known: read, write)`},
		"bad net entry": {`defineTool({ name: "x", allow: { net: ["http://x.com"] } }, () => 1)`, `allow.net entry "http://x.com"`},
		"bad schema":    {`defineTool({ name: "bad.schema", inputSchema: { type: "objekt" } }, () => 1)`, `tool "bad.schema": invalid inputSchema`},
		"external ref":  {`defineTool({ name: "x", inputSchema: { $ref: "file:///etc/passwd" } }, () => 1)`, `external $ref`},
		"dup same file": {"defineTool({ name: \"d\" }, () => 1)\ndefineTool({ name: \"d\" }, () => 2)", `duplicate tool name "d": already defined in ext/a.js:1, defined again in ext/a.js:2`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			e := newToolEnv(t, map[string]string{"ext/a.js": c.src})
			if len(e.errs) != 1 {
				t.Fatalf("want one load error, got %v", e.errs)
			}
			msg := e.errs[0].Error()
			mustContain(t, msg, "ext/a.js", c.want)
			if len(e.vm.Registry().Tools) != 0 {
				t.Fatalf("a failed file must register nothing: %d tools", len(e.vm.Registry().Tools))
			}
		})
	}
}

func TestDuplicateNameAcrossFilesNamesBothFiles(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts":      "defineTool({ name: \"shared.name\" }, () => 'a');\n",
		"ext/b/deep.ts": "Given('b step', () => {});\n\ndefineTool({ name: \"shared.name\" }, () => 'b');\n",
		"ext/c.ts":      "defineTool({ name: \"c.ok\" }, () => 'c');\n",
	})
	if len(e.errs) != 1 {
		t.Fatalf("want one failing file, got %v", e.errs)
	}
	err := e.errs[0]
	if err.File != "ext/b/deep.ts" {
		t.Fatalf("the later file fails: %s", err.File)
	}
	mustContain(t, err.Error(), `duplicate tool name "shared.name"`, "ext/a.ts:1", "ext/b/deep.ts:3")
	reg := e.vm.Registry()
	if len(reg.Tools) != 2 || reg.Tool("c.ok") == nil || len(reg.Steps) != 0 {
		t.Fatalf("the failing file's registrations are removed, the others load: %d tools, %d steps", len(reg.Tools), len(reg.Steps))
	}
	if got := e.mustRun(`return await plugins["shared.name"]()`); got != "a" {
		t.Fatalf("the first definition stays: %v", got)
	}
}

func TestSchemaRejectionNeverEntersHandler(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
globalThis.calls = 0;
defineTool({
  name: "strict",
  inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 1 }, email: { type: "string", format: "email" } }, required: ["n"], additionalProperties: false },
}, async ({ args }) => { globalThis.calls++; return args.n; });
`,
	}).mustLoad()
	for _, bad := range []string{`{}`, `{ n: "1" }`, `{ n: 0 }`, `{ n: 1, extra: true }`, `{ n: 1, email: "nope" }`, `[1]`, `null`} {
		msg := e.runErr(`return await plugins["strict"](` + bad + `)`)
		mustContain(t, msg, `invalid arguments for tool "strict"`)
	}
	msg := e.runErr(`return await plugins["strict"]({ n: "x" })`)
	mustContain(t, msg, "TypeError", "at /n:")
	if got := e.mustRun(`return globalThis.calls`); got != int64(0) {
		t.Fatalf("the handler ran %v times for rejected calls", got)
	}
	if got := e.mustRun(`return await plugins["strict"]({ n: 3 })`); got != int64(3) {
		t.Fatalf("valid call: %v", got)
	}
	// The Go entry (the MCP server's) goes through the same validation.
	_, err := e.vm.CallTool(context.Background(), "strict", json.RawMessage(`{"n":"3"}`), CallOptions{})
	var ae *ArgsError
	if !errors.As(err, &ae) || ae.Tool != "strict" {
		t.Fatalf("CallTool: want *ArgsError, got %T %v", err, err)
	}
	if got := e.mustRun(`return globalThis.calls`); got != int64(1) {
		t.Fatalf("calls: %v", got)
	}
	// Non-JSON arguments are refused before validation.
	mustContain(t, e.runErr(`const a = {}; a.self = a; return await plugins["strict"](a)`), "not JSON-serialisable")
}

// A tool name is not part of a URL: "#" and "%" in it must not break a
// valid inputSchema (with its internal $ref) nor leak into messages.
func TestSchemaOfToolWithURLCharactersInName(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({
  name: "a#b%zz c",
  inputSchema: { type: "object", properties: { n: { $ref: "#/$defs/pos" } }, required: ["n"], $defs: { pos: { type: "integer", minimum: 1 } } },
}, async ({ args }) => args.n);
`,
	}).mustLoad()
	if got := e.mustRun(`return await plugins["a#b%zz c"]({ n: 2 })`); got != int64(2) {
		t.Fatalf("valid call: %v", got)
	}
	mustContain(t, e.runErr(`return await plugins["a#b%zz c"]({ n: 0 })`), `invalid arguments for tool "a#b%zz c"`, "at /n:")
	bad := newToolEnv(t, map[string]string{
		"ext/a.js": `defineTool({ name: "x#y%zz", inputSchema: { $ref: "#/$defs/missing" } }, () => 1)`,
	})
	if len(bad.errs) != 1 {
		t.Fatalf("want one load error, got %v", bad.errs)
	}
	msg := bad.errs[0].Error()
	mustContain(t, msg, `tool "x#y%zz": invalid inputSchema`)
	if strings.Contains(msg, "ferridriver-tool:") {
		t.Fatalf("the internal schema URL leaks into the message: %s", msg)
	}
}

func TestResultsAreJSONClones(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({ name: "clone" }, async () => ({ when: new Date(0), n: 1, skip: undefined }));
defineTool({ name: "leaky" }, async (ctx) => ({ commands: ctx.commands }));
defineTool({ name: "cyclic" }, async () => { const o = {}; o.o = o; return o; });
defineTool({ name: "nothing" }, async () => {});
`,
	}).mustLoad()
	got := e.mustRun(`return JSON.stringify(await plugins["clone"]())`)
	if got != `{"when":"1970-01-01T00:00:00.000Z","n":1}` {
		t.Fatalf("clone: %v", got)
	}
	// A live object of the handler (its commands) never leaks: its
	// methods would vanish silently, so the result is refused, naming one.
	mustContain(t, e.runErr(`return await plugins["leaky"]()`), `tool "leaky" returned a value that is not JSON-serialisable: property "run" is a function`)
	mustContain(t, e.runErr(`return await plugins["cyclic"]()`), `tool "cyclic" returned a value that is not JSON-serialisable`)
	if got := e.mustRun(`return (await plugins["nothing"]()) === undefined`); got != true {
		t.Fatalf("undefined result: %v", got)
	}
	res, err := e.vm.CallTool(context.Background(), "nothing", nil, CallOptions{})
	if err != nil || res != nil {
		t.Fatalf("CallTool undefined: %s %v", res, err)
	}
}

func TestThrowingHandlerGivesMessageFirstAndMappedStack(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/boom.ts": `
interface Args { why: string }
function explode(a: Args): never {
  throw new RangeError("boom: " + a.why);
}
defineTool({ name: "boom" }, async ({ args }) => {
  await Promise.resolve();
  explode(args as Args);
});
`,
	}).mustLoad()
	_, err := e.vm.CallTool(context.Background(), "boom", json.RawMessage(`{"why":"bad"}`), CallOptions{})
	var je *JSError
	if !errors.As(err, &je) {
		t.Fatalf("want *JSError, got %T %v", err, err)
	}
	if je.Type != "RangeError" || je.Message != "boom: bad" {
		t.Fatalf("message: %s / %s", je.Type, je.Message)
	}
	if !strings.HasPrefix(je.Stack, "RangeError: boom: bad\n") {
		t.Fatalf("message first: %q", je.Stack)
	}
	mustContain(t, je.Stack, "explode (ext/boom.ts:4:")
	// plugins callers get the handler's own error.
	got := e.mustRun(`try { await plugins.boom({ why: "x" }); } catch (e) { return e.name + "|" + e.message + "|" + String(e.stack).includes("ext/boom.ts:4") } return "no error"`)
	if got != "RangeError|boom: x|true" {
		t.Fatalf("plugins error: %v", got)
	}
}

func TestTimeoutMsForEveryCaller(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
globalThis.after = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
defineTool({ name: "slow", timeoutMs: 100 }, async ({ signal }) => {
  signal.addEventListener("abort", () => globalThis.after.push("aborted:" + signal.reason.name));
  await sleep(2000);
  globalThis.after.push("slow finished");
  return "late";
});
defineTool({ name: "outer" }, async () => {
  try { await plugins.slow(); } catch (e) { return "caught " + e.name + ": " + e.message; }
});
defineTool({ name: "outerSlow", timeoutMs: 150 }, async () => plugins.never());
defineTool({ name: "never" }, () => new Promise(() => {}));
defineTool({ name: "spin", timeoutMs: 100 }, () => { for (;;) {} });
`,
	}).mustLoad()
	start := time.Now()
	msg := e.runErr(`return await plugins.slow()`)
	mustContain(t, msg, "TimeoutError", `tool "slow" timed out after 100 ms`)
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Fatalf("direct call took %v", d)
	}
	got := e.mustRun(`return await plugins.outer()`)
	if got != `caught TimeoutError: tool "slow" timed out after 100 ms (its timeoutMs); its pending work was abandoned` {
		t.Fatalf("nested: %v", got)
	}
	mustContain(t, e.runErr(`return await plugins.outerSlow()`), `tool "outerSlow" timed out after 150 ms`)
	start = time.Now()
	mustContain(t, e.runErr(`return await plugins.spin()`), `tool "spin" timed out after 100 ms`)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("a synchronous infinite loop is interrupted at the tool's timeout: took %v", d)
	}
	// The VM is still usable after the interrupt.
	if got := e.mustRun(`return 1 + 1`); got != int64(2) {
		t.Fatalf("after interrupt: %v", got)
	}
	if got := e.mustRun(`return globalThis.after.join(",")`); !strings.Contains(got.(string), "aborted:TimeoutError") {
		t.Fatalf("signal aborted: %v", got)
	}
	// From Go, the same limit: *ToolTimeoutError.
	_, err := e.vm.CallTool(context.Background(), "slow", nil, CallOptions{})
	var tte *ToolTimeoutError
	if !errors.As(err, &tte) || tte.Ms != 100 {
		t.Fatalf("CallTool: %T %v", err, err)
	}
	// The host's own limit stops a tool without timeoutMs.
	_, err = e.vm.CallTool(context.Background(), "never", nil, CallOptions{Timeout: 100 * time.Millisecond})
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("host limit: %T %v", err, err)
	}
}

func TestCallToolCancelledByCaller(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `defineTool({ name: "wait" }, () => new Promise(() => {}));`,
	}).mustLoad()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := e.vm.CallTool(ctx, "wait", nil, CallOptions{Timeout: 5 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "deadline exceeded") {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestProgressReports(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({ name: "steps" }, async ({ progress }) => {
  for (let i = 1; i <= 3; i++) { await null; progress(i, 3, "step " + i); }
  return await plugins.inner();
});
defineTool({ name: "inner" }, async ({ progress }) => { progress(4, 4); return "ok"; });
`,
	}).mustLoad()
	var got []Progress
	res, err := e.vm.CallTool(context.Background(), "steps", nil, CallOptions{Progress: func(p Progress) { got = append(got, p) }})
	if err != nil || string(res) != `"ok"` {
		t.Fatal(res, err)
	}
	if len(got) != 4 || got[0] != (Progress{1, 3, "step 1"}) || got[3] != (Progress{4, 4, ""}) {
		t.Fatalf("progress: %+v", got)
	}
	// plugins callers outside an MCP call: progress is a no-op.
	if got := e.mustRun(`return await plugins.steps()`); got != "ok" {
		t.Fatal(got)
	}
}

func TestDefineToolOnlyAtLoad(t *testing.T) {
	e := newToolEnv(t, map[string]string{"ext/a.ts": `defineTool({ name: "late" }, () => defineTool({ name: "x" }, () => 1));`}).mustLoad()
	mustContain(t, e.runErr(`return await plugins.late()`), "defineTool can only be called while step files and extensions load")
	mustContain(t, e.runErr(`return await plugins.missing()`), "no member 'missing'")
}
