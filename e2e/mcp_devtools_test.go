package e2e

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world"
)

// @playwright/mcp's devtools and config groups (--caps devtools,config):
// browser_get_config, the recording of what the user does by hand,
// page.pause() with browser_resume, and browser_annotate.

// TestMCPGetConfig: browser_get_config shows the resolved configuration
// (a flag's value and where it came from) with its secrets hidden: the
// token from the environment, a password in worldParameters, a URL's
// password.
func TestMCPGetConfig(t *testing.T) {
	testenv.NeedBrowser(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "[test]\nworldParameters = { apiPassword = \"pw-12345\", site = \"https://bob:hunter22@example.com/\" }\n",
	})
	cs, _ := mcpClient(t, dir, []string{"FERRIDRIVER_MCP_TOKEN=tok-secret-xyz"}, "--caps", "devtools,config", "--timeout", "42s")
	text := callOK(t, cs, "browser_get_config", nil)
	for _, secret := range []string{"tok-secret-xyz", "pw-12345", "hunter22"} {
		if strings.Contains(text, secret) {
			t.Errorf("the secret %q is shown:\n%s", secret, text)
		}
	}
	var got struct {
		Config  map[string]map[string]any  `json:"-"`
		Raw     map[string]json.RawMessage `json:"config"`
		Sources map[string]string          `json:"sources"`
	}
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, text)
	}
	got.Config = map[string]map[string]any{}
	for _, section := range []string{"server", "mcp", "test"} {
		var m map[string]any
		if err := json.Unmarshal(got.Raw[section], &m); err != nil {
			t.Fatalf("config.%s: %v\n%s", section, err, text)
		}
		got.Config[section] = m
	}
	if v := got.Config["server"]["timeout"]; v != "42s" || got.Sources["server.timeout"] != "flag --timeout" {
		t.Errorf("server.timeout = %v from %q, want 42s from the flag", v, got.Sources["server.timeout"])
	}
	if v := got.Config["mcp"]["token"]; v != "(hidden)" || got.Sources["mcp.token"] != "env FERRIDRIVER_MCP_TOKEN" {
		t.Errorf("mcp.token = %v from %q, want (hidden) from the environment", v, got.Sources["mcp.token"])
	}
	wp, _ := got.Config["test"]["worldParameters"].(map[string]any)
	if wp["apiPassword"] != "(hidden)" || !strings.Contains(wp["site"].(string), "bob:") {
		t.Errorf("worldParameters = %v", wp)
	}
}

// handDriven connects a second Playwright client to the DevTools endpoint
// of the browser `ferridriver mcp` uses: the "user" acting in the
// session's page by hand, out of the MCP tools' sight. It returns the
// session's page whose URL ends with suffix.
func handDriven(t *testing.T, endpoint, suffix string) playwright.Page {
	t.Helper()
	l, err := world.NewLauncher(world.Config{OutputDir: t.TempDir()}, world.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	pw, err := l.Playwright(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := pw.Chromium.ConnectOverCDP(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	for _, c := range b.Contexts() {
		for _, p := range c.Pages() {
			if strings.HasSuffix(p.URL(), suffix) {
				return p
			}
		}
	}
	t.Fatalf("no page at %s in the browser", suffix)
	return nil
}

// devtoolsProject is browserProject on a Chromium the test can reach
// through its DevTools endpoint; it returns the project, the MCP client
// (--caps devtools,config) and the endpoint.
func devtoolsProject(t *testing.T, copts *sdk.ClientOptions) (string, *sdk.ClientSession, string) {
	t.Helper()
	dir := browserProject(t)
	cdp := startDevToolsChromium(t)
	cs, _ := mcpClientWith(t, dir, []string{"FERRIDRIVER_BROWSER_CONNECTOVERCDP=" + cdp.endpoint}, copts, "--caps", "devtools,config")
	return dir, cs, cdp.endpoint
}

// TestMCPRecordsTheUser: what the user does by hand (here a second
// Playwright client acting on the session's page: typing, a select, a
// checkbox through its label, a radio, a submit, a navigation, a link
// that opens a tab and typing there with Enter) comes back from
// browser_stop_recording as Playwright code and as built-in steps, and
// the steps replay with `ferridriver bdd`.
func TestMCPRecordsTheUser(t *testing.T) {
	dir, cs, endpoint := devtoolsProject(t, nil)
	callOK(t, cs, "browser_navigate", map[string]any{"url": "/forms.html"})
	callOK(t, cs, "browser_start_recording", nil)
	page := handDriven(t, endpoint, "/forms.html")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(page.Locator("#name").Click())
	must(page.Keyboard().Type("Ada"))
	_, err := page.Locator("#colour").SelectOption(playwright.SelectOptionValues{Labels: &[]string{"Green"}})
	must(err)
	must(page.GetByText("I accept the terms").Click())
	must(page.GetByText("Large").Click())
	must(page.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Send the order"}).Click())
	must(page.GetByText("name=Ada").WaitFor())
	base := strings.TrimSuffix(page.URL(), "/forms.html")
	_, err = page.Goto(base + "/elements.html")
	must(err)
	popup, err := page.ExpectPopup(func() error { return page.GetByText("Open the todo list in a new tab").Click() })
	must(err)
	must(popup.Locator("#new-todo").Click())
	must(popup.Keyboard().Type("Buy milk"))
	must(popup.Keyboard().Press("Enter"))
	must(popup.GetByText("Buy milk").First().WaitFor())

	out := callOK(t, cs, "browser_stop_recording", nil)
	for _, want := range []string{
		`await page.getByRole('textbox', { name: 'Name' }).fill('Ada');`,
		`await page.getByRole('combobox', { name: 'Colour' }).selectOption('Green');`,
		`await page.getByRole('checkbox', { name: 'I accept the terms' }).check();`,
		`await page.getByRole('radio', { name: 'Large' }).check();`,
		`await page.getByRole('button', { name: 'Send the order' }).click();`,
		`await page.goto('/elements.html');`,
		`const page1Promise = page.waitForEvent('popup');`,
		`await page1.getByRole('textbox', { name: 'New todo' }).fill('Buy milk');`,
		`Given I open "/forms.html"`,
		`When I fill 'role=textbox[name="Name"]' with "Ada"`,
		`And I select "Green" in 'role=combobox[name="Colour"]'`,
		`And I check 'role=checkbox[name="I accept the terms"]'`,
		`And I check 'role=radio[name="Large"]'`,
		`And I click 'role=button[name="Send the order"]'`,
		`And I open "/elements.html"`,
		`And I click 'role=link[name="Open the todo list in a new tab"]'`,
		`And I switch to the new tab`,
		`And I fill 'role=textbox[name="New todo"]' with "Buy milk"`,
		`And I press "Enter"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the recording lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "fill('Ada')"); n != 1 {
		t.Errorf("typing into a field should be one fill, got %d:\n%s", n, out)
	}
	exported := callOK(t, cs, "session_export", map[string]any{"path": "features/by-hand.feature"})
	if !strings.Contains(exported, `I fill 'role=textbox[name="New todo"]' with "Buy milk"`) {
		t.Errorf("the recording is not in the session's export:\n%s", exported)
	}
	if r := ferridriver(t, dir, "bdd", "features/by-hand.feature"); r.code != 0 {
		t.Fatalf("the recorded steps do not replay: exit %d\n%s\n%s\n%s", r.code, readFile(t, filepath.Join(dir, "features/by-hand.feature")), r.stdout, r.stderr)
	}
}

// TestMCPPauseAndResume: `await page.pause()` in code run on the agent's
// page returns the call saying where it paused; the browser tools act on
// the page meanwhile; browser_resume { step } pauses before the next
// Playwright call, { location } before the call of that line, and a
// plain resume answers with the code's result.
func TestMCPPauseAndResume(t *testing.T) {
	dir := browserProject(t)
	cs, _ := mcpClient(t, dir, nil, "--caps", "devtools")
	callOK(t, cs, "browser_navigate", map[string]any{"url": "/todo.html"})
	code := `async (page) => {
  const box = page.getByRole('textbox', { name: 'New todo' })
  await box.fill('first'); await page.pause()
  await box.press('Enter')
  await box.fill('second')
  await box.press('Enter')
  return 'done'
}`
	paused := callOK(t, cs, "browser_run_code_unsafe", map[string]any{"code": code})
	if !strings.Contains(paused, "Paused at browser_run_code_unsafe.js:3") {
		t.Fatalf("want the call to say where the code paused:\n%s", paused)
	}
	if snap := callOK(t, cs, "browser_snapshot", nil); !strings.Contains(snap, "first") {
		t.Errorf("the snapshot while paused should show the typed text:\n%s", snap)
	}
	if r := mcpCall(t, cs, "browser_run_code_unsafe", map[string]any{"code": "async (page) => 1"}); !r.IsError || !strings.Contains(resultText(r, 0), "browser_resume first") {
		t.Errorf("code run while other code is paused: %s", resultText(r, 0))
	}
	if r := mcpCall(t, cs, "browser_resume", map[string]any{"location": "nowhere"}); !r.IsError || !strings.Contains(resultText(r, 0), "<file>:<line>") {
		t.Errorf("a location without a line: %s", resultText(r, 0))
	}
	step := callOK(t, cs, "browser_resume", map[string]any{"step": true})
	if !regexp.MustCompile(`Paused at browser_run_code_unsafe\.js:4 \(before \S*press\)`).MatchString(step) {
		t.Fatalf("step: want a pause before the next call (line 4):\n%s", step)
	}
	at := callOK(t, cs, "browser_resume", map[string]any{"location": "browser_run_code_unsafe.js:6"})
	if !regexp.MustCompile(`Paused at browser_run_code_unsafe\.js:6 \(before \S*press\)`).MatchString(at) {
		t.Fatalf("location: want a pause before line 6's call:\n%s", at)
	}
	if snap := callOK(t, cs, "browser_snapshot", nil); !strings.Contains(snap, "second") || !strings.Contains(snap, "first") {
		t.Errorf("at line 6 the first todo is added and the second typed:\n%s", snap)
	}
	if end := callOK(t, cs, "browser_resume", nil); !strings.Contains(end, `Result: "done"`) {
		t.Errorf("the last resume should answer the code's result:\n%s", end)
	}
	if r := mcpCall(t, cs, "browser_resume", nil); !r.IsError || !strings.Contains(resultText(r, 0), "nothing is paused") {
		t.Errorf("resume with nothing paused: %s", resultText(r, 0))
	}
	// run_script's page pauses the same way.
	if got := callOK(t, cs, "run_script", map[string]any{"source": "await page.pause()\nreturn 7"}); !strings.Contains(got, "Paused at") {
		t.Fatalf("run_script: %s", got)
	}
	if got := callOK(t, cs, "browser_resume", nil); !strings.Contains(got, `"value":7`) {
		t.Errorf("run_script's result after the resume: %s", got)
	}
}

// TestMCPAnnotate: browser_annotate puts an overlay on the page where the
// user (here a second Playwright client's mouse and keyboard) drags a box
// and types a note, then presses Done; the call, which reported progress
// while it waited, returns the box with its note and the elements under
// it, the snapshot, and the annotated screenshot.
func TestMCPAnnotate(t *testing.T) {
	var mu sync.Mutex
	var progress []string
	_, cs, endpoint := devtoolsProject(t, &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		progress = append(progress, r.Params.Message)
		mu.Unlock()
	}})
	callOK(t, cs, "browser_navigate", map[string]any{"url": "/todo.html"})
	type answer struct {
		r   *sdk.CallToolResult
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		params := &sdk.CallToolParams{Name: "browser_annotate", Arguments: map[string]any{"timeout": 60}}
		params.SetProgressToken("annotate")
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		r, err := cs.CallTool(ctx, params)
		ch <- answer{r, err}
	}()
	page := handDriven(t, endpoint, "/todo.html")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	done := page.Locator("#ferridriver-annotate-done")
	if err := done.WaitFor(playwright.LocatorWaitForOptions{Timeout: playwright.Float(8000)}); err != nil {
		select {
		case a := <-ch:
			t.Fatalf("no overlay; browser_annotate answered: %v %s", a.err, resultText(a.r, 0))
		default:
			v, _ := page.Evaluate("() => [location.href, !!document.getElementById('ferridriver-annotate'), typeof window.__ferridriverAnnotate, document.body.innerHTML.length]")
			t.Fatalf("no overlay: %v %v", err, v)
		}
	}
	bb, err := page.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Add", Exact: playwright.Bool(true)}).BoundingBox()
	must(err)
	m := page.Mouse()
	must(m.Move(bb.X-6, bb.Y-6))
	must(m.Down())
	must(m.Move(bb.X+bb.Width+6, bb.Y+bb.Height+6, playwright.MouseMoveOptions{Steps: playwright.Int(5)}))
	must(m.Up())
	must(page.Keyboard().Type("Make this green"))
	must(page.Keyboard().Press("Enter"))
	time.Sleep(1500 * time.Millisecond) // the user takes their time: progress goes on
	must(done.Click())
	a := <-ch
	if a.err != nil || a.r.IsError {
		t.Fatalf("browser_annotate: %v %s", a.err, resultText(a.r, 0))
	}
	text := resultText(a.r, 0)
	if !strings.Contains(text, "1 annotation(s)") || !strings.Contains(text, `"Make this green"`) ||
		!regexp.MustCompile(`(?m)^   - button "Add" \[ref=e\d+\]`).MatchString(text) || !strings.Contains(text, "### Snapshot") {
		t.Errorf("want the box, its note and the button under it, then the snapshot:\n%s", text)
	}
	if len(a.r.Content) < 2 {
		t.Fatalf("no screenshot in the result")
	}
	if img, ok := a.r.Content[1].(*sdk.ImageContent); !ok || img.MIMEType != "image/png" || len(img.Data) < 1000 {
		t.Errorf("want the annotated screenshot as a PNG")
	}
	if n, err := page.Locator("#ferridriver-annotate").Count(); err != nil || n != 0 {
		t.Errorf("the overlay is left on the page (%d, %v)", n, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(strings.Join(progress, "; "), "waiting for the user's annotations") {
		t.Errorf("no progress while waiting: %q", progress)
	}
}
