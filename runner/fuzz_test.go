package runner

import (
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

// No input makes the feature front-end panic: parse, pickles, locations.
func FuzzParseFeature(f *testing.F) {
	for _, seed := range []string{
		"Feature: x\n  Scenario: a\n    Given b\n",
		"# language: fr\nFonctionnalité: x\n  Règle: r\n    Scénario: a\n      Soit b\n",
		"Feature: x\n  Background:\n    Given a\n  Rule: r\n    Background:\n      Given b\n    Scenario Outline: <x>\n      Given <x>\n        | <x> |\n      Examples: e\n        | x |\n        | 1 |\n",
		"Feature: x\n  Scenario: a\n    Given b\n      \"\"\"json\n      {}\n      \"\"\"\n",
		"@a @b\nFeature:\n  Scenario:\n    * x\n    | a | b |\n    | c |\n",
		"# Feature: x\n`@a`\n## Scenario: s\n* Given a\n  ```js\n  x\n  ```\n  | a |\n  | - |\n  | 1 |\n",
		"",
		"\x00\xff",
	} {
		f.Add([]byte(seed))
	}
	// Lines longer than bufio.Scanner's 64 KiB limit, where the Gherkin
	// library's own scanner gave up and its parser panicked: a step and a
	// doc string line, one that is not Gherkin, a Markdown step and table
	// cell (a few only: long inputs make every execution slower).
	long := strings.Repeat("y", 66_000)
	for _, seed := range []string{
		"Feature: x\n  Scenario: a\n    Given " + long + "\n      \"\"\"\n      " + long + "\n      \"\"\"\n",
		"Feature: x\n  Scenario: a\n    Given b\n    | a |\n" + long,
		"# Feature: x\n## Scenario: a\n* Given " + long + "\n  | " + long + " |\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Every input as Gherkin and as Markdown with Gherkin.
		for _, path := range []string{"fuzz.feature", "fuzz.feature.md"} {
			feat, err := parseFeatureData(data, path, path, "")
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error message")
				}
				continue
			}
			for _, p := range feat.pickles {
				feat.pickleLines(p)
			}
		}
	})
}

// No tag expression makes the filter panic; a parsed one evaluates.
func FuzzTagExpression(f *testing.F) {
	for _, seed := range []string{"@a", "@a and not (@b or @c)", "@a and", "not", "(", ")", "@a or or @b", "\\(@a\\)", "@a\\ b"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		e, err := parseTagExpression(expr)
		if err != nil {
			return
		}
		e.Evaluate([]string{"@a", "@b"})
		e.Evaluate(nil)
	})
}

// No Cucumber Expression or step text makes matching or snippet
// generation panic.
func FuzzCucumberExpression(f *testing.F) {
	for _, seed := range [][2]string{
		{"I have {int} cukes", "I have 42 cukes"},
		{"a {string} b", `a "x\"y" b`},
		{"(optional) alt/ern/ative {word}", "alt x"},
		{"{airport} closed", "LHR closed"},
		{"escape \\{ \\( \\/", "escape { ( /"},
		{"{", "("},
		{"a ({int})", "a"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, expr, text string) {
		reg := &jsbridge.Registry{Steps: []*jsbridge.StepDef{{Pattern: expr}}}
		m, err := newMatcher(reg)
		if err != nil {
			return
		}
		if matches, err := m.match(text); err == nil {
			for _, mt := range matches {
				matchArgumentsList(text, mt.args)
				stepArgs(mt.args)
			}
		}
		m.snippets(pickleStep(text), SnippetSynchronous)
	})
}

func pickleStep(text string) *messages.PickleStep { return &messages.PickleStep{Text: text} }
