package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// TestUnhandledRejectionMatchesCucumberJS: a promise rejected with no
// handler in step code fails the running step under ferridriver as under
// cucumber-js 13, and one handled in time does not.
func TestUnhandledRejectionMatchesCucumberJS(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/rejection.feature": `Feature: unhandled rejections

  Scenario: a lost rejection
    Given a lost rejection
    And pass

  Scenario: a lost async call
    Given a lost async call

  Scenario: a lost rejection in a step still awaiting
    Given a lost rejection in a step still awaiting
    And pass

  Scenario: a rejection handled a tick too late
    Given a rejection handled in time
    And pass

  Scenario: an awaited rejection
    Given an awaited rejection

  Scenario: a rejection after the step ended
    Given a rejection after the step
    And a slow step

  Scenario: the next scenario is not affected
    Given pass
`,
		"features/step_definitions/steps.mjs": `import { Given } from '@cucumber/cucumber'
Given('a lost rejection', function () { Promise.reject(new Error('lost promise')) })
Given('a lost async call', function () { (async () => { throw new TypeError('lost async') })() })
Given('a rejection handled in time', async function () { const p = Promise.reject(new Error('x')); await new Promise((r) => setTimeout(r, 1)); await p.catch(() => {}) })
Given('an awaited rejection', async function () { await Promise.reject(new Error('awaited')) })
Given('a rejection after the step', function () { setTimeout(() => { Promise.reject(new Error('later')) }, 0) })
Given('a slow step', function () { return new Promise((r) => setTimeout(r, 50)) })
Given('a lost rejection in a step still awaiting', async function () { Promise.reject(new Error('mid-step')); await new Promise((r) => setTimeout(r, 5)) })
Given('pass', function () {})
`,
	})
	fd := ferridriver(t, dir, "bdd", "--format", "message:ferri.ndjson", "--format", "summary")
	cj := cucumberJS(t, dir, nil, "--import", "features/step_definitions/steps.mjs", "--format", "message:cucumber.ndjson", "features/rejection.feature")
	if fd.code != cj.code {
		t.Errorf("exit code: ferridriver %d, cucumber-js %d", fd.code, cj.code)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v\nferridriver: %s\ncucumber-js: %s%s", name, err, fd.stderr, cj.stdout, cj.stderr)
		}
		return b
	}
	got, want := scenarioOutcomes(t, read("ferri.ndjson")), scenarioOutcomes(t, read("cucumber.ndjson"))
	if len(want) != 7 {
		t.Fatalf("cucumber-js ran %d scenarios: %v\n%s%s", len(want), want, cj.stdout, cj.stderr)
	}
	for _, name := range sortedOutcomeKeys(want) {
		if got[name] != want[name] {
			t.Errorf("%s:\n  ferridriver %q\n  cucumber-js %q", name, got[name], want[name])
		} else {
			t.Logf("%s: %s", name, got[name])
		}
	}
}
