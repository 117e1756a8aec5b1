package runner

import "testing"

// Step code learns which Gherkin step it runs (currentStep() of module
// "ferridriver"): the feature file, the step's own line (not the
// scenario's) and its keyword, in backgrounds, outlines and rules too, and
// nothing between steps.
func TestCurrentStepNamesTheRunningStep(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/sub/f.feature": `Feature: f
  Background:
    Given where

  Scenario Outline: o
    When where
    Then where <x>

    Examples:
      | x |
      | 1 |

  Rule: r
    Background:
      And where

    Scenario: s
      * where
`,
		"steps/s.ts": `import { Given, Before } from '@cucumber/cucumber'
import { currentStep } from 'ferridriver'
const show = () => { const c = currentStep(); return c ? c.uri + ':' + c.line + ' ' + JSON.stringify(c.keyword) + ' ' + c.text : 'none' }
Before(function () { console.log('hook ' + show()) })
Given(/^where/, function () { console.log(show()) })
`,
	})
	s.run(Options{})
	if !s.res.Success {
		t.Fatalf("run failed: %v\n%s", s.statuses(), s.stderr.String())
	}
	want := `hook none
features/sub/f.feature:3 "Given " where
features/sub/f.feature:6 "When " where
features/sub/f.feature:7 "Then " where 1
hook none
features/sub/f.feature:3 "Given " where
features/sub/f.feature:15 "And " where
features/sub/f.feature:18 "* " where
`
	if got := s.stdout.String(); got != want {
		t.Fatalf("currentStep() gave\n%s\nwant\n%s", got, want)
	}
}
