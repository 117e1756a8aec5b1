package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world/install"
)

// TestMCPRecordingCompletesTheStory: every tab action is recorded (closing
// a tab other than the current one too), a navigation is followed in the
// export by a check of what the page showed (unless the agent checked
// right away), dialogs are named with their article, and the export
// replays with `ferridriver bdd`.
func TestMCPRecordingCompletesTheStory(t *testing.T) {
	t.Parallel()
	dir := browserProject(t)
	cs, _ := mcpClient(t, dir, nil)

	// A suggested check goes to the export (checked below), not into the
	// action's result: the agent does not act on it.
	login := callOK(t, cs, "browser_navigate", map[string]any{"url": "/login"})
	if strings.Contains(login, "Step: Then") {
		t.Errorf("navigate: the suggested check is repeated in the result:\n%s", login)
	}
	callOK(t, cs, "browser_navigate", map[string]any{"url": "/dialogs.html"})
	// The agent checks at once: its check replaces the suggested one.
	callOK(t, cs, "browser_verify_text_visible", map[string]any{"text": "Show alert"})
	alert := callOK(t, cs, "browser_click", map[string]any{"role": "button", "name": "Show alert"})
	if !strings.Contains(alert, "an alert dialog opened") {
		t.Errorf("alert: want %q:\n%s", "an alert dialog opened", alert)
	}
	callOK(t, cs, "browser_handle_dialog", map[string]any{"accept": true})
	callOK(t, cs, "browser_navigate_back", nil)
	callOK(t, cs, "browser_navigate_forward", nil)
	callOK(t, cs, "browser_tabs", map[string]any{"action": "new", "url": "/todo.html"})
	closed := callOK(t, cs, "browser_tabs", map[string]any{"action": "close", "index": 0})
	if strings.Contains(closed, "Not recorded") || !strings.Contains(closed, "Step: When I close tab 1") {
		t.Errorf("closing another tab: want its step:\n%s", closed)
	}
	callOK(t, cs, "browser_tabs", map[string]any{"action": "new"})
	if got := callOK(t, cs, "browser_tabs", map[string]any{"action": "close"}); !strings.Contains(got, "Step: When I close the current tab") {
		t.Errorf("closing the current tab:\n%s", got)
	}

	exported := callOK(t, cs, "session_export", map[string]any{"path": "features/story.feature"})
	wantOrder := []string{
		`Given I open "/login"`,
		`Then I expect 'role=heading[name="Log in"]' to be visible`,
		`When I open "/dialogs.html"`,
		`Then I expect the page to contain the text "Show alert"`,
		`When I accept the next dialog`,
		`And I click 'role=button[name="Show alert"]'`,
		`And I go back`,
		`Then I expect 'role=heading[name="Log in"]' to be visible`,
		`When I go forward`,
		`Then I expect 'role=heading[name="Dialogs"]' to be visible`,
		`When I open "/todo.html" in a new tab`,
		`Then I expect 'role=heading[name="Todo list"]' to be visible`,
		`When I close tab 1`,
		`And I open a new tab`,
		`And I close the current tab`,
	}
	at := 0
	for _, w := range wantOrder {
		i := strings.Index(exported[at:], w)
		if i < 0 {
			t.Fatalf("export lacks %q after position %d:\n%s", w, at, exported)
		}
		at += i + len(w)
	}
	if strings.Contains(exported, `heading[name="Dialogs"]' to be visible`+"\n    Then I expect the page") || strings.Count(exported, `heading[name="Dialogs"]`) != 1 {
		t.Errorf("the suggested check before the agent's own should be left out:\n%s", exported)
	}
	if r := ferridriver(t, dir, "bdd", "features/story.feature"); r.code != 0 {
		t.Fatalf("the exported session does not replay: exit %d\n%s\n%s\n%s", r.code, readFile(t, filepath.Join(dir, "features/story.feature")), r.stdout, r.stderr)
	}
}

// TestMCPBrowserStartsWithTheServer: `ferridriver mcp` launches the browser
// in the background as it starts, before any call (its processes are
// there while the client has made none), and a call that comes while it
// is still starting waits for it, reporting the wait as progress. The
// browser here is wrapped in a script that takes 2 s more to start, so
// that the first call surely comes during the launch.
func TestMCPBrowserStartsWithTheServer(t *testing.T) {
	dir := browserProject(t)
	b, err := install.FindBrowser(install.BrowserQuery{})
	if err != nil {
		t.Fatal(err)
	}
	slow := filepath.Join(dir, "slow-browser")
	testenv.WriteFiles(t, dir, map[string]string{"slow-browser": "#!/bin/sh\nsleep 2\nexec '" + b.Path + "' \"$@\"\n"})
	if err := os.Chmod(slow, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := readFile(t, filepath.Join(dir, "ferridriver.toml")) + "executablePath = \"" + slow + "\"\n"
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": cfg})

	t.Run("launched before the first call", func(t *testing.T) {
		tok := runToken(t)
		cs, stderr := mcpClient(t, dir, []string{tok})
		began := time.Now()
		var procs []string
		for time.Since(began) < 60*time.Second && len(procs) == 0 {
			time.Sleep(100 * time.Millisecond)
			procs = browserProcs(procsWith(tok))
		}
		if len(procs) == 0 {
			t.Fatalf("no browser process %v after the server started, without any call\n%s", time.Since(began), stderr.String())
		}
		t.Logf("browser processes %v after the client connected, before any call", time.Since(began).Round(time.Millisecond))
		callOK(t, cs, "browser_navigate", map[string]any{"url": "/login"})
	})

	t.Run("a call during the launch reports progress", func(t *testing.T) {
		var mu sync.Mutex
		var got []string
		var last float64 = -1
		monotonic := true
		cs, _ := mcpClientWith(t, dir, nil, &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			if r.Params.Progress <= last {
				monotonic = false
			}
			last = r.Params.Progress
			got = append(got, fmt.Sprintf("%g %s", r.Params.Progress, r.Params.Message))
		}})
		params := &sdk.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": "/login"}}
		params.SetProgressToken("first")
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		r, err := cs.CallTool(ctx, params)
		if err != nil || r.IsError {
			t.Fatalf("browser_navigate: %v %q", err, resultText(r, 0))
		}
		text := ""
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && !strings.HasSuffix(text, " done"); time.Sleep(10 * time.Millisecond) {
			mu.Lock()
			text = strings.Join(got, "; ")
			mu.Unlock()
		}
		want := regexp.MustCompile(`^0 starting the browser; (\d+ starting the browser \(\d+ s\); )*\d+ the browser is up \(waited [\d.]+ s\); \d+ navigating to /login; .* done$`)
		if !want.MatchString(text) {
			t.Errorf("progress of the first call: %q, want %s", text, want)
		}
		mu.Lock()
		defer mu.Unlock()
		if !monotonic {
			t.Errorf("progress did not increase: %q", text)
		}
	})
}
