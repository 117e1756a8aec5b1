package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// browserProject writes a project whose baseURL is a fresh demo app and
// returns its directory.
func browserProject(t *testing.T) string {
	t.Helper()
	testenv.NeedBrowser(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	u, err := demoapp.Serve(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "[test]\nfeatures = [\"features/**/*.feature\"]\n\n[browser]\nbaseURL = \"" + u + "\"\n",
	})
	return dir
}

// refOf finds the ref of the snapshot line with role and quoted name.
func refOf(t *testing.T, text, role, name string) string {
	t.Helper()
	re := regexp.MustCompile(regexp.QuoteMeta(role+` "`+name+`"`) + `[^\n]*\[ref=(e\d+)\]`)
	m := re.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s %q with a ref in:\n%s", role, name, text)
	}
	return m[1]
}

func callOK(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res := mcpCall(t, cs, name, args)
	text := resultText(res, 0)
	if res.IsError {
		t.Fatalf("%s %v failed: %s", name, args, text)
	}
	return text
}

var browserToolNames = []string{
	"browser_navigate", "browser_navigate_back", "browser_navigate_forward", "browser_reload", "browser_snapshot",
	"browser_click", "browser_type", "browser_fill_form", "browser_select_option", "browser_hover", "browser_drag",
	"browser_press_key", "browser_file_upload", "browser_handle_dialog", "browser_wait_for", "browser_tabs",
	"browser_console_messages", "browser_network_requests", "browser_take_screenshot", "browser_evaluate",
	"browser_resize", "browser_close", "browser_emulate_media",
	"browser_verify_element_visible", "browser_verify_text_visible", "browser_verify_value", "session_export",
}

// TestMCPBrowserFlow drives the demo app through refs as an agent would,
// checks the incremental snapshots and the recording, and runs the
// exported feature with `ferridriver bdd`.
func TestMCPBrowserFlow(t *testing.T) {
	t.Parallel()
	dir := browserProject(t)
	cs, stderr := mcpClient(t, dir, nil)

	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*sdk.Tool{}
	for _, tl := range res.Tools {
		tools[tl.Name] = tl
	}
	for _, n := range browserToolNames {
		tl := tools[n]
		if tl == nil {
			t.Fatalf("tools/list lacks %s", n)
		}
		if tl.Description == "" {
			t.Errorf("%s: want a description: %+v", n, tl)
		}
	}
	// The arguments every browser tool shares are said once, in the
	// instructions, not in each schema.
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "session names a browser session") || !strings.Contains(ins, "snapshot (diff, full, none)") {
		t.Errorf("the instructions should explain session and snapshot:\n%s", ins)
	}
	// Annotations say only what differs from MCP's defaults: a read-only
	// tool says so; an action (all defaults) sends none.
	if a := tools["browser_snapshot"].Annotations; a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Errorf("browser_snapshot: want read-only, closed-world annotations: %+v", a)
	}
	if a := tools["browser_click"].Annotations; a != nil && (a.ReadOnlyHint || a.DestructiveHint != nil && !*a.DestructiveHint) {
		t.Errorf("browser_click: want MCP's defaults (not read-only, destructive): %+v", a)
	}

	login := callOK(t, cs, "browser_navigate", map[string]any{"url": "/login"})
	if !strings.Contains(login, `Step: Given I open "/login"`) || !strings.Contains(login, "await page.goto('/login');") {
		t.Errorf("navigate result lacks its step or code:\n%s", login)
	}
	user := refOf(t, login, "textbox", "Username")
	pass := refOf(t, login, "textbox", "Password")
	button := refOf(t, login, "button", "Log in")

	typed := callOK(t, cs, "browser_type", map[string]any{"ref": user, "text": "demo", "element": "user field"})
	wantStep := `Step: When I fill 'role=textbox[name="Username"]' with "demo"`
	if !strings.Contains(typed, wantStep) || !strings.Contains(typed, `await page.getByRole('textbox', { name: 'Username' }).fill('demo');`) {
		t.Errorf("type result lacks the step %s or its code:\n%s", wantStep, typed)
	}
	if strings.Contains(typed, "Snapshot") {
		t.Errorf("typing changed nothing but the value the agent typed: want no snapshot section:\n%s", typed)
	}
	if strings.Contains(typed, `button "Log in"`) {
		t.Errorf("the unchanged button is in the changes:\n%s", typed)
	}
	full := callOK(t, cs, "browser_snapshot", nil)
	if len(typed) >= len(full)/2 {
		t.Errorf("incremental result (%d bytes) is not well under the full snapshot (%d bytes)", len(typed), len(full))
	}
	t.Logf("login page: full snapshot %d bytes, result of typing %d bytes", len(full), len(typed))
	if refOf(t, full, "textbox", "Username") != user {
		t.Errorf("refs changed between snapshots of the same page:\n%s", full)
	}

	callOK(t, cs, "browser_type", map[string]any{"ref": pass, "text": "secret"})
	welcome := callOK(t, cs, "browser_click", map[string]any{"ref": button})
	if !strings.Contains(welcome, `heading "Welcome, demo!"`) || !strings.Contains(welcome, "/welcome") {
		t.Errorf("after logging in, want the welcome page:\n%s", welcome)
	}
	callOK(t, cs, "browser_verify_text_visible", map[string]any{"text": "Welcome, demo!"})
	callOK(t, cs, "browser_verify_element_visible", map[string]any{"role": "heading", "accessibleName": "Welcome, demo!"})

	todo := callOK(t, cs, "browser_navigate", map[string]any{"url": "/todo.html"})
	box := refOf(t, todo, "textbox", "New todo")
	callOK(t, cs, "browser_type", map[string]any{"ref": box, "text": "Buy milk", "submit": true})
	second := callOK(t, cs, "browser_type", map[string]any{"ref": box, "text": "Walk the dog", "submit": true})
	if !strings.Contains(second, "Snapshot changes:") || !strings.Contains(second, "Walk the dog") || !strings.Contains(second, "2 items left") || strings.Contains(second, `link "Completed"`) {
		t.Errorf("adding the second todo should show the new item and counter only:\n%s", second)
	}
	status := regexp.MustCompile(`status \[ref=(e\d+)\]`).FindStringSubmatch(second)
	if status == nil {
		t.Fatalf("no status ref in:\n%s", second)
	}
	callOK(t, cs, "browser_verify_value", map[string]any{"ref": status[1], "value": "2 items left"})
	bad := mcpCall(t, cs, "browser_verify_value", map[string]any{"ref": status[1], "value": "3 items left"})
	if !bad.IsError || !strings.Contains(resultText(bad, 0), `"2 items left"`) {
		t.Errorf("a failing check should be an error naming the actual value: %s", resultText(bad, 0))
	}

	exported := callOK(t, cs, "session_export", map[string]any{"path": "features/recorded.feature", "feature": "Login and todos"})
	for _, want := range []string{
		"Feature: Login and todos",
		`Given I open "/login"`,
		`When I fill 'role=textbox[name="Username"]' with "demo"`,
		`And I click 'role=button[name="Log in"]'`,
		`Then I expect the page to contain the text "Welcome, demo!"`,
		`And I expect 'role=heading[name="Welcome, demo!"]' to be visible`,
		`When I open "/todo.html"`,
		`And I press "Enter"`,
		`Then I expect the text of "role=status" to equal "2 items left"`,
	} {
		if !strings.Contains(exported, want) {
			t.Errorf("export lacks %q:\n%s", want, exported)
		}
	}
	if strings.Contains(exported, "3 items left") {
		t.Errorf("a failed check was recorded:\n%s", exported)
	}
	written, err := os.ReadFile(filepath.Join(dir, "features/recorded.feature"))
	if err != nil || !strings.Contains(exported, string(written)) {
		t.Fatalf("exported file: %v\n%s", err, written)
	}
	cs.Close()
	_ = stderr

	// The recording runs green with the built-in steps.
	r := ferridriver(t, dir, "bdd", "features/recorded.feature")
	if r.code != 0 {
		t.Fatalf("ferridriver bdd on the exported feature: exit %d\n%s\n%s\n%s", r.code, written, r.stdout, r.stderr)
	}
}

// TestMCPBrowserSessions: two sessions of one client are separate
// browser contexts (cookies), and run in parallel.
func TestMCPBrowserSessions(t *testing.T) {
	dir := browserProject(t)
	cs, _ := mcpClient(t, dir, nil)
	login := callOK(t, cs, "browser_navigate", map[string]any{"url": "/login", "session": "a"})
	callOK(t, cs, "browser_fill_form", map[string]any{"session": "a", "fields": []map[string]any{
		{"ref": refOf(t, login, "textbox", "Username"), "value": "demo"},
		{"ref": refOf(t, login, "textbox", "Password"), "value": "secret"},
	}})
	callOK(t, cs, "browser_click", map[string]any{"session": "a", "role": "button", "name": "Log in"})
	// Session b has no login cookie: /welcome sends it to the login page.
	done := make(chan string, 2)
	for _, s := range []string{"a", "b"} {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			r, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_navigate", Arguments: map[string]any{"url": "/welcome", "session": s}})
			if err != nil {
				done <- s + ": " + err.Error()
				return
			}
			done <- s + ": " + resultText(r, 0)
		}()
	}
	got := map[string]string{}
	for range 2 {
		r := <-done
		got[r[:1]] = r
	}
	if !strings.Contains(got["a"], "Welcome, demo!") {
		t.Errorf("session a should be logged in:\n%s", got["a"])
	}
	if strings.Contains(got["b"], "Welcome, demo!") || !strings.Contains(got["b"], `textbox "Username"`) {
		t.Errorf("session b should not share a's cookies:\n%s", got["b"])
	}
}

// startMCPHTTP starts `ferridriver mcp --transport http` in dir and waits
// until it listens; it returns the endpoint.
func startMCPHTTP(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	endpoint, _, _ := startMCPHTTPCmd(t, dir, env, args...)
	return endpoint
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func httpClient(t *testing.T, endpoint, token string) *sdk.ClientSession {
	t.Helper()
	tr := &sdk.StreamableClientTransport{Endpoint: endpoint}
	if token != "" {
		tr.HTTPClient = &http.Client{Transport: bearer{token, http.DefaultTransport}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e-http", Version: "1"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", endpoint, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestMCPBrowserHTTP: streamable HTTP on loopback; each client has its own
// browser sessions.
func TestMCPBrowserHTTP(t *testing.T) {
	dir := browserProject(t)
	endpoint := startMCPHTTP(t, dir, nil)
	a := httpClient(t, endpoint, "")
	b := httpClient(t, endpoint, "")
	login := callOK(t, a, "browser_navigate", map[string]any{"url": "/login"})
	callOK(t, a, "browser_fill_form", map[string]any{"fields": []map[string]any{
		{"target": refOf(t, login, "textbox", "Username"), "value": "demo"},
		{"target": refOf(t, login, "textbox", "Password"), "value": "secret"},
	}})
	if w := callOK(t, a, "browser_click", map[string]any{"selector": "button[type=submit]"}); !strings.Contains(w, "Welcome, demo!") {
		t.Fatalf("client a did not log in:\n%s", w)
	}
	// Same session name, other client: another browser context.
	if got := callOK(t, b, "browser_navigate", map[string]any{"url": "/welcome"}); strings.Contains(got, "Welcome, demo!") {
		t.Errorf("client b sees client a's login:\n%s", got)
	}
	// (b's own recording checks the login page it was sent to: its heading
	// "Log in" is b's suggested check, not a's step.)
	if got := callOK(t, b, "session_export", nil); strings.Contains(got, `with "demo"`) || strings.Contains(got, "I click") {
		t.Errorf("client b's recording holds client a's steps:\n%s", got)
	}
}

// TestMCPHTTPToken: a non-loopback bind needs a token; requests without
// it get 401.
func TestMCPHTTPToken(t *testing.T) {
	dir := t.TempDir()
	r := ferridriver(t, dir, "mcp", "--transport", "http", "--host", "0.0.0.0", "--port", strconv.Itoa(testenv.FreePort(t)))
	if r.code != 2 || !strings.Contains(r.stderr, "token") {
		t.Fatalf("binding 0.0.0.0 without a token: exit %d, want 2 and a message about the token:\n%s", r.code, r.stderr)
	}
	endpoint := startMCPHTTP(t, dir, []string{"FERRIDRIVER_MCP_TOKEN=s3cret"}, "--host", "0.0.0.0")
	for _, auth := range []string{"", "Bearer wrong"} {
		req, _ := http.NewRequest("POST", endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d, want 401", auth, resp.StatusCode)
		}
	}
	cs := httpClient(t, endpoint, "s3cret")
	if names := toolNames(t, cs); !names["browser_navigate"] {
		t.Errorf("with the token, tools/list lacks browser_navigate: %v", names)
	}
}

// TestMCPBrowserDialogsTabsAndLogs: dialogs wait for browser_handle_dialog
// (recorded before the action that opened them), new tabs are listed and
// selected, and the console, network, evaluate and screenshot tools work.
func TestMCPBrowserDialogsTabsAndLogs(t *testing.T) {
	t.Parallel()
	dir := browserProject(t)
	cs, _ := mcpClient(t, dir, nil)
	page := callOK(t, cs, "browser_navigate", map[string]any{"url": "/dialogs.html"})
	opened := callOK(t, cs, "browser_click", map[string]any{"ref": refOf(t, page, "button", "Show prompt")})
	if !strings.Contains(opened, `Dialog: a prompt dialog opened: "What is your name?"`) {
		t.Fatalf("click should report the open prompt:\n%s", opened)
	}
	if blocked := mcpCall(t, cs, "browser_snapshot", nil); !blocked.IsError || !strings.Contains(resultText(blocked, 0), "browser_handle_dialog") {
		t.Errorf("while a dialog is open, tools should say to handle it: %s", resultText(blocked, 0))
	}
	answered := callOK(t, cs, "browser_handle_dialog", map[string]any{"accept": true, "promptText": "Ada"})
	if !strings.Contains(answered, "Hello, Ada!") {
		t.Errorf("after answering the prompt, want its effect in the snapshot:\n%s", answered)
	}
	callOK(t, cs, "browser_click", map[string]any{"role": "button", "name": "Show confirm"})
	if got := callOK(t, cs, "browser_handle_dialog", map[string]any{"accept": false}); !strings.Contains(got, "Cancelled") {
		t.Errorf("dismissing the confirm:\n%s", got)
	}
	exported := callOK(t, cs, "session_export", nil)
	wantOrder := []string{
		`When I accept the next prompt with "Ada"`,
		`And I click 'role=button[name="Show prompt"]'`,
		`And I dismiss the next dialog`,
		`And I click 'role=button[name="Show confirm"]'`,
	}
	at := 0
	for _, w := range wantOrder {
		i := strings.Index(exported[at:], w)
		if i < 0 {
			t.Fatalf("export lacks %q after position %d:\n%s", w, at, exported)
		}
		at += i + len(w)
	}

	callOK(t, cs, "browser_evaluate", map[string]any{"function": "() => { console.log('hello from the page'); return 1 }"})
	if got := callOK(t, cs, "browser_console_messages", nil); !strings.Contains(got, "[log] hello from the page") {
		t.Errorf("console messages:\n%s", got)
	}
	if got := callOK(t, cs, "browser_evaluate", map[string]any{"function": "() => document.title"}); !strings.Contains(got, `"Dialogs · Demo app"`) {
		t.Errorf("evaluate:\n%s", got)
	}
	if got := callOK(t, cs, "browser_network_requests", nil); !strings.Contains(got, "/dialogs.html => 200") {
		t.Errorf("network requests:\n%s", got)
	}
	shot := mcpCall(t, cs, "browser_take_screenshot", nil)
	if len(shot.Content) < 2 {
		t.Fatalf("screenshot: no image: %v", shot.Content)
	}
	if img, ok := shot.Content[1].(*sdk.ImageContent); !ok || img.MIMEType != "image/png" || len(img.Data) < 100 {
		t.Errorf("screenshot content: %#v", shot.Content[1])
	}

	popup := callOK(t, cs, "browser_navigate", map[string]any{"url": "/popup.html"})
	clicked := callOK(t, cs, "browser_click", map[string]any{"ref": refOf(t, popup, "link", "Open in new tab")})
	if !strings.Contains(clicked, "A new tab opened") {
		t.Errorf("click should say a tab opened:\n%s", clicked)
	}
	tabs := callOK(t, cs, "browser_tabs", map[string]any{"action": "list"})
	if !strings.Contains(tabs, "*[0]") || !strings.Contains(tabs, "[1] ") {
		t.Errorf("tabs:\n%s", tabs)
	}
	sel := callOK(t, cs, "browser_tabs", map[string]any{"action": "select", "index": 1})
	if !strings.Contains(sel, "When I switch to tab 2") || !strings.Contains(sel, "popup-content.html") {
		t.Errorf("select tab:\n%s", sel)
	}

	// Media emulation, a new tab and a modifier click are recorded as
	// built-in steps too, and the whole session replays with bdd.
	media := callOK(t, cs, "browser_emulate_media", map[string]any{"colorScheme": "dark", "media": "print"})
	if !strings.Contains(media, `Step: When I emulate the media type "print"`) || !strings.Contains(media, `Step: When I emulate the color scheme "dark"`) {
		t.Errorf("emulate media:\n%s", media)
	}
	// Values no built-in step takes are not recorded (the export must
	// replay), and the result says so.
	reset := callOK(t, cs, "browser_emulate_media", map[string]any{"media": "no-override"})
	if strings.Contains(reset, "Step:") || !strings.Contains(reset, "Not recorded: no built-in step emulates the media type no-override") {
		t.Errorf("emulate media no-override:\n%s", reset)
	}
	newTab := callOK(t, cs, "browser_tabs", map[string]any{"action": "new", "url": "/todo.html"})
	if !strings.Contains(newTab, `Step: When I open "/todo.html" in a new tab`) {
		t.Errorf("new tab:\n%s", newTab)
	}
	shift := callOK(t, cs, "browser_click", map[string]any{"role": "heading", "name": "Todo list", "modifiers": []string{"Shift"}})
	if !strings.Contains(shift, `Step: When I click 'role=heading[name="Todo list"]' while holding "Shift"`) {
		t.Errorf("modifier click:\n%s", shift)
	}
	callOK(t, cs, "session_export", map[string]any{"path": "features/session.feature"})
	if r := ferridriver(t, dir, "bdd", "features/session.feature"); r.code != 0 {
		t.Fatalf("the exported session does not replay: exit %d\n%s\n%s\n%s", r.code, readFile(t, filepath.Join(dir, "features/session.feature")), r.stdout, r.stderr)
	}
}

// TestMCPRunBDD: run_bdd runs inline Gherkin with the project's steps on
// the agent's live page, with a result per scenario and step and progress
// per scenario.
func TestMCPRunBDD(t *testing.T) {
	dir := browserProject(t)
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": strings.Replace(readFile(t, filepath.Join(dir, "ferridriver.toml")), "[test]\n", "[test]\nsteps = [\"steps/**/*.ts\"]\n", 1),
		"steps/heading.ts": `import { Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'

Then('the heading is {string}', async function (heading: string) {
  await expect(this.page.getByRole('heading', { level: 1 })).toHaveText(heading, { timeout: 2000 })
})
`,
	})
	var mu sync.Mutex
	var progress []string
	cs, _ := mcpClientWith(t, dir, nil, &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		progress = append(progress, r.Params.Message)
		mu.Unlock()
	}})
	login := callOK(t, cs, "browser_navigate", map[string]any{"url": "/login"})
	callOK(t, cs, "browser_fill_form", map[string]any{"fields": []map[string]any{
		{"ref": refOf(t, login, "textbox", "Username"), "value": "demo"},
		{"ref": refOf(t, login, "textbox", "Password"), "value": "secret"},
	}})
	callOK(t, cs, "browser_click", map[string]any{"role": "button", "name": "Log in"})

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	params := &sdk.CallToolParams{Name: "run_bdd", Arguments: map[string]any{"gherkin": `Feature: Live
  Scenario: The agent's page
    Then the heading is "Welcome, demo!"

  Scenario: A wrong heading
    Then the heading is "Nope"
`}}
	params.SetProgressToken("bdd-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Errorf("a failing scenario should make the result an error")
	}
	var out struct {
		Success   bool
		Scenarios []struct {
			Name, Status string
			Steps        []struct{ Text, Status, Error string }
		}
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("structured result: %v\n%s", err, resultText(res, 0))
	}
	if out.Success || len(out.Scenarios) != 2 {
		t.Fatalf("want 2 scenarios, one failing:\n%s", resultText(res, 0))
	}
	first, second := out.Scenarios[0], out.Scenarios[1]
	if first.Status != "PASSED" || len(first.Steps) != 1 || first.Steps[0].Text != `the heading is "Welcome, demo!"` {
		t.Errorf("the first scenario runs on the live (logged-in) page: %+v\n%s", first, resultText(res, 0))
	}
	if second.Status != "FAILED" || len(second.Steps) != 1 || !strings.Contains(second.Steps[0].Error, "Nope") {
		t.Errorf("the second scenario fails with the step's error: %+v", second)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) != 2 || !strings.Contains(progress[0], "The agent's page: PASSED") {
		t.Errorf("progress per scenario: %q", progress)
	}
	// The session goes on after the run, on the same page.
	if got := callOK(t, cs, "browser_snapshot", nil); !strings.Contains(got, "Welcome, demo!") {
		t.Errorf("after run_bdd the page is the agent's:\n%s", got)
	}

	// A page-object file written while the server runs is used by the next
	// run_bdd: the built-in library is loaded for each run.
	testenv.WriteFiles(t, dir, map[string]string{"pages/welcome.yaml": "Greeting: h1\n"})
	pageRun, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_bdd", Arguments: map[string]any{"gherkin": `Feature: Page objects
  Scenario: A page object written after the server started
    Then I expect the text of "Greeting" to equal "Welcome, demo!"
`}})
	if err != nil {
		t.Fatal(err)
	}
	if pageRun.IsError {
		t.Errorf("run_bdd with a new page object:\n%s", resultText(pageRun, 0))
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
