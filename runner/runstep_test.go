package runner

import (
	"strings"
	"testing"
)

// runStep(text) runs the definition matching text with the real matcher:
// parameter types (async transformers too), the World, doc strings and
// tables, the callback interface, pending, and clear errors for undefined
// and ambiguous text.
func TestRunStepRunsADefinitionByItsText(t *testing.T) {
	steps := `
import { Given, defineParameterType, DataTable } from '@cucumber/cucumber'
import { runStep } from 'ferridriver'
defineParameterType({ name: 'colour', regexp: /red|blue/, transformer: async (c: string) => c.toUpperCase() })
Given('I add {int} {colour} items', function (this: any, n: number, c: string) { (this.log_ ||= []).push(n + ' ' + c) })
Given('I note:', function (this: any, doc: string) { (this.log_ ||= []).push('doc ' + doc) })
Given('I note the table:', function (this: any, t: DataTable) { (this.log_ ||= []).push('rows ' + t.raw().length) })
Given('I call back', function (this: any, done: (e?: any) => void) { (this.log_ ||= []).push('callback'); setTimeout(() => done(), 1) })
Given('I am pending', () => 'pending')
Given(/^twin (a|b)$/, () => {})
Given(/^twin (.*)$/, () => {})
Given('I run {string}', async function (text: string) { await runStep(text) })
Given('I run with a doc string', async () => runStep('I note:', 'hello'))
Given('I run with a table', async () => runStep('I note the table:', [['a'], ['b']]))
Given('the log is {string}', function (this: any, want: string) {
  const got = (this.log_ || []).join(', ')
  if (got !== want) throw new Error('log is ' + JSON.stringify(got))
})
`
	feature := `Feature: f
  Scenario: runs
    Given I run "I add 3 red items"
    And I run "I call back"
    And I run with a doc string
    And I run with a table
    Then the log is "3 RED, callback, doc hello, rows 2"
  Scenario: undefined
    Given I run "I do not exist"
  Scenario: ambiguous
    Given I run "twin a"
  Scenario: pending
    Given I run "I am pending"
`
	s := newSuite(t, map[string]string{"features/f.feature": feature, "steps/s.ts": steps})
	s.run(Options{Strict: true})
	got := s.statuses()
	want := []string{"PASSED PASSED PASSED PASSED PASSED", "FAILED", "FAILED", "PENDING"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("statuses %q, want %q\n%s", got, want, s.stderr.String())
	}
	var msgs []string
	for _, r := range s.results() {
		if r.Message != nil {
			msgs = append(msgs, *r.Message)
		}
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		`runStep: no step definition matches "I do not exist"`,
		`runStep: "twin a" is ambiguous. Multiple step definitions match:`,
		`the step "I am pending" is pending`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("messages lack %q:\n%s", want, all)
		}
	}
}
