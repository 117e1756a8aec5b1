package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// jsRegexpFeature exercises JavaScript-only regular expression syntax in
// step definitions and parameter types.
const jsRegexpFeature = `Feature: JavaScript regular expressions

  Scenario: lookahead
    Given the password "Secr3tX" is strong

  Scenario: lookahead that does not match
    Given the password "secret" is strong

  Scenario: negative lookahead
    Given a user named "bob" who is not "admin"

  Scenario: lookbehind
    Given it costs $42 in total

  Scenario: negative lookbehind
    Given the code X-17 is internal

  Scenario: backreference
    Given the word "abab" repeats

  Scenario: named groups and a named backreference
    Given Ada Lovelace signs in as Ada

  Scenario: ignore-case flag
    Given shout HELLO

  Scenario: dot-all flag
    Given a note
      """
      line one
      line two
      """

  Scenario: Unicode property classes
    Given the name Émile is capitalised
    And the word αβγ is Greek

  Scenario: non-participating groups
    Given a cart
    And a box
    And a colour
    And a size

  Scenario: participating optional groups
    Given a cart with 3 items
    And a box of 4
    And a colour "red"
    And a size 2.5

  Scenario: parameter type with a lookahead
    Given the secret abc1 works
    And the secret again xyz9

  Scenario: Cucumber Expression beside a lookahead parameter type
    Given I have 7 cukes
`

// jsRegexpSteps are cucumber-js style step definitions; every step
// attaches how its arguments reached it (type and value), which both
// runners report as attachments.
const jsRegexpSteps = `import { Given, defineParameterType } from '@cucumber/cucumber'

function show(args) {
  return args.map((a) => (a === null ? 'null' : a === undefined ? 'undefined' : typeof a + ':' + String(a))).join(',')
}
// cucumber-js checks a step function's arity against its arguments.
function r1(a) { this.attach(show([a])) }
function r2(a, b) { this.attach(show([a, b])) }

defineParameterType({ name: 'strongpw', regexp: /(?=\S*\d)\S+/, transformer: (s) => s.toUpperCase() })

Given(/^the password "(?=[^"]*\d)(?=[^"]*[A-Z])([^"]+)" is strong$/, r1)
Given(/^a user named "(?!admin")([^"]+)" who is not "(\w+)"$/, r2)
Given(/^it costs \$(?<=\$)(\d+) in total$/, r1)
Given(/^the code \w-(?<!\$)(\d+) is internal$/, r1)
Given(/^the word "(\w+)\1" repeats$/, r1)
Given(/^(?<first>\w+) (?<last>\w+) signs in as \k<first>$/, r2)
Given(/^SHOUT (\w+)$/i, r1)
Given(/^a note$/s, function (doc) { this.attach(show([doc.split('\n').length])) })
Given(/^the name (\p{Lu}\p{Ll}+) is capitalised$/u, r1)
Given(/^the word (\p{Script=Greek}+) is Greek$/u, r1)
Given(/^a cart( with (\d+) items)?$/, r1)
Given(/^a box(?: of (\d+))?$/, r1)
Given(/^a colour(?: "([^"]*)")?$/, r1)
Given(/^a size(?: (\d+\.\d+))?$/, r1)
Given('the secret {strongpw} works', r1)
Given(/^the secret again ((?=\S*\d)\S+)$/, r1)
Given('I have {int} cukes', r1)
`

// TestJSRegexpMatchesCucumberJS runs a suite of JavaScript-only regular
// expressions under ferridriver and under cucumber-js 13 and compares, per
// scenario, the step statuses and the arguments each step received.
func TestJSRegexpMatchesCucumberJS(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/regex.feature":              jsRegexpFeature,
		"features/step_definitions/regex.mjs": jsRegexpSteps,
	})
	fd := ferridriver(t, dir, "bdd", "--format", "message:ferri.ndjson", "--format", "summary")
	cj := cucumberJS(t, dir, nil, "--import", "features/step_definitions/regex.mjs", "--format", "message:cucumber.ndjson", "features/regex.feature")
	if fd.code != cj.code {
		t.Errorf("exit code: ferridriver %d, cucumber-js %d\nferridriver: %s%s\ncucumber-js: %s%s", fd.code, cj.code, fd.stdout, fd.stderr, cj.stdout, cj.stderr)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return b
	}
	got := scenarioOutcomes(t, read("ferri.ndjson"))
	want := scenarioOutcomes(t, read("cucumber.ndjson"))
	if len(want) != strings.Count(jsRegexpFeature, "Scenario:") {
		t.Fatalf("cucumber-js ran %d scenarios (exit %d): %v\n%s%s\nferridriver (exit %d): %s%s", len(want), cj.code, want, cj.stdout, cj.stderr, fd.code, fd.stdout, fd.stderr)
	}
	for _, name := range sortedOutcomeKeys(want) {
		if got[name] != want[name] {
			t.Errorf("%s:\n  ferridriver %q\n  cucumber-js %q", name, got[name], want[name])
		} else {
			t.Logf("%s: %s", name, got[name])
		}
	}
	if !reflect.DeepEqual(sortedOutcomeKeys(got), sortedOutcomeKeys(want)) {
		t.Errorf("scenarios: ferridriver %v, cucumber-js %v", sortedOutcomeKeys(got), sortedOutcomeKeys(want))
	}
}
