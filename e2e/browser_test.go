package e2e

import (
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// End-to-end tests of the browser API through the real binary: the World's
// page, the Playwright bindings, expect, attachments, lazy launch and
// crash recovery.

// demoServer serves the demo app for the test and returns its URL.
func demoServer(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	u, err := demoapp.Serve(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// stepIDs maps each test step id to the text of its pickle step ("" for
// hooks).
func stepIDs(envs []*messages.Envelope) map[string]string {
	pickleText := map[string]string{}
	for _, e := range envs {
		if p := e.Pickle; p != nil {
			for _, s := range p.Steps {
				pickleText[s.ID] = s.Text
			}
		}
	}
	out := map[string]string{}
	for _, e := range envs {
		if tc := e.TestCase; tc != nil {
			for _, s := range tc.TestSteps {
				if s.PickleStepID != nil {
					out[s.ID] = pickleText[*s.PickleStepID]
				} else {
					out[s.ID] = ""
				}
			}
		}
	}
	return out
}

// finished returns the result of each step by its text.
func finished(envs []*messages.Envelope) map[string]messages.TestStepResult {
	ids := stepIDs(envs)
	out := map[string]messages.TestStepResult{}
	for _, e := range envs {
		if f := e.TestStepFinished; f != nil && ids[f.TestStepID] != "" {
			out[ids[f.TestStepID]] = f.TestStepResult
		}
	}
	return out
}

// attachmentsOf returns the attachments of the step with the given text.
func attachmentsOf(envs []*messages.Envelope, stepText string) []*messages.Attachment {
	ids := stepIDs(envs)
	var out []*messages.Attachment
	for _, e := range envs {
		if a := e.Attachment; a != nil && a.TestStepID != nil && ids[*a.TestStepID] == stepText {
			out = append(out, a)
		}
	}
	return out
}

const browserSteps = `import { Given, When, Then, Before, After, setDefaultTimeout } from '@cucumber/cucumber'
import { expect } from '@playwright/test'

setDefaultTimeout(15000)

Given('I open {string}', async function (path: string) {
  await this.page.goto(path)
})
When('I load data and wait for the response', async function () {
  const [response] = await Promise.all([
    this.page.waitForResponse('**/api/slow*'),
    this.page.getByRole('button', { name: 'Load data' }).click(),
  ])
  this.status = response.status()
  this.body = await response.json()
})
Then('the response was OK', async function () {
  expect(this.status).toBe(200)
  expect(this.body).toMatchObject({ ok: true })
})
When('the todos API is mocked', async function () {
  await this.page.route('**/api/todos', route => route.fulfill({ json: [{ id: 1, title: 'mocked todo' }] }))
})
Then('the page fetches the mocked todos', async function () {
  const todos = await this.page.evaluate(async () => (await fetch('/api/todos')).json())
  expect(todos).toEqual([{ id: 1, title: 'mocked todo' }])
})
When('I answer the prompt with {string}', async function (name: string) {
  this.page.once('dialog', dialog => dialog.accept(name))
  await this.page.getByRole('button', { name: 'Show prompt' }).click()
})
Then('the dialog result reads {string}', async function (text: string) {
  await expect(this.page.getByTestId('dialog-result')).toHaveText(text)
})
When('I open the popup and press its button', async function () {
  const [popup] = await Promise.all([
    this.page.waitForEvent('popup'),
    this.page.getByRole('button', { name: 'Open popup' }).click(),
  ])
  await popup.getByRole('button').first().click()
})
Then('the popup status reads {string}', async function (text: string) {
  await expect(this.page.getByTestId('popup-status')).toHaveText(text)
})
Then('the API lists todos', async function () {
  const res = await this.request.get('/api/todos')
  await expect(res).toBeOK()
  expect((await res.json()).length).toBeGreaterThan(0)
  expect(this.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:/)
})
Then('the counter reads {string}', async function (text: string) {
  await expect(this.page.getByTestId('todo-count')).toHaveText(text, { timeout: 500 })
})
Then('two soft assertions fail and the step goes on', async function () {
  await expect.soft(this.page.getByTestId('todo-count')).toHaveText('7 items left', { timeout: 300 })
  expect.soft(1 + 1).toBe(3)
  this.log('after the soft failures')
})
`

func TestBrowserBindingsThroughTheBinary(t *testing.T) {
	t.Parallel()
	testenv.NeedBrowser(t)
	base := demoServer(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "[browser]\nbaseURL = \"" + base + "\"\ntrace = \"retain-on-failure\"\noutputDir = \"results\"\n",
		"steps/steps.ts":   browserSteps,
		"features/ok.feature": `Feature: bindings
  Scenario: waiting for a response while clicking
    Given I open "/slow.html?delay=50"
    When I load data and wait for the response
    Then the response was OK

  Scenario: a mocked route
    Given I open "/"
    When the todos API is mocked
    Then the page fetches the mocked todos

  Scenario: a dialog
    Given I open "/dialogs.html"
    When I answer the prompt with "Ada"
    Then the dialog result reads "Hello, Ada!"

  Scenario: a popup
    Given I open "/popup.html"
    When I open the popup and press its button
    Then the popup status reads "Popup says: done"

  Scenario: the API request context
    Then the API lists todos
`,
		"features/fail.feature": `Feature: failures
  Scenario: a web-first assertion fails
    Given I open "/todo.html"
    Then the counter reads "3 items left"

  Scenario: soft assertions
    Given I open "/todo.html"
    Then two soft assertions fail and the step goes on
`,
	})
	res := ferridriver(t, dir, "bdd", "--format", "message:out/run.ndjson")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "summary", res.stdout, "7 scenarios (5 passed, 2 failed)")
	envs := oracles.ReadStream(t, filepath.Join(dir, "out", "run.ndjson"))
	results := finished(envs)

	web := results[`the counter reads "3 items left"`]
	if web.Status != messages.TestStepResultStatusFailed || web.Exception == nil {
		t.Fatalf("web-first step: %+v", web)
	}
	if web.Exception.Type != "Error" {
		t.Errorf("exception type %q, want Error", web.Exception.Type)
	}
	wantContains(t, "web-first failure", *web.Message,
		"expect(locator).toHaveText(expected) failed\n\nLocator: getByTestId('todo-count')\nExpected string: \"3 items left\"\nReceived string: \"0 items left\"\nTimeout: 500ms",
		"steps/steps.ts:")

	// The failure screenshot is a PNG attached to the failing step; the
	// trace (retain-on-failure) is linked from the test case.
	var png, trace bool
	for _, a := range attachmentsOf(envs, `the counter reads "3 items left"`) {
		switch a.MediaType {
		case "image/png":
			b, err := base64.StdEncoding.DecodeString(a.Body)
			if err != nil || len(b) < 8 || string(b[1:4]) != "PNG" {
				t.Errorf("the screenshot is not a PNG (%d bytes, %v)", len(b), err)
			}
			png = a.ContentEncoding == messages.AttachmentContentEncodingBase64
		case "text/uri-list":
			u, err := url.Parse(a.Body)
			if err != nil || u.Scheme != "file" {
				t.Fatalf("trace link %q", a.Body)
			}
			if st, err := os.Stat(u.Path); err != nil || st.Size() == 0 || !strings.HasSuffix(u.Path, ".zip") {
				t.Errorf("trace %s: %v", u.Path, err)
			}
			trace = true
		}
	}
	if !png || !trace {
		t.Errorf("attachments of the failing step: png %v, trace %v", png, trace)
	}
	// Passing test cases keep no trace (retain-on-failure).
	traces, _ := filepath.Glob(filepath.Join(dir, "results", "traces", "*.zip"))
	if len(traces) != 2 {
		t.Errorf("trace files: %v, want 2 (the failed test cases)", traces)
	}

	soft := results["two soft assertions fail and the step goes on"]
	if soft.Status != messages.TestStepResultStatusFailed {
		t.Fatalf("soft step: %+v", soft)
	}
	wantContains(t, "soft failures", *soft.Message, "2 soft assertion failures:", "1) expect(locator).toHaveText(expected) failed",
		"2) expect(received).toBe(expected) // Object.is equality")
	var logged bool
	for _, a := range attachmentsOf(envs, "two soft assertions fail and the step goes on") {
		logged = logged || a.Body == "after the soft failures"
	}
	if !logged {
		t.Error("the step did not go on after its soft failures")
	}
}

// The pattern of existing cucumber-js + Playwright suites: the browser is
// launched in BeforeAll, each scenario makes its context and page in
// Before and closes them in After, the World is a class. It runs unchanged.
func TestCucumberJSPlaywrightPattern(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demoServer(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "[browser]\nbaseURL = \"" + base + "\"\n",
		"features/support/world.ts": `import { setWorldConstructor, World, Before, After, BeforeAll, AfterAll } from '@cucumber/cucumber'
import { chromium, Browser, BrowserContext, Page } from 'playwright'

let browser: Browser
class PlaywrightWorld extends World {
  context!: BrowserContext
  page!: Page
  visited: string[] = []
}
setWorldConstructor(PlaywrightWorld)
BeforeAll(async function () { browser = await chromium.launch({ headless: true }) })
Before(async function (this: PlaywrightWorld) {
  this.context = await browser.newContext()
  this.page = await this.context.newPage()
})
After(async function (this: PlaywrightWorld) {
  await this.page.close()
  await this.context.close()
})
AfterAll(async function () { await browser.close() })
`,
		"features/steps/steps.js": `const { Given, Then } = require('@cucumber/cucumber')
const { expect } = require('@playwright/test')
Given('I open the todo list', async function () {
  await this.page.goto('/todo.html')
  this.visited.push('todo')
})
Then('the heading is {string}', async function (text) {
  await expect(this.page.getByRole('heading', { level: 1 })).toHaveText(text, { timeout: 500 })
})
`,
		"features/todo.feature": `Feature: todo
  Scenario: heading
    Given I open the todo list
    Then the heading is "Todo list"

  Scenario: wrong heading
    Given I open the todo list
    Then the heading is "Something else"
`,
	})
	res := ferridriver(t, dir, "bdd", "--format", "message:out/run.ndjson")
	if res.code != 1 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "summary", res.stdout, "2 scenarios (1 passed, 1 failed)")
	envs := oracles.ReadStream(t, filepath.Join(dir, "out", "run.ndjson"))
	var png bool
	for _, a := range attachmentsOf(envs, `the heading is "Something else"`) {
		png = png || a.MediaType == "image/png"
	}
	if !png {
		t.Error("no failure screenshot of the user's own page")
	}
}

// A suite whose steps never touch the browser starts no browser and no
// driver.
func TestLogicOnlySuiteStartsNoBrowser(t *testing.T) {
	testenv.NeedBrowser(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/logic.feature": `Feature: logic
  Scenario: arithmetic
    Given I wait a little
    Then 2 + 2 is 4
`,
		"steps/steps.ts": `import { Given, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
Given('I wait a little', async function () {
  expect(this.baseURL).toBeUndefined()
  await new Promise(r => setTimeout(r, 1500))
})
Then('2 + 2 is 4', function () { expect(2 + 2).toBe(4) })
`,
	})
	token := runToken(t)
	cmd, stdout, stderr := startFerridriver(t, dir, []string{token}, "bdd")
	var seen []string
	done := make(chan int, 1)
	go func() { done <- exitCode(t, cmd) }()
	for {
		select {
		case code := <-done:
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			if len(seen) > 0 {
				t.Fatalf("a logic-only suite started processes:\n%s", strings.Join(seen, "\n"))
			}
			noneLeft(t, token)
			return
		case <-time.After(50 * time.Millisecond):
			for _, p := range procsWith(token) {
				if !strings.Contains(p, binary) {
					seen = append(seen, p)
				}
			}
		}
	}
}

// A browser killed during a test case fails that test case with a clear
// message; the browser is relaunched and the next scenario passes.
func TestBrowserCrashRecovery(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demoServer(t)
	token := runToken(t)
	// The step asks this server to kill the run's browser.
	killed := make(chan int, 4)
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := 0
		for _, p := range browserProcs(procsWith(token)) {
			if strings.Contains(p, "--type=") {
				continue // only the main process
			}
			if pid, err := strconv.Atoi(strings.Fields(p)[0]); err == nil && syscall.Kill(pid, syscall.SIGKILL) == nil {
				n++
			}
		}
		killed <- n
		fmt.Fprint(w, n)
	})}
	go func() { _ = srv.Serve(listener) }()
	t.Cleanup(func() { srv.Close() })
	ln := "http://" + listener.Addr().String()

	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "[browser]\nbaseURL = \"" + base + "\"\n",
		"features/crash.feature": `Feature: crash
  Scenario: the browser is killed
    Given I open "/todo.html"
    When the browser is killed
    Then the page still answers

  Scenario: the next scenario gets a new browser
    Given I open "/todo.html"
    Then the page still answers
`,
		"steps/steps.ts": `import { Given, When, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
Given('I open {string}', async function (p: string) { await this.page.goto(p) })
When('the browser is killed', async function () {
  const r = await fetch('` + ln + `/kill')
  expect(Number(await r.text())).toBeGreaterThan(0)
  await new Promise(r => setTimeout(r, 300))
})
Then('the page still answers', async function () {
  await expect(this.page).toHaveTitle(/Todo/)
})
`,
	})
	res := ferridriverWithEnv(t, dir, []string{token}, "bdd", "--format", "message:out/run.ndjson")
	if res.code != 1 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	wantContains(t, "summary", res.stdout, "2 scenarios (1 passed, 1 failed)")
	msgs := failedMessages(oracles.ReadStream(t, filepath.Join(dir, "out", "run.ndjson")))
	if len(msgs) != 1 || !strings.Contains(msgs[0], "the browser process exited unexpectedly (crashed or was killed) during this test case; it will be relaunched") {
		t.Fatalf("failure messages: %q", msgs)
	}
	if n := <-killed; n == 0 {
		t.Fatal("no browser process was killed")
	}
	noneLeft(t, token)
}

// A tool handler called from a step gets the step's World page.
func TestToolHandlerGetsTheWorldPage(t *testing.T) {
	testenv.NeedBrowser(t)
	base := demoServer(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": "extensions = [\"ext\"]\n[browser]\nbaseURL = \"" + base + "\"\n",
		"ext/title.ts":     `defineTool({ name: "page.title" }, async ({ page }) => page.title());`,
		"features/tool.feature": `Feature: tool
  Scenario: the tool sees the step's page
    Given I open "/table.html"
    Then the page.title tool returns the title
`,
		"steps/steps.ts": `import { Given, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
Given('I open {string}', async function (p: string) { await this.page.goto(p) })
Then('the page.title tool returns the title', async function () {
  expect(await plugins['page.title']()).toBe(await this.page.title())
})
`,
	})
	res := ferridriver(t, dir, "bdd")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}
