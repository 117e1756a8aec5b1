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
		lib("When", "I check {string}", `When I check "#terms"`),
		lib("Then", "I expect the page {to} contain the text {string}", `Then I expect the page to contain the text "Welcome, demo!"`, `Then I expect the page not to contain the text "Error"`),
		lib("Then", "I expect the title {validation} {string}", `Then I expect the title to equal "Login"`),
		{Keyword: "Given", Pattern: "the database has {int} users", Source: jsbridge.SourceRef{URI: "steps/db.ts", Line: 3}},
	}
}

func TestClosestBuiltins(t *testing.T) {
	m, err := newMatcher(&jsbridge.Registry{Steps: suggestLibrary()})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text    string
		outcome bool     // a Then step
		want    []string // patterns, best first; only the first len(want) are checked
		none    bool
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
		// By meaning: pressing a button is clicking it ("I press" presses keys).
		{text: `I press the "Log in" button`, want: []string{"I click {string}", "I press {string}"}},
		// By meaning: a step that checks is a check, not an action of
		// the same length ("I check {string}"), in the library's words.
		{text: `I see "Welcome"`, want: []string{"I expect the page {to} contain the text {string}"}},
		{text: `I should see "Buy milk"`, outcome: true, want: []string{"I expect the page {to} contain the text {string}"}},
		{text: `I should see "Buy milk"`, want: []string{"I expect the page {to} contain the text {string}"}},
		{text: `I should not see "Error"`, outcome: true, want: []string{"I expect the page {to} contain the text {string}"}},
		{text: `"Saved" is shown`, outcome: true, want: []string{"I expect {string} to be visible", "I expect the page {to} contain the text {string}"}},
		{text: `the title should be "Login"`, outcome: true, want: []string{"I expect the title {validation} {string}"}},
		{text: `I should be on "/welcome"`, outcome: true, want: []string{"I expect the URL {validation} {string}"}},
		{text: `I tap the "Add" button`, want: []string{"I click {string}"}},
		// A project step is never suggested, and unrelated steps are not either.
		{text: `the database has 3 users`, none: true},
		{text: `the invoice total is 12.50 EUR`, none: true},
	} {
		t.Run(tc.text, func(t *testing.T) {
			got := m.closestBuiltins(tc.text, tc.outcome)
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
			for _, s := range got {
				if s.Def.Pattern == "I check {string}" && strings.Contains(tc.text, "see") {
					t.Errorf("a check was suggested an action: %q", pats)
				}
			}
		})
	}
}

// The closest example is the one shown, with the step's own arguments.
func TestSuggestionShowsTheClosestExample(t *testing.T) {
	m, err := newMatcher(&jsbridge.Registry{Steps: suggestLibrary()})
	if err != nil {
		t.Fatal(err)
	}
	got := m.closestBuiltins(`I expect the url not to match "x"`, false)
	if len(got) == 0 || got[0].Example != `Then I expect the URL not to match "x"` {
		t.Fatalf("got %+v", got)
	}
	sn := m.builtinSnippets(`I expect the url not to match "x"`, false)
	want := "# Built-in step: I expect the URL {validation} {string} — Does I expect the URL {validation} {string}.\nThen I expect the URL not to match \"x\""
	if len(sn) == 0 || sn[0].Language != "gherkin" || sn[0].Code != want {
		t.Fatalf("snippet %+v, want code\n%s", sn, want)
	}
	for _, tc := range []struct{ text, want string }{
		{`I should see "Buy milk"`, `Then I expect the page to contain the text "Buy milk"`},
		{`I should not see 'Oops'`, `Then I expect the page not to contain the text 'Oops'`},
		{`I fill in "User" with "bob"`, `When I fill "User" with "bob"`},
		{`I expect the list has 7 items`, `Then I expect the list has 7 items`},
	} {
		if got := m.closestBuiltins(tc.text, true); len(got) == 0 || got[0].Example != tc.want {
			t.Errorf("%s: got %+v, want the example %s", tc.text, got, tc.want)
		}
	}
}

func TestWithArguments(t *testing.T) {
	for _, tc := range []struct{ example, text, want string }{
		{`When I fill "User" with "demo"`, `I type "bob" in "Name"`, `When I fill "bob" with "Name"`},
		{`When I fill "User" with "demo"`, `I type "bob"`, `When I fill "bob" with "demo"`},
		{`When I click 'role=button[name="Add"]'`, `I clik "Save"`, `When I click "Save"`},
		{`When I wait 500 milliseconds`, `I pause 2 seconds`, `When I wait 2 milliseconds`},
		{"When I send a POST request to \"/api\" with the JSON:\n  \"\"\"\n  {}\n  \"\"\"", `I post to "/users"`, "When I send a POST request to \"/users\" with the JSON:\n  \"\"\"\n  {}\n  \"\"\""},
		{`When I go back`, `I navigate back "now"`, `When I go back`},
	} {
		if got := withArguments(tc.example, tc.text); got != tc.want {
			t.Errorf("withArguments(%q, %q) = %q, want %q", tc.example, tc.text, got, tc.want)
		}
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

// An undefined step's suggestion carries the code snippets, then, in a run
// that uses the built-in library, the closest built-in steps as Gherkin. A
// run that does not use it has cucumber-js's suggestion (the code) and
// hears of the close built-in steps on stderr; without the library, only
// the code.
func TestUndefinedStepSuggestsBuiltinSteps(t *testing.T) {
	lib := &jsbridge.Library{Name: "steps", Entries: []string{"index.ts"}, FS: fstest.MapFS{
		"index.ts": {Data: []byte(`import { When } from '@cucumber/cucumber'
When('I click {string}', { description: 'Clicks an element.', example: 'When I click "Log in"' }, function (s: string) {})
`)},
	}}
	undefinedOnly := map[string]string{"features/a.feature": "Feature: F\n  Scenario: S\n    When I clik \"Save\"\n"}
	usesLibrary := map[string]string{"features/a.feature": "Feature: F\n  Scenario: S\n    When I clik \"Save\"\n  Scenario: T\n    When I click \"Save\"\n"}
	for _, tc := range []struct {
		name  string
		lib   *jsbridge.Library
		files map[string]string
		want  []string
		hint  bool
	}{
		{"a run that uses the library", lib, usesLibrary, []string{"typescript", "gherkin"}, false},
		{"a run that does not use it", lib, undefinedOnly, []string{"typescript"}, true},
		{"without", nil, undefinedOnly, []string{"typescript"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSuite(t, tc.files).run(Options{Library: tc.lib})
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
			hint := "the undefined step \"I clik \\\"Save\\\"\" is close to built-in steps:\n  When I click \"Save\""
			if got := strings.Contains(s.stderr.String(), hint); got != tc.hint {
				t.Errorf("stderr hint %v, want %v:\n%s", got, tc.hint, s.stderr.String())
			}
			if len(tc.want) > 1 {
				if got, want := sg[0].Suggestion.Snippets[1].Code, "# Built-in step: I click {string} — Clicks an element.\nWhen I click \"Save\""; got != want {
					t.Fatalf("code %q, want %q", got, want)
				}
			}
			if st := s.results(); st[0].Status != messages.TestStepResultStatusUndefined {
				t.Fatalf("results %+v", st)
			}
		})
	}
}
