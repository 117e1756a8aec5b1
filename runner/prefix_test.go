package runner

import (
	"slices"
	"testing"
)

func TestCucumberPrefix(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"I have {int} cukes", "I have "},
		{"I have cuke(s)", "I have cuke"},
		{"plain text", "plain text"},
		{"{string} is shown", ""},
		{"I/we see it", ""},
		{"the page shows red/green", "the page shows "},
		{"the {int} a/b", "the "},
		{`a \{b}`, "a "},
		{"", ""},
	} {
		if got := cucumberPrefix(tc.expr); got != tc.want {
			t.Errorf("cucumberPrefix(%q) = %q, want %q", tc.expr, got, tc.want)
		}
	}
}

func TestRegexpPrefix(t *testing.T) {
	for _, tc := range []struct{ source, flags, want string }{
		{`^I have (\d+) cukes$`, "", "I have "},
		{`^I have cukes?$`, "", "I have cuke"},
		{`^ab*c`, "", "a"},
		{`^abc`, "", "abc"},
		{`^a{2}`, "", ""},
		{`I have (\d+)`, "", ""}, // not anchored: matches anywhere
		{`^I have`, "i", ""},
		{`^I have`, "m", ""},
		{`^foo|bar`, "", ""},
		{`^é+`, "", ""},
		{`^ab\.c`, "", "ab"},
	} {
		if got := regexpPrefix(tc.source, tc.flags); got != tc.want {
			t.Errorf("regexpPrefix(%q, %q) = %q, want %q", tc.source, tc.flags, got, tc.want)
		}
	}
}

func TestPrefixIndex(t *testing.T) {
	var ix prefixIndex
	for i, p := range []string{"I have ", "", "I ", "the basket has ", "I have cuke", "the note"} {
		ix.add(p, i)
	}
	for _, tc := range []struct {
		text string
		want []int
	}{
		{"I have 3 cukes", []int{0, 1, 2}},
		{"I have cukes", []int{0, 1, 2, 4}},
		{"the basket has 3 fruits", []int{1, 3}},
		{"the note mentions x", []int{1, 5}},
		{"nothing", []int{1}},
		{"", []int{1}},
	} {
		if got := ix.candidates(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("candidates(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
