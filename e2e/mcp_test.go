package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// mcpClient starts `ferridriver mcp` in dir (with extra env and args) and
// connects the official SDK client to it over stdio.
func mcpClient(t *testing.T, dir string, env []string, args ...string) (*sdk.ClientSession, *testenv.SyncBuffer) {
	return mcpClientWith(t, dir, env, nil, args...)
}

func mcpClientWith(t *testing.T, dir string, env []string, copts *sdk.ClientOptions, args ...string) (*sdk.ClientSession, *testenv.SyncBuffer) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	stderr := &testenv.SyncBuffer{}
	cmd.Stderr = stderr
	client := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, copts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to ferridriver mcp: %v\n%s", err, stderr.String())
	}
	t.Cleanup(func() { cs.Close() })
	return cs, stderr
}

func toolNames(t *testing.T, cs *sdk.ClientSession) map[string]bool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tl := range res.Tools {
		names[tl.Name] = true
	}
	return names
}

func mcpCall(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	return res
}

func resultText(r *sdk.CallToolResult, i int) string {
	if i < len(r.Content) {
		if tc, ok := r.Content[i].(*sdk.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

// mcpProject is the extension set most MCP tests use.
const mcpExt = `
globalThis.entered = 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

defineTool({
  name: "strict.echo",
  description: "Echoes a positive integer",
  inputSchema: { type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"], additionalProperties: false },
  exposeAsTool: true,
}, async ({ args }) => { globalThis.entered++; return { n: args.n }; });

defineTool({ name: "entered", exposeAsTool: true }, async () => globalThis.entered);

defineTool({ name: "throws", exposeAsTool: true }, async () => {
  await sleep(1);
  explode();
});
function explode(): never {
  throw new Error("exploded on purpose");
}

defineTool({ name: "slow.inner", timeoutMs: 100 }, () => sleep(10000));
defineTool({ name: "slow.outer", exposeAsTool: true, timeoutMs: 5000 }, async () => {
  try { await plugins["slow.inner"](); return "no timeout"; } catch (e) { return "inner: " + e.message; }
});
defineTool({ name: "slow.direct", exposeAsTool: true, timeoutMs: 150 }, () => sleep(10000));

defineTool({ name: "fetch.ip", allow: { net: ["127.0.0.1"] } }, async ({ args }) => {
  const out = [];
  for (let i = 0; i < 3; i++) { await sleep(2); try { out.push((await fetch(args.url)).status); } catch (e) { out.push("denied"); } }
  return out;
});
defineTool({ name: "fetch.name", allow: { net: ["localhost"] } }, async ({ args }) => {
  const out = [];
  for (let i = 0; i < 3; i++) { await sleep(3); try { out.push((await fetch(args.url)).status); } catch (e) { out.push("denied"); } }
  return out;
});
defineTool({ name: "net.both", exposeAsTool: true, inputSchema: { type: "object", properties: { url: { type: "string" } } } }, async ({ args }) => {
  const [ip, name] = await Promise.all([plugins["fetch.ip"]({ url: args.url }), plugins["fetch.name"]({ url: args.url })]);
  return { ip, name };
});
defineTool({ name: "net.get", exposeAsTool: true, allow: { net: ["127.0.0.1"] } }, async ({ args, request }) => {
  const r = await request.get(args.url);
  return r.status() + " " + await r.text();
});

defineTool({
  name: "cmd.echo", exposeAsTool: true,
  allow: { commands: { argv: { run: ["printf", "%s", "${v}"] }, shell: "printf '%s' ${v}" } },
}, async ({ args, commands }) => commands.run(args.form, { v: args.v }));

defineTool({
  name: "proc", exposeAsTool: true,
  allow: { commands: { server: { run: ["sh", "-c", "echo up; exec sleep 300"], persistent: true } } },
}, async ({ args, commands }) => commands[args.op]("server"));
defineTool({ name: "spin", exposeAsTool: true }, () => { globalThis.spun = true; for (;;) {} });
defineTool({ name: "vmState", exposeAsTool: true }, async () => typeof globalThis.spun);

defineTool({ name: "progress", exposeAsTool: true }, async ({ progress }) => {
  for (let i = 1; i <= 3; i++) { await sleep(5); progress(i, 3, "step " + i); }
  return "done";
});
`

func TestMCPSchemaRejectionNeverEntersTheHandler(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/tools.ts": mcpExt})
	cs, _ := mcpClient(t, dir, nil)
	for _, bad := range []map[string]any{{}, {"n": "1"}, {"n": 0}, {"n": 1.5}, {"n": 1, "x": 1}} {
		r := mcpCall(t, cs, "strict.echo", bad)
		if !r.IsError || !strings.HasPrefix(resultText(r, 0), `invalid arguments for tool "strict.echo"`) {
			t.Fatalf("%v: %+v %q", bad, r, resultText(r, 0))
		}
	}
	if r := mcpCall(t, cs, "entered", nil); resultText(r, 0) != "0" {
		t.Fatalf("the handler was entered for rejected calls: %s", resultText(r, 0))
	}
	if r := mcpCall(t, cs, "strict.echo", map[string]any{"n": 7}); r.IsError || resultText(r, 0) != `{"n":7}` {
		t.Fatalf("valid call: %q", resultText(r, 0))
	}
	if r := mcpCall(t, cs, "entered", nil); resultText(r, 0) != "1" {
		t.Fatalf("entered: %s", resultText(r, 0))
	}
}

func TestMCPErrorsAndTimeouts(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/tools.ts": mcpExt})
	cs, _ := mcpClient(t, dir, nil)
	r := mcpCall(t, cs, "throws", nil)
	if !r.IsError || resultText(r, 0) != "Error: exploded on purpose" {
		t.Fatalf("message first: %q", resultText(r, 0))
	}
	wantContains(t, "detail", resultText(r, 1), "Error: exploded on purpose\n    at explode (ext/tools.ts:19:8)", "at ext/tools.ts:16:")
	r = mcpCall(t, cs, "slow.outer", nil)
	if r.IsError || resultText(r, 0) != `inner: tool "slow.inner" timed out after 100 ms (its timeoutMs); its pending work was abandoned` {
		t.Fatalf("nested timeout: %q", resultText(r, 0))
	}
	start := time.Now()
	r = mcpCall(t, cs, "slow.direct", nil)
	if !r.IsError || !strings.Contains(resultText(r, 0), `tool "slow.direct" timed out after 150 ms`) || time.Since(start) > 5*time.Second {
		t.Fatalf("direct timeout: %q", resultText(r, 0))
	}
	// An unknown tool is a protocol error, not a result.
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "fetch.ip"}); err == nil {
		t.Fatal("a tool without exposeAsTool is callable over MCP")
	}
}

func TestMCPNetPolicy(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "http://evil.test/exfiltrate", http.StatusFound)
			return
		}
		fmt.Fprint(w, "hello")
	}))
	defer srv.Close()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/tools.ts": mcpExt})
	cs, _ := mcpClient(t, dir, nil)
	if r := mcpCall(t, cs, "net.get", map[string]any{"url": srv.URL + "/ok"}); r.IsError || resultText(r, 0) != "200 hello" {
		t.Fatalf("allowed: %q %q", resultText(r, 0), resultText(r, 1))
	}
	r := mcpCall(t, cs, "net.get", map[string]any{"url": srv.URL + "/redirect"})
	if !r.IsError {
		t.Fatal("a redirect to a host off the list was followed")
	}
	wantContains(t, "redirect", resultText(r, 0), "redirect to http://evil.test/exfiltrate denied", `request host "evil.test" is not in allow.net [127.0.0.1]`)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	r = mcpCall(t, cs, "net.get", map[string]any{"url": "http://localhost:" + port + "/ok"})
	wantContains(t, "other spelling", resultText(r, 0), `request host "localhost" is not in allow.net [127.0.0.1]`)
	// Two tools with different lists run concurrently (Promise.all): each
	// sees only its own list, on every interleaved await.
	r = mcpCall(t, cs, "net.both", map[string]any{"url": srv.URL + "/ok"})
	if resultText(r, 0) != `{"ip":[200,200,200],"name":["denied","denied","denied"]}` {
		t.Fatalf("isolation: %s", resultText(r, 0))
	}
}

func TestMCPCommandInjectionIsInert(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/tools.ts": mcpExt})
	cs, _ := mcpClient(t, dir, nil)
	for _, form := range []string{"argv", "shell"} {
		for _, v := range []string{`; touch PWNED`, `$(touch PWNED)`, "`touch PWNED`", `'; touch PWNED; '`, `"; touch PWNED; "`, `x && touch PWNED`} {
			r := mcpCall(t, cs, "cmd.echo", map[string]any{"form": form, "v": v})
			if r.IsError || resultText(r, 0) != v {
				t.Errorf("%s: %q gave %q %q", form, v, resultText(r, 0), resultText(r, 1))
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "PWNED")); err == nil {
		t.Fatal("an injected command ran")
	}
}

func TestMCPPersistentProcessLifetime(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/tools.ts": mcpExt})
	cs, stderr := mcpClient(t, dir, nil, "--timeout", "1s")
	r := mcpCall(t, cs, "proc", map[string]any{"op": "start"})
	var started struct{ Pid int }
	if err := json.Unmarshal([]byte(resultText(r, 0)), &started); err != nil || started.Pid == 0 {
		t.Fatalf("start: %q %v", resultText(r, 0), err)
	}
	// A call that outlives the server's limit: the VM is rebuilt...
	r = mcpCall(t, cs, "spin", nil)
	if !r.IsError || !strings.Contains(resultText(r, 0), "did not finish within the server's limit") {
		t.Fatalf("spin: %q", resultText(r, 0))
	}
	if r := mcpCall(t, cs, "vmState", nil); resultText(r, 0) != "undefined" {
		t.Fatalf("the VM was not rebuilt: %q", resultText(r, 0))
	}
	// ...and the persistent process survives it.
	r = mcpCall(t, cs, "proc", map[string]any{"op": "status"})
	var st struct {
		Pid     int
		Running bool
		Stdout  string
	}
	json.Unmarshal([]byte(resultText(r, 0)), &st)
	if !st.Running || st.Pid != started.Pid || st.Stdout != "up\n" {
		t.Fatalf("after the rebuild: %s", resultText(r, 0))
	}
	// The session ends with the client: the process is killed.
	cs.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := syscall.Kill(started.Pid, 0); errors.Is(err, syscall.ESRCH) {
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(started.Pid, syscall.SIGKILL)
			t.Fatalf("process %d outlived the session\n%s", started.Pid, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestMCPProgressAndListChanged(t *testing.T) {
	var mu sync.Mutex
	var progress []string
	listChanged := make(chan struct{}, 4)
	copts := &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			progress = append(progress, fmt.Sprintf("%v %v/%v %s", req.Params.ProgressToken, req.Params.Progress, req.Params.Total, req.Params.Message))
		},
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { listChanged <- struct{}{} },
	}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/tools.ts": mcpExt})
	cs, _ := mcpClientWith(t, dir, nil, copts, "--no-watch") // the reload here is explicit
	if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || !caps.Tools.ListChanged {
		t.Fatalf("capabilities: %+v", caps)
	}
	params := &sdk.CallToolParams{Name: "progress"}
	params.SetProgressToken("p1")
	if r, err := cs.CallTool(context.Background(), params); err != nil || resultText(r, 0) != "done" {
		t.Fatal(err, r)
	}
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(progress) >= 3 })
	mu.Lock()
	got := strings.Join(progress, "; ")
	mu.Unlock()
	if got != "p1 1/3 step 1; p1 2/3 step 2; p1 3/3 step 3" {
		t.Fatalf("progress: %s", got)
	}
	// Without a token, no progress is sent.
	mcpCall(t, cs, "progress", nil)

	testenv.WriteFiles(t, dir, map[string]string{"ext/added.js": `defineTool({ name: "added.later", exposeAsTool: true }, async () => "new");`})
	r := mcpCall(t, cs, "ferridriver_extensions", map[string]any{"action": "reload"})
	wantContains(t, "reload", resultText(r, 0), `"added":["added.later"]`, `"toolListChanged":true`)
	select {
	case <-listChanged:
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
	if !toolNames(t, cs)["added.later"] {
		t.Fatal("reloaded tool not listed")
	}
	mu.Lock()
	if len(progress) != 3 {
		t.Fatalf("progress without a token: %v", progress)
	}
	mu.Unlock()
}

func TestMCPExtensionsToolMatchesCLI(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `extensions = ["ext"]`, "ext/tools.ts": mcpExt})
	cs, _ := mcpClient(t, dir, nil)
	r := mcpCall(t, cs, "ferridriver_extensions", map[string]any{"include_schema": true})
	cli := ferridriver(t, dir, "extensions", "--json", "--include-schema")
	var fromMCP, fromCLI map[string]any
	json.Unmarshal([]byte(resultText(r, 0)), &fromMCP)
	json.Unmarshal([]byte(cli.stdout), &fromCLI)
	a, _ := json.Marshal(fromMCP)
	b, _ := json.Marshal(fromCLI)
	if string(a) != string(b) || fromMCP["count"] != float64(15) {
		t.Fatalf("ferridriver_extensions and the CLI differ:\nmcp %s\ncli %s", a, b)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
