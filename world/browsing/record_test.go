package browsing

import (
	"strings"
	"testing"
)

func TestGherkinString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`Log in`, `"Log in"`},
		{`role=button[name="Log in"]`, `'role=button[name="Log in"]'`},
		{`it's`, `"it's"`},
		{`say "it's"`, `"say \"it's\""`},
		{`a\b "c" 'd'`, `"a\\b \"c\" 'd'"`},
	} {
		if got := GherkinString(tc.in); got != tc.want {
			t.Errorf("GherkinString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestRoleTarget(t *testing.T) {
	for _, tc := range []struct {
		role, name     string
		has            bool
		index, count   int
		wantSel, wantJ string
	}{
		{"button", "Log in", true, 0, 1, `role=button[name="Log in"]`, `page.getByRole('button', { name: 'Log in' })`},
		{"status", "", false, 0, 1, `role=status`, `page.getByRole('status')`},
		{"listitem", "", false, 1, 2, `role=listitem >> nth=1`, `page.getByRole('listitem').nth(1)`},
		{"link", `O'Brien <"x">`, true, 0, 1, `role=link[name="O'Brien <\"x\">"]`, `page.getByRole('link', { name: 'O\'Brien <"x">' })`},
	} {
		got := roleTarget(tc.role, tc.name, tc.has, tc.index, tc.count)
		if got.sel != tc.wantSel || got.code != tc.wantJ {
			t.Errorf("roleTarget(%s, %q) = %s | %s, want %s | %s", tc.role, tc.name, got.sel, got.code, tc.wantSel, tc.wantJ)
		}
	}
}

func TestRelativeURL(t *testing.T) {
	for _, tc := range []struct{ u, base, want string }{
		{"http://127.0.0.1:4173/login", "http://127.0.0.1:4173", "/login"},
		{"http://127.0.0.1:4173/login", "http://127.0.0.1:4173/", "/login"},
		{"http://127.0.0.1:4173", "http://127.0.0.1:4173", "/"},
		{"/login", "http://127.0.0.1:4173", "/login"},
		{"https://example.com/x", "http://127.0.0.1:4173", "https://example.com/x"},
		{"http://127.0.0.1:41730/x", "http://127.0.0.1:4173", "http://127.0.0.1:41730/x"},
		{"http://h/x", "", "http://h/x"},
	} {
		if got := relativeURL(tc.u, tc.base); got != tc.want {
			t.Errorf("relativeURL(%q, %q) = %q, want %q", tc.u, tc.base, got, tc.want)
		}
	}
}

func TestFeature(t *testing.T) {
	steps := []Step{
		{Kind: KindContext, Text: `I open "/login"`},
		{Kind: KindAction, Text: `I fill "#u" with "demo"`},
		{Kind: KindAction, Upload: "/p/features/data/a.txt", uploadTarget: "#file"},
		{Kind: KindCheck, Text: `I expect the page to contain the text "Hi"`},
		{Kind: KindCheck, Text: `I expect "#x" to be visible`},
		{Kind: KindAction, Text: `I click "#b"`},
	}
	got := Feature("", "Logging in", steps, "/p/features")
	want := `Feature: Recorded session

  Scenario: Logging in
    Given I open "/login"
    When I fill "#u" with "demo"
    And I upload "data/a.txt" to "#file"
    Then I expect the page to contain the text "Hi"
    And I expect "#x" to be visible
    When I click "#b"
`
	if got != want {
		t.Errorf("Feature:\n%s\nwant:\n%s", got, want)
	}
	if !strings.HasPrefix(Feature("A\nB", "", nil, ""), "Feature: A B\n") {
		t.Errorf("names are kept on one line")
	}
}

// The line of the element a call typed into is left out of the changes
// when it shows exactly the typed text; anything else stays.
func TestWithoutEcho(t *testing.T) {
	for _, tc := range []struct {
		name, diff, ref, text string
		rest                  string
		ok                    bool
	}{
		{"only the echo", "- textbox \"User\" [ref=e6]: demo\n", "e6", "demo", "", true},
		{"quoted value", "- textbox \"User\" [ref=e6]: \"a: b\"\n", "e6", "a: b", "", true},
		{"echo and more", "- textbox \"User\" [ref=e6]: demo\n- alert [ref=e9]: Too short\n", "e6", "demo", "- alert [ref=e9]: Too short\n", true},
		{"transformed by the page", "- textbox \"Code\" [ref=e6]: ABC\n", "e6", "abc", "", false},
		{"another element", "- textbox \"Other\" [ref=e7]: demo\n", "e6", "demo", "", false},
		{"with changed children", "- combobox \"City\" [ref=e6]: Paris\n  - option \"Paris\" [ref=e8]\n", "e6", "Paris", "", false},
		{"a longer ref", "- textbox \"User\" [ref=e61]: demo\n", "e6", "demo", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rest, ok := withoutEcho(tc.diff, tc.ref, tc.text)
			if ok != tc.ok || rest != tc.rest {
				t.Errorf("withoutEcho = %q, %v; want %q, %v", rest, ok, tc.rest, tc.ok)
			}
		})
	}
}
