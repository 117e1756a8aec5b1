package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/browsing"
)

// clients starts a Server for a project made of files and connects n SDK
// clients to it in memory, each its own MCP session.
func clients(t *testing.T, files map[string]string, opts Options, n int) ([]*sdk.ClientSession, *Server, string) {
	t.Helper()
	srv, dir := newServer(t, files, opts)
	t.Cleanup(func() { srv.Close() })
	var out []*sdk.ClientSession
	for range n {
		ct, st := sdk.NewInMemoryTransports()
		if _, err := srv.SDK().Connect(context.Background(), st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		out = append(out, cs)
	}
	return out, srv, dir
}

// script runs source with run_script and returns its result.
func script(t *testing.T, cs *sdk.ClientSession, source string, extra ...any) ScriptResult {
	t.Helper()
	args := map[string]any{"source": source}
	for i := 0; i+1 < len(extra); i += 2 {
		args[extra[i].(string)] = extra[i+1]
	}
	var out ScriptResult
	if err := json.Unmarshal([]byte(text(call(t, cs, "run_script", args), 0)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEachClientHasItsOwnVM(t *testing.T) {
	cs, srv, _ := clients(t, nil, Options{}, 2)
	a, b := cs[0], cs[1]
	if r := script(t, a, `globalThis.secret = 42; return 1`); r.Status != "ok" {
		t.Fatal(r.Error)
	}
	if r := script(t, b, `return typeof globalThis.secret`); r.Value != "undefined" {
		t.Errorf("client b sees client a's global: %v", r.Value)
	}
	if r := script(t, a, `return globalThis.secret`); r.Value != float64(42) {
		t.Errorf("client a lost its global: %v", r.Value)
	}
	if n := srv.Clients(); n != 2 {
		t.Errorf("clients: %d, want 2", n)
	}

	// A runaway script of a does not hold up b.
	done := make(chan ScriptResult, 1)
	go func() { done <- script(t, a, `while (true) {}`, "timeout_ms", 3000) }()
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	if r := script(t, b, `return 7`); r.Value != float64(7) {
		t.Errorf("client b: %+v", r)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("client b waited %s for client a's runaway script", d)
	}
	if r := <-done; r.Error == nil || r.Error.Name != "TimeoutError" {
		t.Errorf("client a's runaway script: %+v", r)
	}

	// A client that goes away takes its session with it.
	a.Close()
	waitUntil(t, func() bool { return srv.Clients() == 1 })
}

func TestAReloadReachesEveryClientsVM(t *testing.T) {
	cs, _, dir := clients(t, map[string]string{"ext/a.ts": `defineTool({ name: "t.one", exposeAsTool: true }, async () => "one");`}, Options{}, 2)
	a, b := cs[0], cs[1]
	if got := text(call(t, b, "t.one", nil), 0); got != "one" {
		t.Fatalf("t.one: %q", got)
	}
	if err := os.WriteFile(filepath.Join(dir, "ext/a.ts"), []byte(`defineTool({ name: "t.one", exposeAsTool: true }, async () => "uno"); defineTool({ name: "t.two", exposeAsTool: true }, async () => "two");`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := call(t, a, ToolExtensions, map[string]any{"action": "reload"}); r.IsError || !strings.Contains(text(r, 0), `"added":["t.two"]`) {
		t.Fatalf("reload: %s", text(r, 0))
	}
	if got := text(call(t, b, "t.one", nil), 0); got != "uno" {
		t.Errorf("client b runs the old build after a's reload: %q", got)
	}
	if got := text(call(t, b, "t.two", nil), 0); got != "two" {
		t.Errorf("client b lacks the reloaded tool: %q", got)
	}
}

func TestAPanicIsOneRequestsError(t *testing.T) {
	cs, srv, _ := clients(t, nil, Options{}, 2)
	a, b := cs[0], cs[1]
	srv.SDK().AddTool(&sdk.Tool{Name: "test.panics", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		panic("a handler's bug")
	})
	srv.SDK().AddResource(&sdk.Resource{URI: "test://panics", Name: "panics"}, func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		var m map[string]int
		m["x"]++ // a nil map: a runtime panic
		return nil, nil
	})
	r := call(t, a, "test.panics", nil)
	if !r.IsError || !strings.Contains(text(r, 0), "internal error: a handler's bug") {
		t.Errorf("a panicking tool: %+v %q", r, text(r, 0))
	}
	if _, err := a.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "test://panics"}); err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Errorf("a panicking resource: %v", err)
	}
	// A panic inside a client's VM job (the goroutine that runs its
	// JavaScript) fails that job; the VM is rebuilt for the next.
	script(t, a, `globalThis.kept = 1; return 1`)
	sess, err := srv.clientOf(nil)
	if err != nil {
		t.Fatal(err)
	}
	err = sess.do(context.Background(), func(*jsbridge.VM) error { panic("a job's bug") })
	if _, ok := err.(*PanicError); !ok {
		t.Errorf("a panicking job: %v", err)
	}
	if err := sess.do(context.Background(), func(*jsbridge.VM) error { return nil }); err != nil {
		t.Errorf("the job after the panic: %v", err)
	}
	for _, c := range []*sdk.ClientSession{a, b} {
		if r := script(t, c, `return 3`); r.Value != float64(3) {
			t.Errorf("a client after the panics: %+v", r)
		}
	}
}

// TestRunCodeIsOfferedWithRunScript: browser_run_code_unsafe has
// @playwright/mcp's schema (code or filename) and goes with run_script
// (--no-run-script leaves both out).
func TestRunCodeIsOfferedWithRunScript(t *testing.T) {
	for _, noScript := range []bool{false, true} {
		l, err := world.NewLauncher(world.Config{OutputDir: t.TempDir()}, world.Options{})
		if err != nil {
			t.Fatal(err)
		}
		svc := browsing.NewService(l)
		t.Cleanup(func() { svc.Close(); l.Close() })
		cs, _, _ := clients(t, nil, Options{Browsing: svc, NoRunScript: noScript}, 1)
		lt, err := cs[0].ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var code *sdk.Tool
		names := map[string]bool{}
		for _, tl := range lt.Tools {
			names[tl.Name] = true
			if tl.Name == ToolRunCode {
				code = tl
			}
		}
		if noScript {
			if names[ToolRunCode] || names[ToolRunScript] {
				t.Errorf("--no-run-script still offers %v", names)
			}
			continue
		}
		if code == nil || !names[ToolRunScript] {
			t.Fatalf("tools/list lacks %s or run_script", ToolRunCode)
		}
		schema, _ := json.Marshal(code.InputSchema)
		for _, want := range []string{`"code":{`, `"filename":{`} {
			if !strings.Contains(string(schema), want) {
				t.Errorf("%s's schema lacks %s: %s", ToolRunCode, want, schema)
			}
		}
		if strings.Contains(string(schema), `"required"`) {
			t.Errorf("neither code nor filename is required (as in @playwright/mcp): %s", schema)
		}
		if r := call(t, cs[0], ToolRunCode, map[string]any{}); !r.IsError || !strings.Contains(text(r, 0), "give code") {
			t.Errorf("no code: %s", text(r, 0))
		}
	}
}
