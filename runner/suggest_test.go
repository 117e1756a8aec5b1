package runner

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

// suggestLibrary is a small built-in library and one project step, as
// definitions.
func suggestLibrary() []*jsbridge.StepDef {
	lib := func(kw, p string, ex ...string) *jsbridge.StepDef {
		return &jsbridge.StepDef{Keyword: kw, Pattern: p, Examples: ex, Description: "Does " + p + ".", Source: jsbridge.SourceRef{URI: jsbridge.LibraryScheme + "steps/x.ts", Line: 1}}
	}
	return []*jsbridge.StepDef{
		lib("Given", "I open {string}", `Given I open "/login"`),
		lib("When", "I go back", "When I go back"),
		lib("Then", "I expect the URL {validation} {string}", `Then I expect the URL to contain "/welcome"`, `Then I expect the URL not to match "/login$"`),
		lib("When", "I click {string}", `When I click "Log in"`),
		lib("When", "I fill {string} with {string}", `When I fill "User" with "demo"`),
		lib("When", "I press {string}", `When I press "Enter"`),
		lib("Then", "I expect {string} to be visible", `Then I expect "Heading" to be visible`),
		lib("Then", "I expect the list has {int} item(s)", `Then I expect the list has 3 items`),
		lib("When", "I choose/select {string} in {string}", `When I select "Red" in "Colour"`),
		{Keyword: "Given", Pattern: "the database has {int} users", Source: jsbridge.SourceRef{URI: "steps/db.ts", Line: 3}},
	}
}

func TestClosestBuiltins(t *testing.T) {
	m, err := newMatcher(&jsbridge.Registry{Steps: suggestLibrary()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		want []string // patterns, best first; only the first len(want) are checked
		none bool
	}{
		{text: `I opne "/home"`, want: []string{"I open {string}"}},
		{text: `I expect the url to contain "/x"`, want: []string{"I expect the URL {validation} {string}"}},
		{text: `I clik "Save"`, want: []string{"I click {string}"}},
		{text: `I click the "Save" button`, want: []string{"I click {string}"}},
		{text: `I fill in "User" with "bob"`, want: []string{"I fill {string} with {string}"}},
		{text: `I navigate back`, want: []string{"I go back"}},
		{text: `I expect the list has 1 item`, want: []string{"I expect the list has {int} item(s)"}},
		{text: `I choose "Blue" from "Colour"`, want: []string{"I choose/select {string} in {string}"}},
		{text: `I expect "Logo" to be shown`, want: []string{"I expect {string} to be visible"}},
		// Synonyms: another verb for the same action.
		{text: `I go to "/login"`, want: []string{"I open {string}"}},
		{text: `I type "abc" into "User"`, want: []string{"I fill {string} with {string}"}},
		{text: `I press the "Log in" button`, want: []string{"I press {string}", "I click {string}"}},
		// Alike in form only: no word in common.
		{text: `I see "Welcome"`, want: []string{"I expect {string} to be visible"}},
		// A project step is never suggested, and unrelated steps are not either.
		{text: `the database has 3 users`, none: true},
		{text: `the invoice total is 12.50 EUR`, none: true},
	} {
		t.Run(tc.text, func(t *testing.T) {
			got := m.closestBuiltins(tc.text)
			var pats []string
			for _, s := range got {
				pats = append(pats, s.Def.Pattern)
				if s.Similarity < minSimilarity || s.Similarity > 1 || !s.Def.Source.IsLibrary() {
					t.Errorf("suggestion %+v", s)
				}
			}
			if tc.none {
				if len(got) != 0 {
					t.Fatalf("suggested %q", pats)
				}
				return
			}
			if len(got) > maxSuggestions || len(got) < len(tc.want) || !slices.Equal(pats[:len(tc.want)], tc.want) {
				t.Fatalf("suggested %q, want %q first", pats, tc.want)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Similarity > got[i-1].Similarity {
					t.Fatalf("not best first: %+v", got)
				}
			}
		})
	}
}

// The closest example is the one shown.
func TestSuggestionShowsTheClosestExample(t *testing.T) {
	m, err := newMatcher(&jsbridge.Registry{Steps: suggestLibrary()})
	if err != nil {
		t.Fatal(err)
	}
	got := m.closestBuiltins(`I expect the url not to match "x"`)
	if len(got) == 0 || got[0].Example != `Then I expect the URL not to match "/login$"` {
		t.Fatalf("got %+v", got)
	}
	sn := m.builtinSnippets(`I expect the url not to match "x"`)
	want := "# Built-in step: I expect the URL {validation} {string} — Does I expect the URL {validation} {string}.\nThen I expect the URL not to match \"/login$\""
	if len(sn) == 0 || sn[0].Language != "gherkin" || sn[0].Code != want {
		t.Fatalf("snippet %+v, want code\n%s", sn, want)
	}
}

func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		expr bool
		want string
	}{
		{in: `I click "Log in" 3 times`, want: `i click $string $number times`},
		{in: `I wait -1.5 seconds for 'x'`, want: `i wait $number seconds for $string`},
		{in: `I click {string} {int} time(s)`, expr: true, want: `i click $string $number time`},
		{in: `I choose/select {word} in the list`, expr: true, want: `i choose/select $any in the list`},
		{in: `the price is \{not\} {float}`, expr: true, want: `the price is not $number`},
		{in: `I expect the URL {validation} {string}`, expr: true, want: `i expect the url $any $string`},
		{in: `(the )page loads`, expr: true, want: `page loads`},
	} {
		toks := textTokens(tc.in)
		if tc.expr {
			toks = expressionTokens(tc.in)
		}
		got := strings.NewReplacer("\x00string", "$string", "\x00number", "$number", "\x00any", "$any").Replace(strings.Join(toks, " "))
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestStepText(t *testing.T) {
	for in, want := range map[string]string{
		`Given I open "/login"`:                             `I open "/login"`,
		"  When I post to \"/api\"\n  \"\"\"\n{}\n  \"\"\"": `I post to "/api"`,
		`* I go back`:         `I go back`,
		`And I go back`:       `I go back`,
		`I go back`:           `I go back`,
		`Givenchy is a brand`: `Givenchy is a brand`,
	} {
		if got := StepText(in); got != want {
			t.Errorf("StepText(%q) = %q, want %q", in, got, want)
		}
	}
}

// An undefined step's suggestion carries the code snippets, then the
// closest built-in steps as Gherkin; without the library, only the code.
func TestUndefinedStepSuggestsBuiltinSteps(t *testing.T) {
	lib := &jsbridge.Library{Name: "steps", Entries: []string{"index.ts"}, FS: fstest.MapFS{
		"index.ts": {Data: []byte(`import { When } from '@cucumber/cucumber'
When('I click {string}', { description: 'Clicks an element.', example: 'When I click "Log in"' }, function (s: string) {})
`)},
	}}
	files := map[string]string{"features/a.feature": "Feature: F\n  Scenario: S\n    When I clik \"Save\"\n"}
	for _, tc := range []struct {
		name string
		lib  *jsbridge.Library
		want []string
	}{
		{"with the library", lib, []string{"typescript", "gherkin"}},
		{"without", nil, []string{"typescript"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSuite(t, files).run(Options{Library: tc.lib})
			sg := s.of("suggestion")
			if len(sg) != 1 {
				t.Fatalf("%d suggestions", len(sg))
			}
			var langs []string
			for _, sn := range sg[0].Suggestion.Snippets {
				langs = append(langs, sn.Language)
			}
			if !slices.Equal(langs, tc.want) {
				t.Fatalf("snippet languages %q, want %q", langs, tc.want)
			}
			if tc.lib != nil {
				if got, want := sg[0].Suggestion.Snippets[1].Code, "# Built-in step: I click {string} — Clicks an element.\nWhen I click \"Log in\""; got != want {
					t.Fatalf("code %q, want %q", got, want)
				}
			}
			if st := s.results(); len(st) != 1 || st[0].Status != messages.TestStepResultStatusUndefined {
				t.Fatalf("results %+v", st)
			}
		})
	}
}
