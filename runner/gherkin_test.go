package runner

import (
	"errors"
	"strings"
	"testing"

	gherkin "github.com/cucumber/gherkin/go/v32"
)

// longLine is longer than bufio.Scanner's 64 KiB token limit, past which
// the Gherkin library's own scanner made its parser panic.
var longLine = strings.Repeat("x", 70_000)

// A line of any length parses (a step, a description, a doc string line,
// a table cell, a tag, a comment; CRLF line ends), or, when it is not
// Gherkin, gives a parse error with its line and column: never a panic.
func TestParseLongLines(t *testing.T) {
	for _, tc := range []struct {
		name, path, src string
		// check looks at the parsed feature; nil when a parse error is wanted
		check func(t *testing.T, f *feature)
		line  int // the parse error's line
	}{
		{name: "step", path: "a.feature", src: "Feature: f\n  Scenario: s\n    Given " + longLine + "\n",
			check: func(t *testing.T, f *feature) { wantStepText(t, f, longLine) }},
		{name: "step at the end without a newline", path: "a.feature", src: "Feature: f\n  Scenario: s\n    Given " + longLine,
			check: func(t *testing.T, f *feature) { wantStepText(t, f, longLine) }},
		{name: "step with CRLF", path: "a.feature", src: "Feature: f\r\n  Scenario: s\r\n    Given " + longLine + "\r\n    Then b\r\n",
			check: func(t *testing.T, f *feature) { wantStepText(t, f, longLine) }},
		{name: "description", path: "a.feature", src: "Feature: f\n  " + longLine + "\n  Scenario: s\n    Given a\n",
			check: func(t *testing.T, f *feature) {
				if got := strings.TrimSpace(f.doc.Feature.Description); got != longLine {
					t.Errorf("description of %d characters, want %d", len(got), len(longLine))
				}
			}},
		{name: "doc string", path: "a.feature", src: "Feature: f\n  Scenario: s\n    Given a\n      \"\"\"\n      " + longLine + "\n      \"\"\"\n",
			check: func(t *testing.T, f *feature) {
				if got := f.pickles[0].Steps[0].Argument.DocString.Content; got != longLine {
					t.Errorf("doc string of %d characters, want %d", len(got), len(longLine))
				}
			}},
		{name: "table cell", path: "a.feature", src: "Feature: f\n  Scenario: s\n    Given a\n      | " + longLine + " | b |\n",
			check: func(t *testing.T, f *feature) {
				if got := f.pickles[0].Steps[0].Argument.DataTable.Rows[0].Cells[0].Value; got != longLine {
					t.Errorf("cell of %d characters, want %d", len(got), len(longLine))
				}
			}},
		{name: "tag", path: "a.feature", src: "@" + longLine + "\nFeature: f\n  Scenario: s\n    Given a\n",
			check: func(t *testing.T, f *feature) {
				if got := f.pickles[0].Tags[0].Name; got != "@"+longLine {
					t.Errorf("tag of %d characters, want %d", len(got), len(longLine)+1)
				}
			}},
		{name: "comment", path: "a.feature", src: "# " + longLine + "\nFeature: f\n  Scenario: s\n    Given a\n",
			check: func(t *testing.T, f *feature) { wantStepText(t, f, "a") }},
		{name: "markdown step", path: "a.feature.md", src: "# Feature: f\n## Scenario: s\n* Given " + longLine + "\n",
			check: func(t *testing.T, f *feature) { wantStepText(t, f, longLine) }},
		{name: "markdown table cell", path: "a.feature.md", src: "# Feature: f\n## Scenario: s\n* Given a\n  | " + longLine + " |\n",
			check: func(t *testing.T, f *feature) {
				if got := f.pickles[0].Steps[0].Argument.DataTable.Rows[0].Cells[0].Value; got != longLine {
					t.Errorf("cell of %d characters, want %d", len(got), len(longLine))
				}
			}},
		{name: "a long line that is not Gherkin", path: "a.feature", src: "Feature: f\n  Scenario: s\n    Given a\n    | a |\n" + longLine + "\n", line: 5},
		{name: "a long line before the feature", path: "a.feature", src: "\n" + longLine + "\nFeature: f\n", line: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := parseFeatureData([]byte(tc.src), tc.path, tc.path, "")
			if tc.check == nil {
				var pe *ParseError
				if !errors.As(err, &pe) {
					t.Fatalf("want a parse error, got %v", err)
				}
				if pe.URI != tc.path || pe.Line != tc.line || pe.Column < 1 {
					t.Errorf("parse error at %s:%d:%d, want %s:%d", pe.URI, pe.Line, pe.Column, tc.path, tc.line)
				}
				return
			}
			if err != nil {
				t.Fatalf("parse: %.300v", err)
			}
			tc.check(t, f)
		})
	}
}

func wantStepText(t *testing.T, f *feature, want string) {
	t.Helper()
	if len(f.pickles) != 1 || len(f.pickles[0].Steps) == 0 {
		t.Fatalf("want one pickle with steps, got %d pickles", len(f.pickles))
	}
	if got := f.pickles[0].Steps[0].Text; got != want {
		t.Errorf("step text of %d characters, want %d", len(got), len(want))
	}
}

// The scanner splits lines exactly as the Gherkin library's bufio-based
// one does, so that line numbers and texts are the ones every other
// Cucumber implementation reports.
func TestLineScannerSplitsAsTheLibrary(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "a\r\nb", "\n\n", "a\n\nb\n", "\r\n", "a\rb\n", "  \t x \n", "a\r\r\n"} {
		ours, theirs := &lineScanner{data: []byte(src)}, gherkin.NewScanner(strings.NewReader(src))
		for n := 1; ; n++ {
			got, gotEOF, err := ours.Scan()
			want, wantEOF, werr := theirs.Scan()
			if err != nil || werr != nil {
				t.Fatalf("%q: errors %v, %v", src, err, werr)
			}
			if *got != *want || gotEOF != wantEOF {
				t.Fatalf("%q: line %d: %+v (eof %v), want %+v (eof %v)", src, n, *got, gotEOF, *want, wantEOF)
			}
			if gotEOF {
				break
			}
		}
	}
}
