package formatters

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

func TestJUnitTestName(t *testing.T) {
	rule := &messages.Rule{Name: "A rule"}
	outline := &messages.Scenario{Name: "Eating <n> cucumbers"}
	plain := &messages.Scenario{Name: "Plain"}
	unnamed := &messages.Scenario{}
	named := &messages.Examples{Name: "Some examples"}
	anon := &messages.Examples{}
	row := &messages.TableRow{}
	for _, tc := range []struct {
		name   string
		l      query.Lineage
		pickle string
		want   string
	}{
		{"scenario", query.Lineage{Scenario: plain}, "Plain", "Plain"},
		{"rule and scenario", query.Lineage{Rule: rule, Scenario: plain}, "Plain", "A rule - Plain"},
		{"unnamed scenario uses the pickle", query.Lineage{Scenario: unnamed}, "", ""},
		{"outline, parameterised name", query.Lineage{Scenario: outline, Examples: anon, ExamplesIndex: 0, Example: row, ExampleIndex: 1},
			"Eating 5 cucumbers", "Eating <n> cucumbers - #1.2: Eating 5 cucumbers"},
		{"outline, named examples, same name", query.Lineage{Scenario: plain, Examples: named, ExamplesIndex: 1, Example: row, ExampleIndex: 0},
			"Plain", "Plain - Some examples - #2.1"},
		{"rule, outline, named examples", query.Lineage{Rule: rule, Scenario: outline, Examples: named, Example: row},
			"Eating 1 cucumbers", "A rule - Eating <n> cucumbers - Some examples - #1.1: Eating 1 cucumbers"},
	} {
		if got := JUnitTestName(&tc.l, &messages.Pickle{Name: tc.pickle}); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestXMLEscaping(t *testing.T) {
	for _, tc := range []struct{ in, attr string }{
		{`a<b>&"c"`, `a&lt;b>&amp;&quot;c&quot;`},
		{"tab\there\nline\rcr", "tab&#x9;here&#xA;line&#xD;cr"},
		{"bell\x07 nul\x00 ok", "bell nul ok"},
		{"emoji 🥒 \uffff", "emoji 🥒 "},
	} {
		if got := xmlEscapeAttr(tc.in); got != tc.attr {
			t.Errorf("attr %q: got %q, want %q", tc.in, got, tc.attr)
		}
	}
	root := &xmlElement{name: "r"}
	root.ele("a").cdata("x ]]> y ]]> z\x01")
	root.ele("b")
	got := xmlDocument(root)
	want := "<?xml version=\"1.0\"?>\n<r>\n  <a><![CDATA[x ]]]]><![CDATA[> y ]]]]><![CDATA[> z]]></a>\n  <b/>\n</r>"
	if got != want {
		t.Errorf("document:\n%s\nwant:\n%s", got, want)
	}
}

// The expectations below were produced by V8 (node -e) and luxon 3.
func TestJSCompat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {0.057, "0.057"}, {7.5, "7.5"}, {1e21, "1e+21"}, {123456789012345680000, "123456789012345680000"},
		{1e-7, "1e-7"}, {0.000001, "0.000001"}, {-2.5e-8, "-2.5e-8"}, {sum(0.1, 0.2), "0.30000000000000004"}, {1.5e300, "1.5e+300"},
	} {
		if got := jsNumber(tc.f); got != tc.want {
			t.Errorf("jsNumber(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0.125, "0.13"}, {1, "1.00"}, {1.005, "1.00"}, {2.675, "2.67"}, {0.001, "0.00"}, {12345.6789, "12345.68"}, {-0.125, "-0.13"},
	} {
		if got := jsToFixed(tc.f, 2); got != tc.want {
			t.Errorf("jsToFixed(%v, 2) = %q, want %q", tc.f, got, tc.want)
		}
	}
	for _, tc := range []struct {
		ms   float64
		want string
	}{
		{0, "0m 0.000s"}, {37, "0m 0.037s"}, {999.5, "0m 0.999s"}, {1234.5678, "0m 1.234s"}, {59999.9996, "0m 59.999s"},
		{60000, "1m 0.000s"}, {61001, "1m 1.001s"}, {7200005, "120m 0.005s"}, {0.9996, "0m 0.000s"},
	} {
		if got := luxonDuration(tc.ms); got != tc.want {
			t.Errorf("luxonDuration(%v) = %q, want %q", tc.ms, got, tc.want)
		}
	}
	for _, tc := range []struct {
		ts   messages.Timestamp
		want string
	}{
		{messages.Timestamp{}, "1970-01-01T00:00:00Z"},
		{messages.Timestamp{Seconds: 1700000000, Nanos: 123900000}, "2023-11-14T22:13:20.123Z"},
		{messages.Timestamp{Seconds: 1700000000, Nanos: 500000}, "2023-11-14T22:13:20Z"},
	} {
		if got := isoTimestamp(tc.ts); got != tc.want {
			t.Errorf("isoTimestamp(%v) = %q, want %q", tc.ts, got, tc.want)
		}
	}
	if got := jsLen("a🥒b"); got != 4 {
		t.Errorf("jsLen = %d, want 4 (UTF-16 units)", got)
	}
	if got := jsSlice("a🥒bc", 3, -1); got != "bc" {
		t.Errorf("jsSlice = %q", got)
	}
	if got, _ := jsonStringify(map[string]string{"a": "<\u2028>"}, ""); string(got) != "{\"a\":\"<\u2028>\"}" {
		t.Errorf("jsonStringify = %q", got)
	}
}

func TestDurationsThroughMilliseconds(t *testing.T) {
	// @cucumber/query computes durations through floating-point
	// milliseconds; a nanosecond difference below a millisecond survives
	// only as far as float64 keeps it.
	a := messages.Timestamp{Seconds: 1700000000, Nanos: 1000000}
	b := messages.Timestamp{Seconds: 1700000001, Nanos: 2500000}
	d := query.Between(a, b)
	if d.Seconds != 1 || d.Nanos < 1499999 || d.Nanos > 1500000 {
		t.Errorf("Between = %+v", d)
	}
	if got := jsNumber(durationSeconds(messages.Duration{Seconds: 0, Nanos: 7000000})); got != "0.007" {
		t.Errorf("durationSeconds = %s", got)
	}
}

func TestMergeFormatOptions(t *testing.T) {
	got, err := MergeFormatOptions([]string{
		`{"theme":"plain","junit":{"suiteName":"a"},"pretty":{"useStatusIcon":false}}`,
		`{"junit":{"testClassName":"c"},"theme":"none"}`,
		`{"junit":{"suiteName":"b"}}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"theme":  "none",
		"junit":  map[string]any{"suiteName": "b", "testClassName": "c"},
		"pretty": map[string]any{"useStatusIcon": false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, bad := range []string{`[1]`, `nope`, `null`} {
		if _, err := MergeFormatOptions([]string{bad}); err == nil || !strings.Contains(err.Error(), "--format-options") {
			t.Errorf("%s: got %v", bad, err)
		}
	}
}

func TestResolveColor(t *testing.T) {
	for _, tc := range []struct {
		tty, flag bool
		opts      map[string]any
		env       map[string]string
		want      bool
	}{
		{tty: true, want: true},
		{tty: false, want: false},
		{tty: true, flag: true, want: false},
		{tty: true, env: map[string]string{"NO_COLOR": "1"}, want: false},
		{tty: false, env: map[string]string{"FORCE_COLOR": "1"}, want: true},
		{tty: false, opts: map[string]any{"colorsEnabled": true}, want: true},
		{tty: true, opts: map[string]any{"colorsEnabled": false}, want: false},
	} {
		t.Setenv("NO_COLOR", "")
		t.Setenv("FORCE_COLOR", "")
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		if tc.env["FORCE_COLOR"] == "" {
			// an empty FORCE_COLOR still counts as set; unset it for these cases
			unsetenv(t, "FORCE_COLOR")
		}
		if got := ResolveColor(tc.tty, tc.flag, tc.opts); got != tc.want {
			t.Errorf("%+v: got %v", tc, got)
		}
	}
}

func TestThemeOption(t *testing.T) {
	th, err := themeFromOption(map[string]any{"status": map[string]any{"all": map[string]any{"PASSED": []any{"bold", "green"}}}, "tag": "yellow"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(th.Status.All[messages.TestStepResultStatusPassed], Style{"bold", "green"}) || !reflect.DeepEqual(th.Tag, Style{"yellow"}) {
		t.Errorf("theme = %+v", th)
	}
	if got := (styler{on: true}).apply(Style{"bold", "green"}, "x"); got != "\x1b[1m\x1b[32mx\x1b[39m\x1b[22m" {
		t.Errorf("apply = %q", got)
	}
	if _, err := themeFromOption(map[string]any{"tag": "chartreuse"}); err == nil || !strings.Contains(err.Error(), "chartreuse") {
		t.Errorf("unknown style: %v", err)
	}
	if _, err := newPretty(Options{FormatOptions: map[string]any{"pretty": map[string]any{"useStatusIcon": "yes"}}}); err == nil {
		t.Error("a non-boolean pretty option must be rejected")
	}
}

func unsetenv(t *testing.T, key string) {
	t.Setenv(key, "") // restores the old value after the test
	os.Unsetenv(key)
}

// sum adds at run time (constant arithmetic in Go is exact).
func sum(a, b float64) float64 { return a + b }

// The Gherkin snippets of a suggestion (built-in steps) are listed under
// the undefined step, each with its comment beside it; code snippets are
// not (they go to the snippets block).
func TestStepSuggestions(t *testing.T) {
	code := &messages.Snippet{Language: "typescript", Code: "When('x', function () {})"}
	gh := func(c string) *messages.Snippet { return &messages.Snippet{Language: "gherkin", Code: c} }
	for _, tc := range []struct {
		name     string
		snippets []*messages.Snippet
		want     string
	}{
		{"code only", []*messages.Snippet{code}, ""},
		{"built-in steps", []*messages.Snippet{code,
			gh("# Built-in step: I click {string} — Clicks an element.\nWhen I click \"Log in\""),
			gh("# Built-in step: I open {string}\nGiven I open \"/\""),
		}, "Closest built-in steps:\n" +
			"  When I click \"Log in\"  # I click {string} — Clicks an element.\n" +
			"  Given I open \"/\"       # I open {string}"},
		{"no comment", []*messages.Snippet{gh("When I go back")}, "Closest built-in steps:\n  When I go back"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := term{theme: PlainTheme(), st: styler{on: false}}
			got := tm.stepSuggestions([]*messages.Suggestion{{ID: "1", PickleStepID: "2", Snippets: tc.snippets}})
			if got != tc.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// usage leaves out the built-in steps nothing used (the table counts
// them); used built-in steps and the project's unused ones stay.
func TestUsageLeavesOutUnusedBuiltinSteps(t *testing.T) {
	def := func(id, pattern, uri string) *messages.Envelope {
		return &messages.Envelope{StepDefinition: &messages.StepDefinition{
			ID: id, Pattern: messages.StepDefinitionPattern{Source: pattern, Type: messages.StepDefinitionPatternTypeCucumberExpression},
			SourceReference: messages.SourceReference{URI: messages.Ptr(uri), Location: &messages.Location{Line: 3}},
		}}
	}
	envs := []*messages.Envelope{
		{GherkinDocument: &messages.GherkinDocument{URI: messages.Ptr("features/a.feature"), Feature: &messages.Feature{Children: []*messages.FeatureChild{{Scenario: &messages.Scenario{ID: "sc", Steps: []*messages.Step{{ID: "st", Keyword: "Given ", Text: `I open "/"`, Location: messages.Location{Line: 4}}}}}}}}},
		{Pickle: &messages.Pickle{ID: "p", URI: "features/a.feature", Name: "s", AstNodeIDs: []string{"sc"}, Steps: []*messages.PickleStep{{ID: "ps", Text: `I open "/"`, AstNodeIDs: []string{"st"}}}}},
		def("d1", "I open {string}", "ferridriver:steps/navigation.ts"),
		def("d2", "I go back", "ferridriver:steps/navigation.ts"),
		def("d3", "I reload", "ferridriver:steps/navigation.ts"),
		def("d4", "my own step", "steps/mine.ts"),
		{TestCase: &messages.TestCase{ID: "tc", PickleID: "p", TestSteps: []*messages.TestStep{{ID: "ts", PickleStepID: messages.Ptr("ps"), StepDefinitionIDs: []string{"d1"}}}}},
		{TestCaseStarted: &messages.TestCaseStarted{ID: "tcs", TestCaseID: "tc"}},
		{TestStepFinished: &messages.TestStepFinished{TestCaseStartedID: "tcs", TestStepID: "ts", TestStepResult: messages.TestStepResult{Status: messages.TestStepResultStatusPassed, Duration: messages.Duration{Nanos: 1000000}}}},
		{TestCaseFinished: &messages.TestCaseFinished{TestCaseStartedID: "tcs"}},
	}
	if builtinURIPrefix != jsbridge.LibraryScheme {
		t.Fatalf("builtinURIPrefix %q is not jsbridge.LibraryScheme %q", builtinURIPrefix, jsbridge.LibraryScheme)
	}
	q := query.New()
	for _, e := range envs {
		q.Update(e)
	}
	entries, unused := stepUsage(q)
	var patterns []string
	for _, e := range entries {
		patterns = append(patterns, e.Pattern)
	}
	if unused != 2 || !reflect.DeepEqual(patterns, []string{"I open {string}", "my own step"}) {
		t.Fatalf("usage lists %q and %d unused built-in steps; want the used built-in and the project's step, and 2", patterns, unused)
	}
	table := usageTable(entries, unused)
	if !strings.HasSuffix(table, "┘\n2 built-in steps unused (not listed; `ferridriver steps --builtin` lists every one)\n") || !strings.Contains(table, "UNUSED") {
		t.Fatalf("table:\n%s", table)
	}
	if got := usageTable(nil, 1); got != "1 built-in step unused (not listed; `ferridriver steps --builtin` lists every one)\n" {
		t.Fatalf("only unused built-in steps: %q", got)
	}
}
