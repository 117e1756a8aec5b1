package jssteps_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/examples/godogdemo"
	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/godogworld/internal/godogtest"
	"github.com/ferridriver/ferridriver/godogworld/jssteps"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world"
)

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
	s, err := jssteps.New(jssteps.Options{
		Options: godogworld.Options{Browser: world.Config{BaseURL: testenv.DemoApp(t), OutputDir: t.TempDir()}, Logf: t.Logf},
		Dir:     dir, Steps: []string{"steps/**/*.ts"}, Stdout: godogtest.Writer{T: t}, Stderr: godogtest.Writer{T: t},
	})
	if err != nil {
		t.Fatal(err)
	}
	pretty := filepath.Join(t.TempDir(), "pretty.txt")
	status, raw, report := godogtest.Run(t, s, map[string]string{"mixed.feature": mixedFeature}, 2, godogdemo.InitializeScenario, "pretty:"+pretty)
	if status != 1 {
		t.Fatalf("godog exit status %d, want 1 (one scenario fails)", status)
	}
	shared := godogtest.ScenarioSteps(t, report, "Go and JavaScript share the page")
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

	// godog's formatters show where each step is defined: the .ts line of
	// a JavaScript step, the Go line of a Go step.
	jsLine := func(def string) string {
		for i, l := range strings.Split(todoSteps, "\n") {
			if strings.Contains(l, def) {
				return fmt.Sprintf("todo.ts:%d", i+1)
			}
		}
		t.Fatalf("no %s in the steps", def)
		return ""
	}
	wantLocation := map[string]string{
		"the JavaScript page is at \"/todo.html\"": jsLine("Then('the JavaScript page is at {string}'"),
		"the list has 2 items":                     jsLine("Then('the list has {items}'"),
		"I add the todos:":                         jsLine("When('I add the todos:'"),
		"I note in JavaScript:":                    jsLine("When('I note in JavaScript:'"),
	}
	goLocation := regexp.MustCompile(`^steps\.go:\d+$`)
	for _, st := range shared {
		if want, js := wantLocation[st.Name]; js && st.Match.Location != want {
			t.Errorf("cucumber JSON: %q is defined at %q, want %q", st.Name, st.Match.Location, want)
		} else if !js && !goLocation.MatchString(st.Match.Location) {
			t.Errorf("cucumber JSON: Go step %q is defined at %q", st.Name, st.Match.Location)
		}
	}
	prettyOut, err := os.ReadFile(pretty)
	if err != nil {
		t.Fatal(err)
	}
	for _, loc := range wantLocation {
		if !bytes.Contains(prettyOut, []byte("# "+loc+" -> ")) {
			t.Errorf("pretty output does not show %s:\n%s", loc, prettyOut)
		}
	}

	failing := godogtest.ScenarioSteps(t, report, "A JavaScript step that fails")
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
	godogtest.ValidateCucumberJSON(t, raw)

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
