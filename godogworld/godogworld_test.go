package godogworld_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cucumber/godog"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/examples/godogdemo"
	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world"
)

// Cucumber JSON as godog's cucumber formatter writes it (the parts the
// tests read).
type cukeFeature struct {
	Name     string        `json:"name"`
	Elements []cukeElement `json:"elements"`
}

type cukeElement struct {
	Name  string     `json:"name"`
	Steps []cukeStep `json:"steps"`
}

type cukeStep struct {
	Keyword string `json:"keyword"`
	Name    string `json:"name"`
	Result  struct {
		Status string `json:"status"`
		Error  string `json:"error_message"`
	} `json:"result"`
	Embeddings []struct {
		Name     string `json:"name"`
		MimeType string `json:"mime_type"`
		Data     string `json:"data"`
	} `json:"embeddings"`
}

// runGodog runs a godog suite over features (name -> Gherkin) with the
// Suite's initializers around init, and returns godog's exit status and
// its cucumber JSON report (raw and parsed).
func runGodog(t *testing.T, s *godogworld.Suite, features map[string]string, concurrency int, init func(*godog.ScenarioContext)) (int, []byte, []cukeFeature) {
	t.Helper()
	var contents []godog.Feature
	for name, src := range features {
		contents = append(contents, godog.Feature{Name: name, Contents: []byte(src)})
	}
	var out bytes.Buffer
	status := godog.TestSuite{
		Name:                 t.Name(),
		TestSuiteInitializer: s.TestSuiteInitializer(nil),
		ScenarioInitializer:  s.ScenarioInitializer(init),
		Options: &godog.Options{
			Format: "cucumber", Output: &out, NoColors: true, Strict: true,
			FeatureContents: contents, Concurrency: concurrency,
		},
	}.Run()
	var report []cukeFeature
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatalf("godog's cucumber report is not JSON: %v\n%s", err, out.Bytes())
	}
	return status, out.Bytes(), report
}

// scenarioSteps returns the steps of the scenario named name.
func scenarioSteps(t *testing.T, report []cukeFeature, name string) []cukeStep {
	t.Helper()
	for _, f := range report {
		for _, e := range f.Elements {
			if e.Name == name {
				return e.Steps
			}
		}
	}
	t.Fatalf("no scenario %q in the report", name)
	return nil
}

// goSteps are the Go steps of examples/godogdemo, written against the
// World: I open "<path>", I log in as "<user>" with password "<password>",
// the heading reads "<text>", the counter reads "<text>".
var goSteps = godogdemo.InitializeScenario

const loginFeature = `Feature: Login
  Scenario: Logging in
    Given I open "/login"
    When I log in as "demo" with password "secret"
    Then the heading reads "Welcome, demo!"
    And every scenario has its own page

  Scenario: A new scenario is logged out
    Given I open "/welcome"
    Then the heading reads "Log in"
    And every scenario has its own page
`

// TestGoSteps runs a godog suite whose Go steps use the World against the
// demo app: relative URLs resolve against baseURL, Expect retries until
// the page shows the text, and each scenario gets a fresh context (the
// login cookie of the first is not in the second) that is closed once the
// scenario is over.
func TestGoSteps(t *testing.T) {
	testenv.NeedBrowser(t)
	s, err := godogworld.New(godogworld.Options{Browser: world.Config{BaseURL: testenv.DemoApp(t), OutputDir: t.TempDir()}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var pages []playwright.Page
	contexts := map[playwright.BrowserContext]bool{}
	var hookErrs []string
	status, _, report := runGodog(t, s, map[string]string{"login.feature": loginFeature}, 1, func(sc *godog.ScenarioContext) {
		// The suite's own hooks run inside the Suite's: its Before hooks
		// find the page open, and so do its After hooks.
		sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
			if w := godogworld.FromContext(ctx); w == nil || w.Page.URL() != "about:blank" {
				hookErrs = append(hookErrs, "a Before hook has no fresh page")
			}
			return ctx, nil
		})
		sc.After(func(ctx context.Context, _ *godog.Scenario, _ error) (context.Context, error) {
			if w := godogworld.FromContext(ctx); w == nil || w.Page.IsClosed() {
				hookErrs = append(hookErrs, "an After hook has no open page")
			}
			return ctx, nil
		})
		goSteps(sc)
		sc.Step(`^every scenario has its own page$`, func(ctx context.Context) error {
			w := godogworld.FromContext(ctx)
			mu.Lock()
			defer mu.Unlock()
			if contexts[w.Context] || w.Page.Context() != w.Context {
				return fmt.Errorf("the scenario's context is not its own")
			}
			for _, p := range pages {
				if !p.IsClosed() {
					return fmt.Errorf("the page of an earlier scenario is still open")
				}
			}
			contexts[w.Context] = true
			pages = append(pages, w.Page)
			return nil
		})
	})
	if status != 0 {
		t.Fatalf("godog exit status %d: %+v", status, report)
	}
	for _, name := range []string{"Logging in", "A new scenario is logged out"} {
		for _, st := range scenarioSteps(t, report, name) {
			if st.Result.Status != "passed" || len(st.Embeddings) != 0 {
				t.Errorf("%s / %s: %s with %d attachments %s", name, st.Name, st.Result.Status, len(st.Embeddings), st.Result.Error)
			}
		}
	}
	if len(hookErrs) > 0 {
		t.Error(hookErrs)
	}
	if len(contexts) != 2 {
		t.Errorf("%d contexts for 2 scenarios", len(contexts))
	}
	if godogworld.FromContext(context.Background()) != nil {
		t.Error("FromContext outside a scenario is not nil")
	}
}

// TestFailedStepScreenshot: the step that fails gets a PNG of the page in
// godog's cucumber JSON (screenshot = only-on-failure, the default); the
// steps before it have no attachment, the one after it is skipped; the
// report is valid Cucumber JSON for the official converter.
func TestFailedStepScreenshot(t *testing.T) {
	testenv.NeedBrowser(t)
	s, err := godogworld.New(godogworld.Options{
		Browser: world.Config{BaseURL: testenv.DemoApp(t), OutputDir: t.TempDir(), Viewport: &world.Viewport{Width: 800, Height: 600}},
		// Expect retries for 300 ms before the step fails.
		ExpectTimeout: 300, Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	status, raw, report := runGodog(t, s, map[string]string{"login.feature": `Feature: Login
  Scenario: A wrong expectation
    Given I open "/login"
    Then the heading reads "Welcome, nobody!"
    And I open "/welcome"
`}, 1, goSteps)
	if status != 1 {
		t.Fatalf("godog exit status %d, want 1 (failure)", status)
	}
	steps := scenarioSteps(t, report, "A wrong expectation")
	if len(steps) != 3 {
		t.Fatalf("%d steps", len(steps))
	}
	if st := steps[0]; st.Result.Status != "passed" || len(st.Embeddings) != 0 {
		t.Errorf("first step: %s with %d attachments", st.Result.Status, len(st.Embeddings))
	}
	failed := steps[1]
	if failed.Result.Status != "failed" || !strings.Contains(failed.Result.Error, "Welcome, nobody!") {
		t.Errorf("failing step: %s %q", failed.Result.Status, failed.Result.Error)
	}
	if len(failed.Embeddings) != 1 {
		t.Fatalf("failing step has %d attachments, want the screenshot", len(failed.Embeddings))
	}
	e := failed.Embeddings[0]
	if e.MimeType != "image/png" || e.Name != "failure.png" {
		t.Errorf("attachment %s %s", e.Name, e.MimeType)
	}
	body, err := base64.StdEncoding.DecodeString(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if cfg.Width != 800 || cfg.Height != 600 {
		t.Errorf("screenshot is %dx%d, want the 800x600 viewport", cfg.Width, cfg.Height)
	}
	if steps[2].Result.Status != "skipped" {
		t.Errorf("step after the failure: %s", steps[2].Result.Status)
	}
	validateCucumberJSON(t, raw)
}

// TestScreenshotModes: screenshot = on attaches the page at the end of
// every scenario (to its last step); off attaches nothing, not even for a
// failure. trace = retain-on-failure links the failed scenario's trace.
func TestScreenshotModes(t *testing.T) {
	testenv.NeedBrowser(t)
	base := testenv.DemoApp(t)
	feature := `Feature: Modes
  Scenario: Passing
    Given I open "/login"
    Then the heading reads "Log in"

  Scenario: Failing
    Given I open "/login"
    Then the heading reads "Not this"
`
	for _, tc := range []struct {
		screenshot, trace string
		passing, failing  []string // attachment names of the last step
	}{
		{world.ModeOn, world.ModeRetainOnFailure, []string{"screenshot.png"}, []string{"failure.png", "screenshot.png", "trace.zip"}},
		{world.ModeOff, world.ModeOff, nil, nil},
	} {
		t.Run(tc.screenshot, func(t *testing.T) {
			out := t.TempDir()
			s, err := godogworld.New(godogworld.Options{
				Browser:       world.Config{BaseURL: base, OutputDir: out, Screenshot: tc.screenshot, Trace: tc.trace},
				ExpectTimeout: 300, Logf: t.Logf,
			})
			if err != nil {
				t.Fatal(err)
			}
			_, _, report := runGodog(t, s, map[string]string{"modes.feature": feature}, 1, goSteps)
			for name, want := range map[string][]string{"Passing": tc.passing, "Failing": tc.failing} {
				steps := scenarioSteps(t, report, name)
				var got []string
				for _, e := range steps[len(steps)-1].Embeddings {
					got = append(got, e.Name)
					if e.Name != "trace.zip" {
						continue
					}
					link, _ := base64.StdEncoding.DecodeString(e.Data)
					path := strings.TrimPrefix(string(link), "file://")
					if e.MimeType != "text/uri-list" || !strings.HasPrefix(path, out) {
						t.Errorf("trace link %s %s", e.MimeType, link)
					} else if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
						t.Errorf("trace %s: %v", path, err)
					}
				}
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("%s: last step's attachments %v, want %v", name, got, want)
				}
			}
		})
	}
}

// todoSteps are the project's TypeScript steps of the mixed suite: a
// parameter type with a transformer, DataTable and doc string arguments,
// tagged Before hooks, After hooks, BeforeStep hooks, BeforeAll/AfterAll
// per VM, attachments.
const todoSteps = `
import { Given, When, Then, Before, After, BeforeStep, BeforeAll, AfterAll, defineParameterType, DataTable } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import { writeFileSync } from 'node:fs'

let beforeAll = 0
BeforeAll(function () { beforeAll++ })
AfterAll(function () {
  writeFileSync('afterall-' + Math.random().toString(36).slice(2) + '.txt', 'BeforeAll ran ' + beforeAll + ' time(s)')
})

defineParameterType({ name: 'items', regexp: /\d+ items?/, transformer: (s: string) => parseInt(s, 10) })

Before({ tags: '@hooked' }, async function () {
  this.attach('Before hook saw ' + this.page.url(), 'text/plain')
})

BeforeStep({ tags: '@hooked' }, function ({ pickleStep }) {
  this.stepsSeen = (this.stepsSeen ?? 0) + 1
  this.lastStep = pickleStep.text
})

Given('I open the todo list in JavaScript', async function () {
  await this.page.goto('/todo.html')
})

When('I add the todos:', async function (table: DataTable) {
  for (const { todo } of table.hashes()) {
    await this.page.getByTestId('new-todo').fill(todo)
    await this.page.getByTestId('new-todo').press('Enter')
  }
})

Then('the JavaScript page is at {string}', function (path: string) {
  expect(new URL(this.page.url()).pathname).toBe(path)
})

Then('the list has {items}', async function (n: number) {
  expect(typeof n).toBe('number')
  await expect(this.page.getByTestId('todo-item')).toHaveCount(n)
})

When('I note in JavaScript:', function (text: string) {
  this.attach('note: ' + text + ' (BeforeStep saw ' + this.stepsSeen + ' JavaScript steps, the last "' + this.lastStep + '")', 'text/plain')
})

After(async function ({ result }) {
  this.attach('After hook: ' + result.status, 'text/plain')
})
`

const mixedFeature = `Feature: Mixed steps
  @hooked
  Scenario: Go and JavaScript share the page
    Given I open "/todo.html"
    Then the JavaScript page is at "/todo.html"
    When I add the todos:
      | todo         |
      | Buy milk     |
      | Walk the dog |
    Then the counter reads "2 items left"
    And the list has 2 items
    When I note in JavaScript:
      """
      shared page
      """

  Scenario: A JavaScript step that fails
    Given I open the todo list in JavaScript
    Then the JavaScript page is at "/elsewhere.html"
    And the counter reads "0 items left"
`

// TestGoAndJavaScriptSteps runs Go steps and the project's TypeScript
// steps in the same scenarios, two at a time: each side sees what the
// other did on the page; DataTable and doc string arguments and a custom
// parameter type reach the JavaScript; hooks run and their attachments
// reach godog's report; a failing JavaScript step reports its .ts line
// and gets the failure screenshot; AfterAll runs in every VM when the
// suite ends.
func TestGoAndJavaScriptSteps(t *testing.T) {
	testenv.NeedBrowser(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"steps/todo.ts": todoSteps})
	s, err := godogworld.New(godogworld.Options{
		Browser: world.Config{BaseURL: testenv.DemoApp(t), OutputDir: t.TempDir()},
		Dir:     dir, Steps: []string{"steps/**/*.ts"}, Stdout: testWriter{t}, Stderr: testWriter{t}, Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	status, raw, report := runGodog(t, s, map[string]string{"mixed.feature": mixedFeature}, 2, goSteps)
	if status != 1 {
		t.Fatalf("godog exit status %d, want 1 (one scenario fails)", status)
	}
	shared := scenarioSteps(t, report, "Go and JavaScript share the page")
	var texts []string
	for i, st := range shared {
		if st.Result.Status != "passed" {
			t.Errorf("step %d %q: %s %s", i, st.Name, st.Result.Status, st.Result.Error)
		}
		for _, e := range st.Embeddings {
			b, _ := base64.StdEncoding.DecodeString(e.Data)
			texts = append(texts, fmt.Sprintf("%d:%s:%s", i, e.MimeType, b))
		}
	}
	want := []string{
		"0:text/plain:Before hook saw about:blank",
		`5:text/plain:note: shared page (BeforeStep saw 4 JavaScript steps, the last "I note in JavaScript:")`,
		"5:text/plain:After hook: PASSED",
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Errorf("attachments:\n%s\nwant:\n%s", strings.Join(texts, "\n"), strings.Join(want, "\n"))
	}

	failing := scenarioSteps(t, report, "A JavaScript step that fails")
	if len(failing) != 3 || failing[0].Result.Status != "passed" || failing[1].Result.Status != "failed" || failing[2].Result.Status != "skipped" {
		t.Fatalf("failing scenario: %+v", failing)
	}
	if msg := failing[1].Result.Error; !strings.Contains(msg, "/elsewhere.html") || !strings.Contains(msg, "steps/todo.ts:") {
		t.Errorf("the failure does not show the expectation and the .ts line: %q", msg)
	}
	var names []string
	for _, e := range failing[1].Embeddings {
		names = append(names, e.MimeType)
		if e.MimeType == "text/plain" {
			b, _ := base64.StdEncoding.DecodeString(e.Data)
			names = append(names, string(b))
		}
	}
	if got := strings.Join(names, "|"); got != "image/png|text/plain|After hook: FAILED" {
		t.Errorf("failing step's attachments: %s", got)
	}
	validateCucumberJSON(t, raw)

	// The suite is closed: every VM ran its AfterAll after its BeforeAll.
	files, _ := filepath.Glob(filepath.Join(dir, "afterall-*.txt"))
	if len(files) == 0 {
		t.Fatal("AfterAll did not run")
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if string(b) != "BeforeAll ran 1 time(s)" {
			t.Errorf("%s: %s", filepath.Base(f), b)
		}
	}
}

// testWriter sends console output of the steps to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}

// validateCucumberJSON checks godog's report with the schemas published
// by the official Cucumber JSON converter (testdata/cucumber-json.mjs says
// how) and that the screenshots are well-formed embeddings.
func validateCucumberJSON(t *testing.T, raw []byte) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is required to run the Cucumber JSON converter: %v", err)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "cucumber-json.mjs"))
	cmd := exec.Command("node", script, oracles.NodeModules(t))
	cmd.Stdin = bytes.NewReader(raw)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	var res struct {
		Errors       []string        `json:"errors"`
		Converted    json.RawMessage `json:"converted"`
		ConvertError string          `json:"convertError"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, e := range res.Errors {
		t.Errorf("godog's report is not valid against the cucumber-ruby JSON schema: %s", e)
	}
	if res.ConvertError != "" {
		t.Errorf("the Cucumber JSON converter rejects godog's report: %s", res.ConvertError)
	}
	var report []cukeFeature
	if err := json.Unmarshal(raw, &report); err != nil {
		t.Fatal(err)
	}
	shots := 0
	for _, f := range report {
		for _, e := range f.Elements {
			for _, s := range e.Steps {
				for _, em := range s.Embeddings {
					if em.MimeType != "image/png" {
						continue
					}
					b, err := base64.StdEncoding.DecodeString(em.Data)
					if err != nil {
						t.Errorf("%s: embedding is not base64: %v", s.Name, err)
					} else if _, err := png.DecodeConfig(bytes.NewReader(b)); err != nil {
						t.Errorf("%s: embedded image is not a PNG: %v", s.Name, err)
					}
					shots++
				}
			}
		}
	}
	if shots == 0 {
		t.Error("the report embeds no screenshot")
	}
}
