package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// ferridriverWithEnv runs the binary in dir with extra environment
// variables (KEY=value) on top of the test's environment.
func ferridriverWithEnv(t testing.TB, dir string, env []string, args ...string) runResult {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1"), env...)
	return runCommand(t, cmd, "ferridriver")
}

func wantContains(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Fatalf("%s: expected %q in:\n%s", what, w, got)
		}
	}
}

// sharedProject is one project whose single extension file contributes
// steps under bdd and tools under mcp (and script), gated on
// ferridriver.host.
var sharedProject = map[string]string{
	"ferridriver.toml": `extensions = ["extensions"]
[test]
features = ["features"]
[scripting]
allowEnv = ["FD_E2E_ALLOWED", "FD_E2E_UNSET"]
`,
	"extensions/shared.ts": `
if (ferridriver.host === "bdd") {
  Given("the host is {string}", function (host: string) {
    if (ferridriver.host !== host) throw new Error("host is " + ferridriver.host);
  });
  Then("process.env is exactly the allow-list", function () {
    const env = JSON.stringify(process.env);
    if (env !== '{"FD_E2E_ALLOWED":"yes"}') throw new Error("process.env = " + env);
    // Step code may add to it (dotenv does); the real environment is untouched.
    process.env.FD_E2E_ADDED = 1;
    if (process.env.FD_E2E_ADDED !== "1") throw new Error("process.env did not take a value");
  });
  Then("no tool is registered", function () {
    if (Object.keys(plugins).length !== 0) throw new Error("tools under bdd: " + Object.keys(plugins));
  });
}
if (ferridriver.host === "mcp" || ferridriver.host === "script") {
  defineTool({
    name: "shared.hello",
    description: "Greets, from the same file as the steps",
    inputSchema: { type: "object", properties: { who: { type: "string" } }, required: ["who"] },
    exposeAsTool: true,
  }, async ({ args }) => ({ greeting: "hello " + args.who, host: ferridriver.host, env: process.env, steps: typeof Given }));
}
`,
	"features/shared.feature": `Feature: shared extension
  Scenario: steps from the extension
    Given the host is "bdd"
    Then process.env is exactly the allow-list
    And no tool is registered
`,
	"script.ts": `
const r = await plugins["shared.hello"]({ who: "script" });
console.log(JSON.stringify({ r, env: process.env }));
`,
}

var allowEnv = []string{"FD_E2E_ALLOWED=yes", "FD_E2E_SECRET=do-not-leak"}

func TestExtensionSameFileServesBDDAndMCP(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, sharedProject)

	// bdd: the steps load and run, the tool registration is skipped.
	res := ferridriverWithEnv(t, dir, allowEnv, "bdd")
	if res.code != 0 {
		t.Fatalf("bdd exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "bdd", res.stdout, "1 scenario (1 passed)", "3 steps (3 passed)")

	// mcp: the same file's tool is served, the steps are not.
	cs, _ := mcpClient(t, dir, allowEnv)
	names := toolNames(t, cs)
	if !names["shared.hello"] {
		t.Fatalf("shared.hello not served: %v", names)
	}
	r := mcpCall(t, cs, "shared.hello", map[string]any{"who": "agent"})
	var out map[string]any
	json.Unmarshal([]byte(resultText(r, 0)), &out)
	if out["greeting"] != "hello agent" || out["host"] != "mcp" {
		t.Fatalf("mcp call: %s", resultText(r, 0))
	}
	if env, _ := json.Marshal(out["env"]); string(env) != `{"FD_E2E_ALLOWED":"yes"}` {
		t.Fatalf("process.env under mcp: %s", env)
	}

	// script: host "script", the same tool, the same env rule.
	res = ferridriverWithEnv(t, dir, allowEnv, "run", "script.ts")
	if res.code != 0 {
		t.Fatalf("run exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "run", res.stdout, `"host":"script"`, `"env":{"FD_E2E_ALLOWED":"yes"}}`)
	if strings.Contains(res.stdout, "do-not-leak") {
		t.Fatal("a variable outside allowEnv reached the script")
	}

	// extensions: per host.
	res = ferridriverWithEnv(t, dir, allowEnv, "extensions", "--json", "--host", "bdd")
	var rep struct {
		Count int `json:"count"`
	}
	if json.Unmarshal([]byte(res.stdout), &rep); res.code != 0 || rep.Count != 0 {
		t.Fatalf("extensions --host bdd: exit %d %s", res.code, res.stdout)
	}
}

func TestExtensionEnvEmptyWithoutAllowList(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": `extensions = ["ext"]`,
		"ext/e.ts":         `defineTool({ name: "env" }, async () => process.env);`,
		"s.ts":             `console.log(JSON.stringify([process.env, await plugins.env()]));`,
	})
	res := ferridriverWithEnv(t, dir, allowEnv, "run", "s.ts")
	if res.code != 0 || strings.TrimSpace(res.stdout) != `[{},{}]` {
		t.Fatalf("exit %d: %s %s", res.code, res.stdout, res.stderr)
	}
}

func TestExtensionDuplicateNamesAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "extensions = [\"ext\"]\n[test]\nfeatures = [\"features\"]\n",
		"ext/a.ts":         "defineTool({ name: \"dup.tool\" }, async () => 'a');\n",
		"ext/sub/b.tsx":    "// b\ndefineTool({ name: \"dup.tool\" }, async () => 'b');\n",
		"ext/c.mjs":        "defineTool({ name: \"blank\".slice(5) }, async () => 'c');\n",
		"features/x.feature": `Feature: x
  Scenario: y
    Given nothing
`,
		"s.ts": `console.log(await plugins["dup.tool"]());`,
	})
	res := ferridriver(t, dir, "extensions")
	if res.code != 1 {
		t.Fatalf("extensions: want exit 1, got %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "extensions", res.stdout, `duplicate tool name "dup.tool": already defined in ext/a.ts:1, defined again in ext/sub/b.tsx:2`,
		"ext/c.mjs", "name must be a non-empty string")
	res = ferridriver(t, dir, "run", "s.ts")
	if res.code != 2 {
		t.Fatalf("run: want exit 2, got %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "run", res.stderr, "ext/a.ts:1", "ext/sub/b.tsx:2")
	// bdd bundles steps and extensions as one module: the duplicate stops the run.
	os.Remove(filepath.Join(dir, "ext", "c.mjs"))
	res = ferridriver(t, dir, "bdd")
	if res.code != 2 {
		t.Fatalf("bdd: want exit 2, got %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "bdd", res.stderr, `duplicate tool name "dup.tool"`, "ext/a.ts:1", "ext/sub/b.tsx:2")
}

func TestExtensionsCommandShowsFullCommandSpecs(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": `extensions = ["tools/ops.ts", "more"]`,
		"tools/ops.ts": `defineTool({
  name: "ops.deploy",
  description: "Deploys",
  exposeAsTool: true,
  timeoutMs: 60000,
  inputSchema: { type: "object", properties: { env: { enum: ["staging", "prod"] } } },
  allow: {
    net: ["api.example.com", "*.cdn.example.com"],
    commands: {
      build: { run: ["make", "-C", "${dir}", "build"], timeoutMs: 30000, output: "lines", env: ["CI"] },
      ship: "scp dist/* deploy@host:/srv && ssh deploy@host restart",
      watch: { run: "npm run watch", persistent: true },
    },
  },
}, async () => "ok");`,
		"more/deep/x.cts": `defineTool({ name: "x.helper" }, () => 1);`,
	})
	res := ferridriver(t, dir, "extensions")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "text", res.stdout,
		"2 tool(s) loaded", "more/deep/x.cts", "x.helper  [not exposed (plugins only)]",
		"ops.deploy  [exposed as an MCP tool]", "timeoutMs: 60000", "net: api.example.com, *.cdn.example.com",
		`command build: argv   ["make", "-C", "${dir}", "build"]`, "timeoutMs 30000, output lines, env CI",
		`command ship: SHELL  sh -c "scp dist/* deploy@host:/srv \u0026\u0026 ssh deploy@host restart"`,
		`command watch: SHELL  sh -c "npm run watch"`, "persistent")
	res = ferridriver(t, dir, "extensions", "--json", "--include-schema")
	var rep map[string]any
	if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil {
		t.Fatal(err, res.stdout)
	}
	files := rep["files"].([]any)
	tool := files[1].(map[string]any)["tools"].([]any)[0].(map[string]any)
	cmds := tool["allow"].(map[string]any)["commands"].(map[string]any)
	if cmds["ship"].(map[string]any)["shell"] != "scp dist/* deploy@host:/srv && ssh deploy@host restart" || cmds["build"].(map[string]any)["argv"] == nil {
		t.Fatalf("json specs: %v", cmds)
	}
	if tool["inputSchema"] == nil || tool["exposed"] != true || tool["timeoutMs"].(float64) != 60000 {
		t.Fatalf("json tool: %v", tool)
	}
}

func TestRunScript(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "http://evil.test/", http.StatusFound)
			return
		}
		fmt.Fprint(w, "pong")
	}))
	defer srv.Close()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": `extensions = ["ext"]`,
		"ext/net.ts": `defineTool({ name: "net.get", allow: { net: ["127.0.0.1"] } }, async ({ args, request }) => (await request.get(args.url)).text());
defineTool({ name: "slow", timeoutMs: 100 }, () => new Promise((r) => setTimeout(r, 5000)));
defineTool({ name: "outer" }, async () => { try { await plugins.slow(); } catch (e) { return e.message; } });`,
		"lib/util.ts": `export const double = (n: number): number => n * 2;`,
		"ok.ts": `import { double } from "./lib/util";
import { readFileSync } from "node:fs";
const pong = await plugins["net.get"]({ url: args[0] + "/ping" });
let denied = "";
try { await plugins["net.get"]({ url: args[0] + "/redirect" }); } catch (e) { denied = e.message; }
let fsErr = "";
try { readFileSync("ferridriver.toml"); } catch (e) { fsErr = e.message; }
let timeout = "";
try { await plugins.slow(); } catch (e) { timeout = e.message; }
console.log(JSON.stringify({ pong, doubled: double(21), argv: process.argv.slice(2), args, denied, fsErr, timeout, nested: await plugins.outer(), top: await (await fetch(args[0] + "/x")).text() }));`,
		"fail.ts": `
type Point = { x: number };
function check(p: Point): void {
  if (p.x > 1) throw new RangeError("x too big: " + p.x);
}
check({ x: 5 });
`,
		"broken.ts":  `const x: number = ;`,
		"argv.ts":    `console.log(JSON.stringify(args));`,
		"forever.ts": `setInterval(() => {}, 50);`,
		"unhandled.ts": `const late = Promise.reject(new Error("handled later"));
await new Promise((r) => setTimeout(r, 10));
await late.catch(() => console.log("caught late"));
async function lost(): Promise<void> { throw new TypeError("nobody awaits this"); }
lost();
console.log("top level done");`,
	})
	res := ferridriver(t, dir, "run", "ok.ts", "--", srv.URL, "two")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(res.stdout)), &out); err != nil {
		t.Fatal(err, res.stdout)
	}
	if out["pong"] != "pong" || out["doubled"] != float64(42) || out["top"] != "pong" {
		t.Fatalf("script: %v", out)
	}
	if a, _ := json.Marshal(out["argv"]); string(a) != fmt.Sprintf(`[%q,"two"]`, srv.URL) {
		t.Fatalf("argv: %s", a)
	}
	wantContains(t, "denied", out["denied"].(string), "redirect to http://evil.test/ denied", `not in allow.net [127.0.0.1]`)
	wantContains(t, "fs", out["fsErr"].(string), "is not allowed: it is outside the folders [scripting.allow.fs] read grants (none)")
	wantContains(t, "timeout", out["timeout"].(string), `tool "slow" timed out after 100 ms`)
	wantContains(t, "nested timeout", out["nested"].(string), `tool "slow" timed out after 100 ms`)

	res = ferridriver(t, dir, "run", "fail.ts")
	if res.code != 1 {
		t.Fatalf("throw: want exit 1, got %d\n%s", res.code, res.stderr)
	}
	wantContains(t, "throw", res.stderr, "fail.ts:4:", "RangeError: x too big: 5", "at check (fail.ts:4:")
	res = ferridriver(t, dir, "run", "broken.ts")
	if res.code != 2 {
		t.Fatalf("syntax error: want exit 2, got %d\n%s", res.code, res.stderr)
	}
	wantContains(t, "syntax", res.stderr, "broken.ts:1:")
	if res := ferridriver(t, dir, "run", "missing.ts"); res.code != 2 {
		t.Fatalf("missing script: exit %d", res.code)
	}
	// After the script path, flags belong to the script.
	res = ferridriver(t, dir, "run", "argv.ts", "--timeout", "1ms", "-x")
	if res.code != 0 || strings.TrimSpace(res.stdout) != `["--timeout","1ms","-x"]` {
		t.Fatalf("flags after the script: exit %d %s %s", res.code, res.stdout, res.stderr)
	}
	// --timeout bounds the script, pending timers included.
	res = ferridriver(t, dir, "run", "--timeout", "300ms", "forever.ts")
	if res.code != 1 {
		t.Fatalf("--timeout: want exit 1, got %d %s", res.code, res.stderr)
	}
	wantContains(t, "--timeout", res.stderr, "timed out after 300 ms")
	// A rejection nobody handles fails the script, as in Node; one handled
	// late does not.
	res = ferridriver(t, dir, "run", "unhandled.ts")
	if res.code != 1 {
		t.Fatalf("unhandled rejection: want exit 1, got %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "unhandled rejection", res.stdout, "caught late", "top level done")
	wantContains(t, "unhandled rejection", res.stderr, "unhandled promise rejection: TypeError: nobody awaits this", "at lost (unhandled.ts:4:")
	if strings.Contains(res.stderr, "handled later") {
		t.Fatalf("a rejection handled late is reported:\n%s", res.stderr)
	}
}

func TestRunCommandLimits(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(t.TempDir(), "grandchild.pid")
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": `extensions = ["ext"]`,
		"ext/cmds.ts": `
const procs: Record<string, unknown> = {};
for (let i = 0; i < 17; i++) procs["p" + i] = { run: ["sleep", "60"], persistent: true };
defineTool({
  name: "limits",
  allow: { commands: {
    ...procs,
    grandchild: { run: ["sh", "-c", "sleep 60 & echo $! > \"$0\"; wait", "${pidfile}"], timeoutMs: 300 },
    flood: { run: ["head", "-c", "9000000", "/dev/zero"] },
  } },
}, async ({ args, commands }) => {
  const out: Record<string, unknown> = {};
  try { await commands.run("grandchild", { pidfile: args.pidfile }); } catch (e) { out.timeout = e.message; }
  try { await commands.run("flood"); } catch (e) { out.flood = e.message; }
  const started = [];
  for (let i = 0; i < 17; i++) {
    try { started.push((await commands.start("p" + i)).pid > 0); } catch (e) { out.limit = e.message; }
  }
  out.started = started.length;
  return out;
});`,
		"s.ts": `console.log(JSON.stringify(await plugins.limits({ pidfile: args[0] })));`,
	})
	res := ferridriver(t, dir, "run", "s.ts", pidfile)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(res.stdout)), &out); err != nil {
		t.Fatal(err, res.stdout)
	}
	wantContains(t, "timeout", fmt.Sprint(out["timeout"]), `command "grandchild" timed out after 300ms (process group killed)`)
	wantContains(t, "8 MiB", fmt.Sprint(out["flood"]), `command "flood": stdout exceeded 8388608 bytes (process group killed)`)
	wantContains(t, "16 processes", fmt.Sprint(out["limit"]), `command "p16": cannot start: the session already runs 16 persistent processes (the maximum)`)
	if out["started"] != float64(16) {
		t.Fatalf("started: %v", out["started"])
	}
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscan(strings.TrimSpace(string(b)), &pid)
	if pid == 0 {
		t.Fatal("no grandchild pid")
	}
	// SIGKILLed with its group; give init a moment to reap the orphan.
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) != syscall.ESRCH {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the grandchild %d outlived the timeout", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestBDDStepsCallTools(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "extensions = [\"ext\"]\n[test]\nfeatures = [\"features\"]\nsteps = [\"steps\"]\n",
		"ext/tools.ts": `
defineTool({ name: "calc.double", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } },
  async ({ args }) => args.n * 2);
defineTool({ name: "calc.slow", timeoutMs: 100 }, () => new Promise((r) => setTimeout(r, 3000)));
defineTool({ name: "calc.fail" }, async () => {
  throw new Error("tool failure inside");
});
`,
		"steps/steps.ts": `
import { When, Then } from "@cucumber/cucumber";
import { plugins } from "ferridriver";
When("I double {int}", async function (n: number) { this.result = await plugins["calc.double"]({ n }); });
Then("I get {int}", function (n: number) { if (this.result !== n) throw new Error("got " + this.result); });
When("I call {string} with bad arguments", async function (name: string) { await plugins[name]({ n: "x" }); });
When("I call {string}", async function (name: string) { await plugins[name](); });
`,
		"features/calc.feature": `Feature: calc
  Scenario: double
    When I double 21
    Then I get 42

  Scenario: bad arguments
    When I call "calc.double" with bad arguments

  Scenario: slow
    When I call "calc.slow"

  Scenario: failing tool
    When I call "calc.fail"
`,
	})
	res := ferridriver(t, dir, "bdd", "--format", "summary")
	if res.code != 1 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "bdd", res.stdout, "4 scenarios (1 passed, 3 failed)",
		`invalid arguments for tool "calc.double"`, `tool "calc.slow" timed out after 100 ms`,
		"Error: tool failure inside", "ext/tools.ts:6")
}
