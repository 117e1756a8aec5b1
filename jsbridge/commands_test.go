package jsbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// injections are values that would do harm if a shell evaluated them.
var injections = []string{
	`; touch PWNED`,
	`$(touch PWNED)`,
	"`touch PWNED`",
	`' ; touch PWNED ; '`,
	`" ; touch PWNED ; "`,
	`a && touch PWNED`,
	`| touch PWNED`,
	`> PWNED`,
	"line\ntouch PWNED",
	`${HOME}`,
	`*`,
}

func TestCommandsSubstitutionIsInert(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work) // commands run in the server's working directory
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({
  name: "echo",
  allow: { commands: {
    argv: { run: ["printf", "%s", "${v}"] },
    shell: { run: "printf '%s' ${v}" },
    shellShort: "printf %s ${v}",
  } },
}, async ({ args, commands }) => commands.run(args.cmd, { v: args.v }));
`,
	}).mustLoad()
	for _, cmd := range []string{"argv", "shell"} {
		for _, v := range injections {
			args, _ := json.Marshal(map[string]string{"cmd": cmd, "v": v})
			got := e.mustRun(fmt.Sprintf(`return await plugins.echo(%s)`, args))
			if got != strings.TrimSpace(v) {
				t.Errorf("%s form: %q came back as %q", cmd, v, got)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(work, "PWNED")); err == nil {
		t.Fatal("an injected command ran")
	}
	if _, err := os.Stat(filepath.Join(e.dir, "PWNED")); err == nil {
		t.Fatal("an injected command ran")
	}
	// Strictness: a missing placeholder or an object value throws.
	mustContain(t, e.runErr(`return await plugins.echo({ cmd: "argv" })`), `command "argv": missing value for ${v}`)
	mustContain(t, e.runErr(`return await plugins.echo({ cmd: "shell", v: { a: 1 } })`), `value for ${v} must be a string, number or boolean`)
	mustContain(t, e.runErr(`return await plugins.echo({ cmd: "rm", v: "x" })`), `command "rm" is not in this tool's allow.commands (declared: argv, shell, shellShort)`)
	if got := e.mustRun(`return await plugins.echo({ cmd: "shellShort", v: 3 })`); got != "3" {
		t.Fatalf("number value: %v", got)
	}
}

func TestCommandsLimits(t *testing.T) {
	tmp := t.TempDir()
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
defineTool({
  name: "limits",
  allow: { commands: {
    grandchild: { run: ["sh", "-c", "sleep 60 & echo $! > \"$0\"; wait", "${pidfile}"], timeoutMs: 300 },
    flood: { run: ["sh", "-c", "head -c 9000000 /dev/zero"] },
    fail: { run: ["sh", "-c", "echo oops >&2; exit 3"] },
    json: { run: ["echo", "{\"a\": [1, 2]}"], output: "json" },
    lines: { run: ["printf", "a\\n\\n b \\n"], output: "lines" },
    empty: { run: ["true"] },
  } },
}, async ({ args, commands }) => commands.run(args.cmd, args.vars));
defineTool({
  name: "slowtool",
  timeoutMs: 300,
  allow: { commands: { child: { run: ["sh", "-c", "sleep 60 & echo $! > \"$0\"; wait", "${pidfile}"] } } },
}, async ({ args, commands }) => commands.run("child", { pidfile: args.pidfile }));
`,
	}).mustLoad()
	pidfile := filepath.Join(tmp, "grandchild.pid")
	start := time.Now()
	msg := e.runErr(fmt.Sprintf(`return await plugins.limits({ cmd: "grandchild", vars: { pidfile: %q } })`, pidfile))
	mustContain(t, msg, `command "grandchild" timed out after 300ms (process group killed)`)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("timeout took %v", d)
	}
	assertDead(t, pidfile)

	// The tool's own timeoutMs abandons the handler and kills its command's group.
	pidfile2 := filepath.Join(tmp, "tool.pid")
	msg = e.runErr(fmt.Sprintf(`return await plugins.slowtool({ pidfile: %q })`, pidfile2))
	mustContain(t, msg, `tool "slowtool" timed out after 300 ms`)
	assertDead(t, pidfile2)

	mustContain(t, e.runErr(`return await plugins.limits({ cmd: "flood" })`), `command "flood": stdout exceeded 8388608 bytes (process group killed)`)
	mustContain(t, e.runErr(`return await plugins.limits({ cmd: "fail" })`), `command "fail" failed: exit 3: oops`)
	if got := e.mustRun(`return JSON.stringify(await plugins.limits({ cmd: "json" }))`); got != `{"a":[1,2]}` {
		t.Fatalf("json: %v", got)
	}
	if got := e.mustRun(`return JSON.stringify(await plugins.limits({ cmd: "lines" }))`); got != `["a","b"]` {
		t.Fatalf("lines: %v", got)
	}
	if got := e.mustRun(`return await plugins.limits({ cmd: "empty" })`); got != nil {
		t.Fatalf("empty text output is null: %v", got)
	}
}

// assertDead waits for the pid written in pidfile to be gone.
func assertDead(t *testing.T, pidfile string) {
	t.Helper()
	var pid int
	for i := 0; i < 100; i++ {
		b, err := os.ReadFile(pidfile)
		if err == nil && len(strings.TrimSpace(string(b))) > 0 {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if pid == 0 {
		t.Fatalf("no pid in %s", pidfile)
	}
	for i := 0; i < 100; i++ {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("process %d outlived the timeout", pid)
}

const persistentExt = `
const cmds = {};
for (let i = 0; i < 17; i++) cmds["p" + i] = { run: ["sleep", "60"], persistent: true };
cmds.once = { run: ["echo", "x"] };
cmds.chatty = { run: ["sh", "-c", "echo started; sleep 60"], persistent: true };
defineTool({ name: "procs", allow: { commands: cmds } }, async ({ args, commands }) => {
  switch (args.op) {
    case "startAll": { const out = []; for (let i = 0; i < 17; i++) { try { out.push((await commands.start("p" + i)).pid > 0); } catch (e) { out.push(e.message); } } return out; }
    case "stopAll": { for (let i = 0; i < 17; i++) { try { await commands.stop("p" + i); } catch (e) {} } return "stopped"; }
    default: return await commands[args.op](args.name);
  }
});
defineTool({ name: "other", allow: { commands: { chatty: { run: ["sh", "-c", "echo other; sleep 60"], persistent: true } } } }, async ({ args, commands }) => commands[args.op]("chatty"));
`

func TestPersistentCommands(t *testing.T) {
	e := newToolEnv(t, map[string]string{"ext/a.ts": persistentExt}).mustLoad()
	defer e.mustRun(`return await plugins.procs({ op: "stopAll" })`)
	got := e.mustRun(`return JSON.stringify(await plugins.procs({ op: "startAll" }))`).(string)
	if !strings.HasPrefix(got, `[true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,"command \"p16\": cannot start: the session already runs 16 persistent processes (the maximum); stop one first"]`) {
		t.Fatalf("16-process limit: %s", got)
	}
	e.mustRun(`return await plugins.procs({ op: "stopAll" })`)
	// Kinds do not mix.
	mustContain(t, e.runErr(`return await plugins.procs({ op: "run", name: "chatty" })`), `command "chatty" is declared persistent: use commands.start`)
	mustContain(t, e.runErr(`return await plugins.procs({ op: "start", name: "once" })`), `command "once" is not declared persistent: use commands.run`)
	mustContain(t, e.runErr(`return await plugins.procs({ op: "status", name: "once" })`), `is not declared persistent`)
	// start / status (ring buffer) / stop.
	pid := e.mustRun(`return (await plugins.procs({ op: "start", name: "chatty" })).pid`)
	if again := e.mustRun(`return (await plugins.procs({ op: "start", name: "chatty" })).pid`); again != pid {
		t.Fatalf("start is idempotent while running: %v then %v", pid, again)
	}
	var st string
	for i := 0; i < 50; i++ {
		st = e.mustRun(`const s = await plugins.procs({ op: "status", name: "chatty" }); return JSON.stringify([s.running, s.exitCode, s.stdout])`).(string)
		if st == `[true,null,"started\n"]` {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st != `[true,null,"started\n"]` {
		t.Fatalf("status: %s", st)
	}
	// Scoped per tool: "other" declares the same name but sees its own table.
	mustContain(t, e.runErr(`return await plugins.other({ op: "status" })`), `no persistent process started by this tool in this session`)
	stopped := e.mustRun(`const s = await plugins.procs({ op: "stop", name: "chatty" }); return JSON.stringify([s.running, s.exitCode])`)
	if stopped != `[false,-1]` {
		t.Fatalf("stop: %v", stopped)
	}
	mustContain(t, e.runErr(`return await plugins.procs({ op: "status", name: "chatty" })`), `no persistent process started by this tool`)
}

func TestPersistentProcessSurvivesVMRebuild(t *testing.T) {
	sess := capability.NewSession()
	defer sess.Close()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "ext"), 0o755)
	os.WriteFile(filepath.Join(dir, "ext", "a.ts"), []byte(persistentExt), 0o644)
	set, err := BuildExtensions(dir, []string{"ext"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	newVM := func() *VM {
		vm, err := NewVM(nil, VMOptions{Host: HostMCP, Dir: dir, Stdout: &testenv.SyncBuffer{}, Stderr: &testenv.SyncBuffer{}})
		if err != nil {
			t.Fatal(err)
		}
		SetCommandSession(vm, sess)
		if errs := set.Load(vm); len(errs) > 0 {
			t.Fatal(errs)
		}
		return vm
	}
	call := func(vm *VM, args string) map[string]any {
		res, err := vm.CallTool(context.Background(), "procs", json.RawMessage(args), CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal(res, &m)
		return m
	}
	vm1 := newVM()
	started := call(vm1, `{"op":"start","name":"chatty"}`)
	vm1.Close() // a rebuild: the VM goes, the session stays
	vm2 := newVM()
	defer vm2.Close()
	st := call(vm2, `{"op":"status","name":"chatty"}`)
	if st["running"] != true || st["pid"] != started["pid"] {
		t.Fatalf("after the rebuild: %v (started %v)", st, started)
	}
	pid := int(started["pid"].(float64))
	sess.Close() // the session ends: its processes die
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("process %d survived the session", pid)
	}
}

func TestFirstPartyCommands(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `defineTool({ name: "t" }, async () => { try { await commands.run("hello"); return "ran"; } catch (e) { return e.message; } });`,
	}).mustLoad()
	set, err := capability.ParseCommands(map[string]any{"hello": map[string]any{"run": []any{"echo", "hello ${who}"}}})
	if err != nil {
		t.Fatal(err)
	}
	SetScriptCommands(e.vm, set)
	if got := e.mustRun(`return await commands.run("hello", { who: "me" })`); got != "hello me" {
		t.Fatalf("first-party run: %v", got)
	}
	if got := e.mustRun(`return await plugins.t()`); !strings.Contains(got.(string), `the global commands object is first-party ([scripting.allow.commands]); tool "t" must use its handler's ctx.commands`) {
		t.Fatalf("a tool inherited [scripting.allow.commands]: %v", got)
	}
}

func TestProcessEnvIsTheAllowList(t *testing.T) {
	for _, host := range []string{HostBDD, HostMCP, HostScript} {
		t.Run(host, func(t *testing.T) {
			t.Setenv("FD_TEST_A", "a-value")
			t.Setenv("FD_TEST_SECRET", "nope")
			env := capability.EnvAllowList([]string{"FD_TEST_A", "FD_TEST_MISSING"}, os.Environ())
			e := newToolEnv(t, map[string]string{
				"ext/a.ts": `defineTool({ name: "env" }, async () => ({ env: process.env, frozen: Object.isFrozen(process.env) }));`,
			}, withHost(host), withEnv(env)).mustLoad()
			got := e.mustRun(`const r = await plugins.env(); return JSON.stringify([r, process.env, "FD_TEST_MISSING" in process.env])`)
			// Step code may add to process.env (dotenv does); it stays
			// the VM's. Tools and scripts see it frozen.
			frozen := host != HostBDD
			if want := fmt.Sprintf(`[{"env":{"FD_TEST_A":"a-value"},"frozen":%v},{"FD_TEST_A":"a-value"},false]`, frozen); got != want {
				t.Fatalf("%s: %v, want %s", host, got, want)
			}
			set := e.mustRun(`process.env.FD_TEST_SET = 42; return JSON.stringify([process.env.FD_TEST_SET, Object.keys(process.env)])`)
			want := `[null,["FD_TEST_A"]]`
			if !frozen {
				want = `["42",["FD_TEST_A","FD_TEST_SET"]]`
			}
			if set != want {
				t.Fatalf("%s: setting process.env: %v, want %s", host, set, want)
			}
			if os.Getenv("FD_TEST_SET") != "" {
				t.Fatal("process.env reached the real environment")
			}
			empty := newToolEnv(t, map[string]string{"ext/a.ts": ``}, withHost(host), withEnv(capability.EnvAllowList(nil, os.Environ())))
			if got := empty.mustRun(`return JSON.stringify(process.env)`); got != `{}` {
				t.Fatalf("empty allow-list: %v", got)
			}
		})
	}
}

// The filesystem follows who runs, not the API: a tool gets its allow.fs
// (nothing without one), first-party code of the mcp and script hosts the
// host's grant, first-party code of the bdd host every path.
func TestFSForToolsAndScripts(t *testing.T) {
	files := map[string]string{
		"ext/a.ts": `import fs from "node:fs";
defineTool({ name: "read" }, async ({ args }) => fs.readFileSync(args.p, "utf8"));
defineTool({ name: "data", allow: { fs: { read: ["data"], write: ["out"] } } }, async ({ args }) => {
  if (args.write) { fs.writeFileSync(args.p, "w"); return fs.readFileSync(args.p, "utf8"); }
  return fs.readFileSync(args.p, "utf8");
});`,
		"data/x.txt": "data",
		"out/.keep":  "",
		"secret.txt": "secret",
	}
	link := func(e *toolEnv) {
		if err := os.Symlink("../secret.txt", filepath.Join(e.dir, "data/link.txt")); err != nil {
			t.Fatal(err)
		}
	}
	for _, host := range []string{HostMCP, HostScript, HostBDD} {
		e := newToolEnv(t, files, withHost(host)).mustLoad()
		link(e)
		// A tool without allow.fs reads nothing, in any host.
		mustContain(t, e.runErr(`return await plugins.read({ p: "data/x.txt" })`),
			`fs.readFileSync: tool "read": reading "data/x.txt" is not allowed: it is outside the folders allow.fs.read grants (none); add its folder to allow.fs.read`)
		// allow.fs grants its folders, and only them.
		if got := e.mustRun(`return await plugins.data({ p: "data/x.txt" })`); got != "data" {
			t.Fatalf("%s: allowed read: %v", host, got)
		}
		if got := e.mustRun(`return await plugins.data({ p: "out/new.txt", write: true })`); got != "w" {
			t.Fatalf("%s: allowed write: %v", host, got)
		}
		mustContain(t, e.runErr(`return await plugins.data({ p: "secret.txt" })`), `tool "data": reading "secret.txt" is not allowed`, "allow.fs.read grants (data, out)")
		mustContain(t, e.runErr(`return await plugins.data({ p: "data/link.txt" })`), `reading "data/link.txt" (which resolves to`, `secret.txt") is not allowed`)
		mustContain(t, e.runErr(`return await plugins.data({ p: "data/y.txt", write: true })`), `writing "data/y.txt" is not allowed`, "allow.fs.write grants (out)")
		mustContain(t, e.runErr(`try { await plugins.data({ p: "/etc/hostname" }) } catch (e) { throw new Error(e.code + " " + e.permission) }`), "ERR_ACCESS_DENIED FileSystemRead")
		if host == HostBDD {
			// First-party code of the bdd host: every path, as under Node.
			if got := e.mustRun(`return __ferridriver_require("node:fs").readFileSync("data/link.txt", "utf8")`); got != "secret" {
				t.Fatalf("bdd step fs: %v", got)
			}
			continue
		}
		setting := map[string]string{HostMCP: "[mcp] allowRead (--allow-read)", HostScript: "[scripting.allow.fs] read"}[host]
		mustContain(t, e.runErr(`return __ferridriver_require("node:fs").readFileSync("data/x.txt")`),
			`fs.readFileSync: reading "data/x.txt" is not allowed: it is outside the folders `+setting+` grants (none); add its folder to `+setting)
		// The host's grant binds first-party code, never tools.
		grant, err := capability.NewFSPolicy([]string{"."}, nil, capability.FSGrant{Read: "--allow-read", Write: "--allow-write"})
		if err != nil {
			t.Fatal(err)
		}
		SetScriptFiles(e.vm, grant)
		if got := e.mustRun(`return __ferridriver_require("node:fs").readFileSync("data/x.txt", "utf8")`); got != "data" {
			t.Fatalf("%s: granted read: %v", host, got)
		}
		mustContain(t, e.runErr(`return __ferridriver_require("node:fs").writeFileSync("data/y.txt", "x")`), `writing "data/y.txt" is not allowed: it is outside the folders --allow-write grants (none)`)
		mustContain(t, e.runErr(`return await plugins.read({ p: "data/x.txt" })`), `tool "read": reading "data/x.txt" is not allowed`)
	}
}

// fakeBrowser is a BrowserProvider returning marker objects.
type fakeBrowser struct{ asked []string }

func (f *fakeBrowser) Page(vm *VM, frame *ToolFrame) (goja.Value, error) {
	name := "script"
	if frame != nil {
		name = frame.Tool().Name
	}
	f.asked = append(f.asked, "page:"+name)
	o := vm.Runtime().NewObject()
	o.Set("kind", "page for "+name)
	return o, nil
}

func (f *fakeBrowser) Context(vm *VM, frame *ToolFrame) (goja.Value, error) {
	o := vm.Runtime().NewObject()
	o.Set("kind", "context")
	return o, nil
}

func TestBrowserProviderFillsPageAndContext(t *testing.T) {
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `defineTool({ name: "b" }, async ({ page, context }) => [page === undefined ? "none" : page.kind, context === undefined ? "none" : context.kind]);`,
	}, withHost(HostScript)).mustLoad()
	if got := e.mustRun(`return JSON.stringify([await plugins.b(), typeof page, typeof context])`); got != `[["none","none"],"undefined","undefined"]` {
		t.Fatalf("without a provider: %v", got)
	}
	fb := &fakeBrowser{}
	SetBrowserProvider(e.vm, fb)
	if got := e.mustRun(`return JSON.stringify([await plugins.b(), page.kind, context.kind])`); got != `[["page for b","context"],"page for script","context"]` {
		t.Fatalf("with a provider: %v", got)
	}
}

// TestCallbackContextCapture shows how a browser binding (page.on, route)
// keeps the registering handler's policy: capture Loop.Context() when the
// callback is registered, run it later with Loop.Enqueue (or RunIn).
func TestCallbackContextCapture(t *testing.T) {
	srv, _ := testServer(t)
	e := newToolEnv(t, map[string]string{
		"ext/a.ts": `
globalThis.events = [];
defineTool({ name: "listen", allow: { net: ["localhost"] } }, async ({ args }) => {
  fakePage.on("response", async () => {
    try { await fetch(args.url); events.push("allowed"); } catch (e) { events.push("denied"); }
  });
  return "listening";
});
`,
	}).mustLoad()
	// A stand-in for a browser binding's page.on.
	var listeners []func()
	page := e.vm.rt.NewObject()
	page.Set("on", func(call goja.FunctionCall) goja.Value {
		fn, _ := goja.AssertFunction(call.Argument(1))
		ctx := e.vm.Loop().Context() // captured at registration
		listeners = append(listeners, func() {
			e.vm.Loop().Enqueue(ctx, func() { fn(goja.Undefined()) })
		})
		return goja.Undefined()
	})
	e.vm.rt.Set("fakePage", page)
	e.mustRun(fmt.Sprintf(`return await plugins.listen({ url: %q })`, srv.URL+"/ok"))
	go func() {
		for _, l := range listeners {
			l() // the browser emits an event, from its own goroutine
		}
	}()
	got := e.mustRun(`for (let i = 0; i < 100 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 10)); return events.join()`)
	if got != "denied" {
		t.Fatalf("the event callback ran outside the handler's policy: %v", got)
	}
}
