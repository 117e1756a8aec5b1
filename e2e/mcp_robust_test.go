package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// robustExt starts a persistent process and touches the script session's
// page, so that a server has every kind of child a session can have.
const robustExt = `
defineTool({
  name: "proc", exposeAsTool: true,
  allow: { commands: { server: { run: ["sh", "-c", "echo up; exec sleep 300"], persistent: true } } },
}, async ({ args, commands }) => commands[args.op]("server"));
defineTool({ name: "page.title", exposeAsTool: true }, async ({ page }) => { await page.goto("about:blank"); return page.title(); });
defineTool({ name: "spin", exposeAsTool: true }, async () => { for (;;) {} });
`

// mcpServerWithChildren starts `ferridriver mcp` (its environment marked
// with token) in a browser project and gives it every kind of child: a
// browser tool's Chromium, the script session's page, and a persistent
// process, whose pid it returns. The client talks over the server's own
// pipes, so that the test can close its stdin while a call is in flight
// (the SDK's CommandTransport waits for outstanding calls before it does).
func mcpServerWithChildren(t *testing.T, token string) (*exec.Cmd, *sdk.ClientSession, io.Closer, int) {
	t.Helper()
	dir := browserProject(t)
	toml := readFile(t, dir+"/ferridriver.toml")
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": "extensions = [\"ext\"]\n" + toml, "ext/r.ts": robustExt})
	cmd := exec.Command(binary, "mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), token)
	stdin, stdout, stderr := startPiped(t, cmd, "ferridriver mcp")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &sdk.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr.String())
	}
	callOK(t, cs, "browser_navigate", map[string]any{"url": "/login"})
	callOK(t, cs, "page.title", nil)
	var started struct{ Pid int }
	if err := json.Unmarshal([]byte(callOK(t, cs, "proc", map[string]any{"op": "start"})), &started); err != nil || started.Pid == 0 {
		t.Fatalf("starting the persistent process: %v", err)
	}
	if len(browserProcs(procsWith(token))) == 0 {
		t.Fatal("no browser process runs after browser_navigate")
	}
	return cmd, cs, stdin, started.Pid
}

// processGone waits up to 10 s for pid to exit (killing it if not).
func processGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the persistent process %d outlived the server", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// SIGTERM or stdin's end closes every browser and persistent process of
// `ferridriver mcp` within seconds (issue 11), even while a handler spins
// (issue 17, item 4: the server and Chromium ran on until --timeout).
func TestMCPShutdownClosesBrowsersAndProcesses(t *testing.T) {
	for _, how := range []string{"SIGTERM", "stdin EOF", "stdin EOF during a spinning call"} {
		t.Run(how, func(t *testing.T) {
			token := runToken(t)
			cmd, cs, stdin, pid := mcpServerWithChildren(t, token)
			if strings.Contains(how, "spinning") {
				go func() { _, _ = cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "spin"}) }()
				time.Sleep(300 * time.Millisecond) // let the handler start spinning
			}
			start := time.Now()
			if how == "SIGTERM" {
				if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			} else {
				stdin.Close()
			}
			exited := make(chan struct{})
			go func() {
				_ = cmd.Wait()
				close(exited)
			}()
			select {
			case <-exited:
			case <-time.After(20 * time.Second):
				t.Fatalf("ferridriver mcp still runs 20 s after %s (its --timeout is 5 minutes)", how)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("ferridriver mcp took %s to exit after %s", took, how)
			}
			t.Logf("exited %s after %s", time.Since(start).Round(time.Millisecond), how)
			processGone(t, pid)
			noneLeft(t, token)
		})
	}
}

// A browser killed between two calls is relaunched by the next call, which
// works on a fresh context (issue 11: "a crashed browser is relaunched on
// the next call").
func TestMCPBrowserKilledBetweenCalls(t *testing.T) {
	token := runToken(t)
	dir := browserProject(t)
	cs, stderr := mcpClient(t, dir, []string{token})
	callOK(t, cs, "browser_navigate", map[string]any{"url": "/login"})
	killed := 0
	for _, p := range browserProcs(procsWith(token)) {
		if strings.Contains(p, "--type=") {
			continue // only the main process
		}
		if pid, err := strconv.Atoi(strings.Fields(p)[0]); err == nil && syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed++
		}
	}
	if killed == 0 {
		t.Fatal("no browser process to kill")
	}
	waitFor(t, func() bool { return strings.Contains(stderr.String(), "it will be relaunched on next use") })
	page := callOK(t, cs, "browser_navigate", map[string]any{"url": "/todo.html"})
	if !strings.Contains(page, `textbox "New todo"`) {
		t.Fatalf("after the browser was killed, the next call should relaunch it and work:\n%s", page)
	}
	callOK(t, cs, "browser_type", map[string]any{"ref": refOf(t, page, "textbox", "New todo"), "text": "again", "submit": true})
	if got := callOK(t, cs, "browser_snapshot", nil); !strings.Contains(got, "1 item left") {
		t.Fatalf("the relaunched browser's page:\n%s", got)
	}
}

// Long built-ins report progress when the call has a progressToken:
// browser_navigate while the page loads, browser_wait_for every second
// (issue 11), each ending with "done" before the result.
func TestMCPBuiltinProgress(t *testing.T) {
	dir := browserProject(t)
	var mu sync.Mutex
	progress := map[any][]string{}
	cs, _ := mcpClientWith(t, dir, nil, &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		progress[r.Params.ProgressToken] = append(progress[r.Params.ProgressToken], fmt.Sprintf("%g %s", r.Params.Progress, r.Params.Message))
	}})
	for _, tc := range []struct {
		token, tool string
		args        map[string]any
		want        string
	}{
		// The beats before "done": the browser's start-up (launched as
		// the server starts) may come first, and a loaded machine may add
		// one to the wait.
		{"nav", "browser_navigate", map[string]any{"url": "/login"}, `^(\d+ starting the browser[^;]*; )*(\d+ the browser is up[^;]*; )?\d+ navigating to /login; `},
		{"wait", "browser_wait_for", map[string]any{"time": 2.5}, `^0 waiting 2.5 s; 1 waiting 2.5 s \(1 s\); 2 waiting 2.5 s \(2 s\); `},
	} {
		params := &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args}
		params.SetProgressToken(tc.token)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		r, err := cs.CallTool(ctx, params)
		cancel()
		if err != nil || r.IsError {
			t.Fatalf("%s: %v %q", tc.tool, err, resultText(r, 0))
		}
		// The Go client delivers notifications concurrently with the
		// result: wait for the last one.
		got := ""
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && !strings.HasSuffix(got, " done"); time.Sleep(10 * time.Millisecond) {
			mu.Lock()
			got = strings.Join(progress[tc.token], "; ")
			mu.Unlock()
		}
		if !regexp.MustCompile(tc.want).MatchString(got) || !strings.HasSuffix(got, " done") {
			t.Errorf("%s progress: %q, want %q... done", tc.tool, got, tc.want)
		}
	}
}
