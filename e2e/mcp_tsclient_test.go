package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// tsClient is the official TypeScript MCP client (@modelcontextprotocol/sdk
// from tools/oracles) run by the system node through
// testdata/mcp_ts_client.mjs: the test writes commands to it and reads its
// answers and the notifications it received, as JSON lines.
type tsClient struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser

	mu      sync.Mutex
	nextID  int
	pending map[int]chan tsAnswer
	events  []tsEvent
	changed chan struct{} // signalled on every event

	connected tsEvent
	stderr    *testenv.SyncBuffer
}

// tsAnswer is the script's answer to one command.
type tsAnswer struct {
	ID     int             `json:"id"`
	Tools  []tsTool        `json:"tools"`
	Result *tsResult       `json:"result"`
	Error  string          `json:"error"`
	Code   json.RawMessage `json:"code"`
	Ms     int64           `json:"ms"`
}

type tsTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations json.RawMessage `json:"annotations"`
}

type tsResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		MIMEType string `json:"mimeType"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
}

func (r *tsResult) text(i int) string {
	if r == nil || i >= len(r.Content) {
		return ""
	}
	return r.Content[i].Text
}

// tsEvent is a notification the client received (or its connection).
type tsEvent struct {
	Event        string          `json:"event"`
	Call         int             `json:"call"`
	Progress     float64         `json:"progress"`
	Total        float64         `json:"total"`
	Message      string          `json:"message"`
	Error        string          `json:"error"`
	Capabilities json.RawMessage `json:"capabilities"`
}

// startTSClient runs the client script with args (stdio <binary> <dir>
// [flags...] or http <endpoint> [token]) and waits until it connected or
// failed to.
func startTSClient(t *testing.T, args ...string) *tsClient {
	t.Helper()
	sdkDir := filepath.Join(oracles.NodeModules(t), "@modelcontextprotocol", "sdk")
	if _, err := os.Stat(filepath.Join(sdkDir, "package.json")); err != nil {
		t.Fatalf("@modelcontextprotocol/sdk is not installed (%v): run `make oracles`", err)
	}
	script := filepath.Join(oracles.Root(), "e2e", "testdata", "mcp_ts_client.mjs")
	cmd := exec.Command("node", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), "MCP_SDK_DIR="+sdkDir)
	stdin, stdout, stderr := startPiped(t, cmd, "the TypeScript client (node)")
	c := &tsClient{t: t, cmd: cmd, stdin: stdin, pending: map[int]chan tsAnswer{}, changed: make(chan struct{}, 1), stderr: stderr}
	connected := make(chan tsEvent, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			line := sc.Bytes()
			var probe struct {
				ID    *int   `json:"id"`
				Event string `json:"event"`
			}
			if json.Unmarshal(line, &probe) != nil {
				continue
			}
			if probe.ID != nil {
				var a tsAnswer
				_ = json.Unmarshal(line, &a)
				c.mu.Lock()
				ch := c.pending[a.ID]
				delete(c.pending, a.ID)
				c.mu.Unlock()
				if ch != nil {
					ch <- a
				}
				continue
			}
			var ev tsEvent
			_ = json.Unmarshal(line, &ev)
			if ev.Event == "connected" || ev.Event == "connect_error" {
				connected <- ev
				continue
			}
			c.mu.Lock()
			c.events = append(c.events, ev)
			c.mu.Unlock()
			select {
			case c.changed <- struct{}{}:
			default:
			}
		}
		close(connected)
	}()
	select {
	case ev, ok := <-connected:
		if !ok {
			t.Fatalf("the TypeScript client exited before connecting:\n%s", c.stderr.String())
		}
		c.connected = ev
	case <-time.After(60 * time.Second):
		t.Fatalf("the TypeScript client did not connect within 60 s:\n%s", c.stderr.String())
	}
	return c
}

// send writes a command and returns the channel its answer comes on.
func (c *tsClient) send(cmd map[string]any) (int, chan tsAnswer) {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	ch := make(chan tsAnswer, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	cmd["id"] = id
	b, _ := json.Marshal(cmd)
	if _, err := c.stdin.Write(append(b, '\n')); err != nil {
		c.t.Fatalf("writing to the TypeScript client: %v", err)
	}
	return id, ch
}

func (c *tsClient) wait(ch chan tsAnswer, what string) tsAnswer {
	c.t.Helper()
	select {
	case a := <-ch:
		return a
	case <-time.After(150 * time.Second):
		c.t.Fatalf("%s: no answer from the TypeScript client within 150 s\n%s", what, c.stderr.String())
	}
	return tsAnswer{}
}

func (c *tsClient) list() []tsTool {
	c.t.Helper()
	_, ch := c.send(map[string]any{"op": "list"})
	a := c.wait(ch, "tools/list")
	if a.Error != "" {
		c.t.Fatalf("tools/list: %s", a.Error)
	}
	return a.Tools
}

// call calls a tool; opts are extra command fields (progress, timeoutMs,
// abortAfterMs...). It returns the answer (a result or a protocol error).
func (c *tsClient) call(name string, args map[string]any, opts map[string]any) (int, tsAnswer) {
	c.t.Helper()
	cmd := map[string]any{"op": "call", "name": name, "args": args}
	for k, v := range opts {
		cmd[k] = v
	}
	id, ch := c.send(cmd)
	return id, c.wait(ch, name)
}

// ok calls a tool and fails the test unless it succeeded; it returns the
// first text block.
func (c *tsClient) ok(name string, args map[string]any) string {
	c.t.Helper()
	_, a := c.call(name, args, nil)
	if a.Error != "" || a.Result == nil || a.Result.IsError {
		c.t.Fatalf("%s %v: error %q, result %q", name, args, a.Error, a.Result.text(0))
	}
	return a.Result.text(0)
}

// progressOf returns the progress notifications of call id so far.
func (c *tsClient) progressOf(id int) []tsEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []tsEvent
	for _, e := range c.events {
		if e.Event == "progress" && e.Call == id {
			out = append(out, e)
		}
	}
	return out
}

// waitEvent waits until a notification of kind arrived (counting from
// the from-th event) and returns how many events there are.
func (c *tsClient) waitEvent(kind string, from int, within time.Duration) (int, bool) {
	deadline := time.After(within)
	for {
		c.mu.Lock()
		n := len(c.events)
		for _, e := range c.events[min(from, n):] {
			if e.Event == kind {
				c.mu.Unlock()
				return n, true
			}
		}
		c.mu.Unlock()
		select {
		case <-c.changed:
		case <-deadline:
			return n, false
		}
	}
}

func (c *tsClient) eventCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.events)
}

// tsExt are the extension tools the TypeScript client tests call.
const tsExt = `
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
defineTool({ name: "echo", exposeAsTool: true, annotations: { readOnlyHint: true } }, async ({ args }) => ({ args, mark: globalThis.mark ?? null }));
defineTool({ name: "size", exposeAsTool: true }, async ({ args }) => JSON.stringify(args).length);
defineTool({ name: "runaway", exposeAsTool: true, timeoutMs: 500 }, async () => { globalThis.mark = 1; while (true) {} });
defineTool({ name: "spin", exposeAsTool: true }, async () => { for (;;) {} });
// Both pause after their last report: the TypeScript client drops a
// report that reaches it in the same read as the result (see tsProgress).
defineTool({ name: "progress", exposeAsTool: true }, async ({ progress }) => {
  for (let i = 1; i <= 3; i++) { await sleep(5); progress(i, 3, "step " + i); }
  await sleep(100);
  return "done";
});
defineTool({ name: "inner.progress" }, async ({ progress }) => {
  for (let i = 1; i <= 2; i++) { await sleep(5); progress(i, 2, "inner " + i); }
  await sleep(100);
  return "inner done";
});
`

// tsProject is a browser project (demo app as baseURL) with tsExt and a
// step for run_bdd.
func tsProject(t *testing.T) string {
	dir := browserProject(t)
	toml := readFile(t, filepath.Join(dir, "ferridriver.toml"))
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "extensions = [\"ext\"]\n" + strings.Replace(toml, "[test]\n", "[test]\nsteps = [\"steps/**/*.ts\"]\n", 1),
		"ext/tools.ts":     tsExt,
		"steps/heading.ts": `import { Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
Then('the heading is {string}', async function (heading: string) {
  await expect(this.page.getByRole('heading', { level: 1 })).toHaveText(heading, { timeout: 2000 })
})
`,
	})
	return dir
}

// tsDemoFlow logs in on the demo app and adds two todos through refs
// taken from the snapshots, checking that actions answer with the changes
// only.
func tsDemoFlow(t *testing.T, c *tsClient) {
	t.Helper()
	id, nav := c.call("browser_navigate", map[string]any{"url": "/login"}, map[string]any{"progress": true})
	if nav.Error != "" || nav.Result.IsError {
		t.Fatalf("browser_navigate: %s %s", nav.Error, nav.Result.text(0))
	}
	login := nav.Result.text(0)
	// The server launches the browser as it starts: a first call that
	// comes before it is up reports the wait first ("starting the
	// browser"..., "the browser is up (waited 1.2 s)"), then its own
	// progress, the numbers increasing throughout. (Its last report,
	// "done", may be dropped by the client, see tsProgress.)
	p := c.progressOf(id)
	var msgs []string
	increasing := true
	for i, e := range p {
		msgs = append(msgs, e.Message)
		if i > 0 && e.Progress <= p[i-1].Progress {
			increasing = false
		}
	}
	if !regexp.MustCompile(`^(starting the browser[^|]*\|)*(the browser is up \(waited [\d.]+ s\)\|)?navigating to /login(\||$)`).MatchString(strings.Join(msgs, "|")) || !increasing {
		t.Errorf("browser_navigate with a progress token: want progress \"navigating to /login\" (after the browser's start-up), increasing, got %+v", p)
	}
	user := refOf(t, login, "textbox", "Username")
	typed := c.ok("browser_type", map[string]any{"ref": user, "text": "demo", "element": "user"})
	if strings.Contains(typed, "Snapshot") || !strings.Contains(typed, "Step: When I fill") {
		t.Errorf("typing changed nothing but the value the agent typed: want its step and no snapshot section:\n%s", typed)
	}
	full := c.ok("browser_snapshot", nil)
	if len(typed) >= len(full)/2 {
		t.Errorf("the incremental result (%d bytes) is not well under the full snapshot (%d bytes)", len(typed), len(full))
	}
	c.ok("browser_type", map[string]any{"ref": refOf(t, full, "textbox", "Password"), "text": "secret"})
	welcome := c.ok("browser_click", map[string]any{"ref": refOf(t, full, "button", "Log in")})
	if !strings.Contains(welcome, `heading "Welcome, demo!"`) {
		t.Fatalf("after logging in, want the welcome heading:\n%s", welcome)
	}
	todo := c.ok("browser_navigate", map[string]any{"url": "/todo.html"})
	box := refOf(t, todo, "textbox", "New todo")
	c.ok("browser_type", map[string]any{"ref": box, "text": "Buy milk", "submit": true})
	second := c.ok("browser_type", map[string]any{"ref": box, "text": "Walk the dog", "submit": true})
	if !strings.Contains(second, "Snapshot changes:") || !strings.Contains(second, "Walk the dog") || !strings.Contains(second, "2 items left") || strings.Contains(second, `link "Completed"`) {
		t.Errorf("the second todo should show the new item and the counter only:\n%s", second)
	}
	status := regexp.MustCompile(`status \[ref=(e\d+)\]`).FindStringSubmatch(second)
	if status == nil {
		t.Fatalf("no status ref in:\n%s", second)
	}
	c.ok("browser_verify_value", map[string]any{"ref": status[1], "value": "2 items left"})
}

// tsRunaway: a handler looping forever past its timeoutMs of 500 ms is
// cut off, and the next call answers within a second on a rebuilt VM.
func tsRunaway(t *testing.T, c *tsClient) {
	t.Helper()
	_, a := c.call("runaway", nil, nil)
	if a.Error != "" || !a.Result.IsError || !strings.Contains(a.Result.text(0), "timed out after 500 ms") {
		t.Fatalf("runaway: %s %+v", a.Error, a.Result)
	}
	start := time.Now()
	_, a = c.call("echo", map[string]any{"x": 1}, nil)
	if took := time.Since(start); a.Error != "" || a.Result.IsError || took > time.Second {
		t.Fatalf("the call after the runaway handler took %s: %s %q", took, a.Error, a.Result.text(0))
	}
	if a.Result.text(0) != `{"args":{"x":1},"mark":null}` {
		t.Errorf("the VM was not rebuilt after the runaway handler: %s", a.Result.text(0))
	}
}

// tsProgress: an extension tool's ctx.progress reaches the caller, and so
// does a tool's that run_script calls through plugins[...].
func tsProgress(t *testing.T, c *tsClient) {
	t.Helper()
	id, a := c.call("progress", nil, map[string]any{"progress": true})
	if a.Error != "" || a.Result.text(0) != "done" {
		t.Fatalf("progress tool: %s %+v", a.Error, a.Result)
	}
	var got []string
	for _, p := range c.progressOf(id) {
		got = append(got, fmt.Sprintf("%g/%g %s", p.Progress, p.Total, p.Message))
	}
	// The TypeScript client dispatches notifications a microtask after
	// responses, so it drops a report that arrives in the same read as the
	// result (modelcontextprotocol/typescript-sdk#2580); the tools pause
	// after their last report so that it does not.
	if got := strings.Join(got, "; "); got != "1/3 step 1; 2/3 step 2; 3/3 step 3" {
		t.Errorf("progress of the extension tool: %s", got)
	}
	id, a = c.call("run_script", map[string]any{"source": `return await plugins["inner.progress"]()`}, map[string]any{"progress": true})
	if a.Error != "" || !strings.Contains(a.Result.text(0), `"value":"inner done"`) {
		t.Fatalf("run_script: %s %+v", a.Error, a.Result)
	}
	got = nil
	for _, p := range c.progressOf(id) {
		got = append(got, p.Message)
	}
	// run_script's own "done" comes right before its result: the client
	// may drop it (see above).
	if got := strings.Join(got, "; "); got != "executing script; inner 1; inner 2" && got != "executing script; inner 1; inner 2; done" {
		t.Errorf("progress of run_script calling a tool through plugins: %s", got)
	}
}

// tsListChanged: a new extension file is picked up by itself and the
// client is told.
func tsListChanged(t *testing.T, c *tsClient, dir string) {
	t.Helper()
	from := c.eventCount()
	testenv.WriteFiles(t, dir, map[string]string{"ext/later.ts": `defineTool({ name: "later", exposeAsTool: true }, async () => "later");`})
	if _, ok := c.waitEvent("list_changed", from, 20*time.Second); !ok {
		t.Fatal("no notifications/tools/list_changed after adding an extension file")
	}
	found := false
	for _, tl := range c.list() {
		found = found || tl.Name == "later"
	}
	if !found {
		t.Fatal("the new file's tool is not listed after list_changed")
	}
	if got := c.ok("later", nil); got != "later" {
		t.Fatalf("the new tool: %q", got)
	}
}

// TestMCPTypeScriptClientStdio drives `ferridriver mcp` over stdio with
// the official TypeScript SDK client: tools/list, the demo-app flow
// through refs with incremental snapshots, progress, run_bdd, sessions in
// parallel, the runaway handler, a cancelled spinning call, a 10 MB
// argument and a 10 MiB result, and list_changed after a file is added.
func TestMCPTypeScriptClientStdio(t *testing.T) {
	dir := tsProject(t)
	c := startTSClient(t, "stdio", binary, dir, "--timeout", "40s")
	if c.connected.Event != "connected" || !strings.Contains(string(c.connected.Capabilities), `"listChanged":true`) {
		t.Fatalf("connection: %+v", c.connected)
	}
	tools := map[string]tsTool{}
	for _, tl := range c.list() {
		tools[tl.Name] = tl
	}
	for _, n := range append(browserToolNames, "run_bdd", "run_script", "ferridriver_extensions", "echo", "runaway") {
		tl, ok := tools[n]
		if !ok {
			t.Fatalf("tools/list lacks %s", n)
		}
		if !strings.Contains(string(tl.InputSchema), `"type":"object"`) {
			t.Errorf("%s: input schema %s", n, tl.InputSchema)
		}
	}
	if string(tools["echo"].Annotations) != `{"readOnlyHint":true}` {
		t.Errorf("echo's annotations as declared: %s", tools["echo"].Annotations)
	}

	t.Run("demo flow", func(t *testing.T) { c.t = t; tsDemoFlow(t, c) })
	t.Run("run_bdd", func(t *testing.T) {
		c.t = t
		id, a := c.call("run_bdd", map[string]any{"gherkin": "Feature: Live\n  Scenario: On the agent's page\n    Then the heading is \"Todo list\"\n"}, map[string]any{"progress": true})
		if a.Error != "" || a.Result.IsError || !strings.Contains(string(a.Result.StructuredContent), `"status":"PASSED"`) {
			t.Fatalf("run_bdd on the live page: %s %s", a.Error, a.Result.text(0))
		}
		// One report per scenario (a last one may be dropped by the client, see tsProgress).
		if p := c.progressOf(id); len(p) > 1 || len(p) == 1 && p[0].Message != "On the agent's page: PASSED" {
			t.Errorf("run_bdd progress per scenario: %+v", p)
		}
	})
	t.Run("sessions in parallel", func(t *testing.T) {
		c.t = t
		// A 2 s wait on session "slow" does not hold up session "quick"; a
		// second call on "slow" waits for the first.
		_, slow := c.send(map[string]any{"op": "call", "name": "browser_wait_for", "args": map[string]any{"time": 2, "session": "slow"}})
		time.Sleep(200 * time.Millisecond)
		_, queued := c.send(map[string]any{"op": "call", "name": "browser_snapshot", "args": map[string]any{"session": "slow"}})
		start := time.Now()
		_, quick := c.call("browser_navigate", map[string]any{"url": "/login", "session": "quick"}, nil)
		if quick.Error != "" || quick.Result.IsError {
			t.Fatalf("quick session: %s %s", quick.Error, quick.Result.text(0))
		}
		quickDone := time.Since(start)
		s := c.wait(slow, "slow session")
		q := c.wait(queued, "queued call")
		if s.Error != "" || s.Result.IsError || q.Error != "" || q.Result.IsError {
			t.Fatalf("slow session: %s %s / %s %s", s.Error, s.Result.text(0), q.Error, q.Result.text(0))
		}
		if quickDone >= 1500*time.Millisecond {
			t.Errorf("a call on another session waited %s for the 2 s wait", quickDone)
		}
		if q.Ms < 1500 {
			t.Errorf("a second call on the same session answered after %d ms, during the first one's 2 s wait", q.Ms)
		}
	})
	t.Run("progress", func(t *testing.T) { c.t = t; tsProgress(t, c) })
	t.Run("runaway handler", func(t *testing.T) { c.t = t; tsRunaway(t, c) })
	t.Run("cancelled spinning call", func(t *testing.T) {
		c.t = t
		// Issue 17, item 3 as found: --timeout 40s, cancel after 1 s.
		_, a := c.call("spin", nil, map[string]any{"abortAfterMs": 1000})
		if a.Error == "" {
			t.Fatalf("the aborted call returned a result: %+v", a.Result)
		}
		start := time.Now()
		got := c.ok("run_script", map[string]any{"source": "return 1 + 1"})
		if took := time.Since(start); took > time.Second || !strings.Contains(got, `"value":2`) {
			t.Fatalf("after cancelling a spinning call, run_script took %s: %s", took, got)
		}
	})
	t.Run("10 MB argument and 10 MiB result", func(t *testing.T) {
		c.t = t
		big := strings.Repeat("x", 10<<20)
		_, a := c.call("size", map[string]any{"s": big}, nil)
		if a.Error != "" || !a.Result.IsError || !strings.Contains(a.Result.text(0), "bytes of JSON; the limit for one call is 4194304 bytes") {
			t.Fatalf("a 10 MB argument: %s %.300s", a.Error, a.Result.text(0))
		}
		_, a = c.call("run_script", map[string]any{"source": `return "x".repeat(10 * 1024 * 1024)`}, nil)
		if a.Error != "" || !strings.Contains(a.Result.text(0), "bytes of JSON; the limit for one result is 4194304 bytes") {
			t.Fatalf("a 10 MiB result: %s %.300s", a.Error, a.Result.text(0))
		}
		if got := c.ok("size", map[string]any{"s": "abc"}); got != "11" {
			t.Fatalf("after the oversized call: %q", got)
		}
	})
	t.Run("list_changed", func(t *testing.T) { c.t = t; tsListChanged(t, c, dir) })
}

// TestMCPTypeScriptClientHTTP drives `ferridriver mcp --transport http`
// bound to 0.0.0.0 with the TypeScript SDK's StreamableHTTPClientTransport:
// no token or a wrong one is refused, the right one serves tools/list,
// the demo flow, progress, the runaway handler and list_changed (over the
// standalone SSE stream).
func TestMCPTypeScriptClientHTTP(t *testing.T) {
	dir := tsProject(t)
	endpoint := startMCPHTTP(t, dir, []string{"FERRIDRIVER_MCP_TOKEN=tok-123"}, "--host", "0.0.0.0")
	for _, token := range []string{"", "wrong"} {
		c := startTSClient(t, "http", endpoint, token)
		if c.connected.Event != "connect_error" || !strings.Contains(c.connected.Error, "401") {
			t.Errorf("token %q: want a 401 connection error, got %+v", token, c.connected)
		}
	}
	c := startTSClient(t, "http", endpoint, "tok-123")
	if c.connected.Event != "connected" {
		t.Fatalf("with the token: %+v", c.connected)
	}
	names := map[string]bool{}
	for _, tl := range c.list() {
		names[tl.Name] = true
	}
	if !names["browser_navigate"] || !names["echo"] {
		t.Fatalf("tools/list over HTTP: %v", names)
	}
	t.Run("demo flow", func(t *testing.T) { c.t = t; tsDemoFlow(t, c) })
	t.Run("progress", func(t *testing.T) { c.t = t; tsProgress(t, c) })
	t.Run("runaway handler", func(t *testing.T) { c.t = t; tsRunaway(t, c) })
	t.Run("10 MB argument", func(t *testing.T) {
		c.t = t
		_, a := c.call("size", map[string]any{"s": strings.Repeat("x", 10<<20)}, nil)
		if a.Error != "" || !a.Result.IsError || !strings.Contains(a.Result.text(0), "the limit for one call is 4194304 bytes") {
			t.Fatalf("a 10 MB argument over HTTP: %s %.300s", a.Error, a.Result.text(0))
		}
	})
	t.Run("list_changed", func(t *testing.T) { c.t = t; tsListChanged(t, c, dir) })
}
