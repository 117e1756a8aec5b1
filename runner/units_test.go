package runner

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	cukexp "github.com/cucumber/cucumber-expressions/go/v18"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

func TestCompileJSRegexp(t *testing.T) {
	for _, tc := range []struct {
		src, flags, text string
		match            bool
		err              string
	}{
		{src: `^I have (\d+) cukes$`, text: "I have 3 cukes", match: true},
		{src: `^hello$`, flags: "i", text: "HELLO", match: true},
		{src: `^a.b$`, flags: "s", text: "a\nb", match: true},
		{src: `^caf\u00e9$`, text: "café", match: true},
		{src: `^\u{1F600}$`, flags: "u", text: "😀", match: true},
		{src: `^a[^]b$`, text: "a\nb", match: true},
		{src: `^(?<name>\w+)$`, text: "bob", match: true},
		{src: `a\/b`, text: "a/b", match: true},
		{src: `^x$`, flags: "gy", text: "x", match: true},
		{src: `^the password "(?=[^"]*\d)(?=[^"]*[A-Z])([^"]+)" is strong$`, text: `the password "Secr3tX" is strong`, match: true},
		{src: `^the password "(?=[^"]*\d)(?=[^"]*[A-Z])([^"]+)" is strong$`, text: `the password "secret" is strong`, match: false},
		{src: `^(?!not )\w+$`, text: "not", match: true},
		{src: `^x (?<=a )?y$`, text: "x y", match: true},
		{src: `(?<=\$)\d+$`, text: "costs $42", match: true},
		{src: `(?<!\$)\b\d+$`, text: "costs $42", match: false},
		{src: `^the word "(\w+)\1"$`, text: `the word "abab"`, match: true},
		{src: `^the word "(\w+)\1"$`, text: `the word "abac"`, match: false},
		{src: `^(?<w>\w)\k<w>$`, text: "zz", match: true},
		{src: `^\p{Lu}\p{Ll}+$`, flags: "u", text: "Émile", match: true},
		{src: `^\p{Script=Greek}+$`, flags: "u", text: "αβγ", match: true},
		{src: `^\s$`, text: "\u00a0", match: true},
		{src: `^a.b$`, text: "a\rb", match: false},
		{src: `^x$`, text: "x\n", match: false},
		{src: `^x$`, flags: "m", text: "a\nx", match: true},
		{src: `(?<=a)b(`, err: "missing closing )"},
		{src: `x`, flags: "z", err: `unsupported regular expression flag 'z'`},
	} {
		re, err := compileJSRegexp(tc.src, tc.flags)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("/%s/%s: error %v, want %q", tc.src, tc.flags, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("/%s/%s: %v", tc.src, tc.flags, err)
			continue
		}
		if got := re.matchString(tc.text); got != tc.match {
			t.Errorf("/%s/%s on %q = %v", tc.src, tc.flags, tc.text, got)
		}
	}
}

func TestUndefinedParamName(t *testing.T) {
	reg := cukexp.NewParameterTypeRegistry()
	for expr, want := range map[string]string{
		"{airport} is closed":          "airport",
		"{int} and {color}":            "color",
		`escaped \{nope} then {thing}`: "thing",
		"{int} only":                   "",
	} {
		if got := undefinedParamName(expr, reg); got != want {
			t.Errorf("undefinedParamName(%q) = %q, want %q", expr, got, want)
		}
	}
}

// The argument group tree of {string} is the one the CCK expects.
func TestMatchArgumentsOfString(t *testing.T) {
	m, err := newMatcher(&jsbridge.Registry{Steps: []*jsbridge.StepDef{{Pattern: "the string {string} is attached"}}})
	if err != nil {
		t.Fatal(err)
	}
	matches, err := m.match(`the string "hello" is attached`)
	if err != nil || len(matches) != 1 {
		t.Fatalf("%v %v", matches, err)
	}
	got, _ := json.Marshal(matchArgumentsList(`the string "hello" is attached`, matches[0].args))
	want := `{"stepMatchArguments":[{"group":{"children":[{"children":[{}],"start":12,"value":"hello"},{"children":[{}]}],"start":11,"value":"\"hello\""},"parameterTypeName":"string"}]}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if args := stepArgs(matches[0].args); args[0].ParamType != "string" || *args[0].Values[0] != "hello" || args[0].Values[1] != nil {
		t.Fatalf("args %+v", args)
	}
}

// Offsets count UTF-16 code units, as in JavaScript: "é" is one unit,
// "😀" two.
func TestMatchOffsetsAreUTF16(t *testing.T) {
	m, _ := newMatcher(&jsbridge.Registry{Steps: []*jsbridge.StepDef{{Pattern: "{word} has {int}"}}})
	text := "café😀 has 3"
	matches, _ := m.match(text)
	l := matchArgumentsList(text, matches[0].args)
	if got := l.StepMatchArguments[1].Group.GetStart(); got != 11 {
		t.Fatalf("start of {int} = %d, want 11 (UTF-16 units)", got)
	}
}

func TestSnippets(t *testing.T) {
	m, _ := newMatcher(&jsbridge.Registry{})
	step := &messages.PickleStep{Text: `I have 3 "red" apples`, Type: messages.Ptr(messages.PickleStepTypeOutcome),
		Argument: &messages.PickleStepArgument{DataTable: &messages.PickleTable{}}}
	sn := m.snippets(step, SnippetSynchronous)
	if len(sn) != 2 {
		t.Fatalf("%d snippets, want {int} and {float} alternatives", len(sn))
	}
	want := "Then('I have {int} {string} apples', function (int: number, string: string, dataTable: DataTable) {\n" +
		"  // Write code here that turns the phrase above into concrete actions\n  return 'pending';\n});"
	if sn[0].Code != want || sn[0].Language != "typescript" {
		t.Fatalf("got:\n%s\nwant:\n%s", sn[0].Code, want)
	}
	if c := m.snippets(&messages.PickleStep{Text: "it's done"}, SnippetAsyncAwait)[0].Code; !strings.HasPrefix(c, `Given('it\'s done', async function () {`) {
		t.Fatalf("got %s", c)
	}
	if c := m.snippets(&messages.PickleStep{Text: "x"}, SnippetCallback)[0].Code; !strings.Contains(c, "callback(null, 'pending');") {
		t.Fatalf("got %s", c)
	}
}

func TestShard(t *testing.T) {
	in, err := shard("2/3", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for i := range 8 {
		if in(i) {
			got = append(got, i)
		}
	}
	if !reflect.DeepEqual(got, []int{1, 4, 7}) {
		t.Fatalf("shard 2/3 = %v", got)
	}
	// The shards of any number of test cases partition them, and their
	// sizes differ by at most one.
	for total := range 30 {
		for n := 1; n <= 7; n++ {
			sizes := make([]int, n)
			for i := 1; i <= n; i++ {
				in, err := shard(fmt.Sprintf("%d/%d", i, n), 0)
				if err != nil {
					t.Fatal(err)
				}
				for k := range total {
					if in(k) {
						sizes[i-1]++
					}
				}
			}
			sum := 0
			for _, s := range sizes {
				sum += s
			}
			if sum != total || slices.Max(sizes)-slices.Min(sizes) > 1 {
				t.Fatalf("%d test cases in %d shards: %v", total, n, sizes)
			}
		}
	}
	for _, bad := range []string{"0/3", "4/3", "1/0", "x/2", "1", "1/2/3"} {
		if _, err := shard(bad, 0); err == nil {
			t.Errorf("shard(%q) accepted", bad)
		}
	}
}

func TestOrderingAndShuffle(t *testing.T) {
	for spec, want := range map[string]string{"": "defined", "defined": "defined", "reverse": "reverse", "random:7": "random"} {
		kind, seed, err := ordering(spec)
		if err != nil || kind != want || (kind == "random" && seed != "7") {
			t.Errorf("ordering(%q) = %q %q %v", spec, kind, seed, err)
		}
	}
	if _, seed, _ := ordering("random"); seed == "" {
		t.Error("random without a seed must pick one")
	}
	for _, bad := range []string{"random:", "backwards"} {
		if _, _, err := ordering(bad); err == nil {
			t.Errorf("ordering(%q) accepted", bad)
		}
	}
	a := []int{1, 2, 3, 4, 5, 6, 7, 8}
	b := append([]int(nil), a...)
	c := append([]int(nil), a...)
	shuffle(a, "42")
	shuffle(b, "42")
	shuffle(c, "not-a-number")
	if !reflect.DeepEqual(a, b) || reflect.DeepEqual(a, []int{1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Fatalf("shuffle not deterministic or not shuffling: %v %v", a, b)
	}
}

func TestStreamOrdersBlocks(t *testing.T) {
	var got []string
	s := newStream(SinkFunc(func(e *messages.Envelope) { got = append(got, e.TestStepStarted.TestStepID) }))
	ev := func(id string) *messages.Envelope {
		return &messages.Envelope{TestStepStarted: &messages.TestStepStarted{TestStepID: id}}
	}
	s.emit(1, ev("b1"))
	s.emit(0, ev("a1")) // head streams at once
	s.emit(2, ev("c1"))
	s.finish(2)
	s.emit(1, ev("b2"))
	s.finish(0) // releases block 1 so far
	s.emit(1, ev("b3"))
	s.finish(1) // and then block 2
	if want := []string{"a1", "b1", "b2", "b3", "c1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	got = nil
	s2 := newStream(SinkFunc(func(e *messages.Envelope) { got = append(got, e.TestStepStarted.TestStepID) }))
	s2.emit(2, ev("c"))
	s2.emit(0, ev("a"))
	s2.emit(1, ev("b"))
	s2.flushAll(3)
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("flushAll: got %v", got)
	}
}

// earlyRecorder records what an EarlySink is given.
type earlyRecorder struct{ handled, early []string }

func (r *earlyRecorder) Handle(e *messages.Envelope) {
	r.handled = append(r.handled, e.TestStepStarted.TestStepID)
}
func (r *earlyRecorder) Early(e *messages.Envelope) {
	r.early = append(r.early, e.TestStepStarted.TestStepID)
}

// An EarlySink gets the envelopes of blocks behind the head when they are
// produced, and every envelope once more in stream order.
func TestStreamGivesEarlySinkBufferedBlocks(t *testing.T) {
	rec := &earlyRecorder{}
	s := newStream(rec)
	ev := func(id string) *messages.Envelope {
		return &messages.Envelope{TestStepStarted: &messages.TestStepStarted{TestStepID: id}}
	}
	s.emit(1, ev("b1"))
	s.emit(0, ev("a1"))
	s.emit(2, ev("c1"))
	s.finish(0)
	s.emit(1, ev("b2")) // block 1 is the head now: live
	s.emit(2, ev("c2"))
	s.finish(1)
	s.finish(2)
	if want := []string{"b1", "c1", "c2"}; !reflect.DeepEqual(rec.early, want) {
		t.Errorf("early: got %v, want %v", rec.early, want)
	}
	if want := []string{"a1", "b1", "b2", "c1", "c2"}; !reflect.DeepEqual(rec.handled, want) {
		t.Errorf("handled: got %v, want %v", rec.handled, want)
	}
}

func TestAttemptState(t *testing.T) {
	st := &attemptState{worst: messages.TestStepResultStatusPassed}
	st.record(messages.TestStepResult{Status: messages.TestStepResultStatusSkipped}, nil, false)
	if st.userSkipped {
		t.Fatal("a step skipped because of an earlier problem is not a user skip")
	}
	st.record(messages.TestStepResult{Status: messages.TestStepResultStatusUndefined}, nil, false)
	st.record(messages.TestStepResult{Status: messages.TestStepResultStatusPending}, nil, true)
	if st.worst != messages.TestStepResultStatusUndefined || !st.failedish {
		t.Fatalf("%+v", st)
	}
	r := &Run{opts: Options{Strict: false}}
	if r.causesFailure(messages.TestStepResultStatusPending) || !r.causesFailure(messages.TestStepResultStatusUndefined) {
		t.Fatal("non-strict: pending passes, undefined fails")
	}
}

func TestParseErrorOf(t *testing.T) {
	_, err := parseFeatureData([]byte("Feature: x\n  Scenario: a\n    Given b\n    | a |\n    | b | c |\n   oops\n"), "f", "features/x.feature", "")
	pe, ok := err.(*ParseError)
	if !ok || pe.Line != 5 || pe.Column != 5 || !strings.Contains(pe.Message, "inconsistent cell count") || len(pe.Problems) != 1 {
		t.Fatalf("%#v", err)
	}
	if !strings.HasPrefix(pe.Error(), "features/x.feature:5:5: inconsistent cell count") {
		t.Fatalf("%s", pe.Error())
	}
}

func TestPickleLocations(t *testing.T) {
	f, err := parseFeatureData([]byte("Feature: x\n  Scenario Outline: a <n>\n    Given b\n    Examples:\n      | n |\n      | 1 |\n      | 2 |\n  Scenario: c\n    Given d\n"), "", "x.feature", "")
	if err != nil {
		t.Fatal(err)
	}
	var lines []int64
	for _, p := range f.pickles {
		lines = append(lines, p.Location.Line)
	}
	if !reflect.DeepEqual(lines, []int64{6, 7, 8}) {
		t.Fatalf("pickle locations %v", lines)
	}
}

func TestLanguage(t *testing.T) {
	src := "# language: fr\nFonctionnalité: x\n  Scénario: a\n    Soit b\n"
	f, err := parseFeatureData([]byte(src), "", "x.feature", "")
	if err != nil || len(f.pickles) != 1 || f.pickles[0].Language != "fr" {
		t.Fatalf("%v %v", f, err)
	}
	f, err = parseFeatureData([]byte("Fonctionnalité: x\n  Scénario: a\n    Soit b\n"), "", "x.feature", "fr")
	if err != nil || len(f.pickles) != 1 {
		t.Fatalf("--language fr: %v", err)
	}
}

// The capture-group tree of a JavaScript regular expression, as
// cucumber-js's TreeRegexp builds it: non-capturing groups and lookarounds
// are not groups, named groups are, escapes and classes hide parentheses.
func TestGroupTree(t *testing.T) {
	show := func(g *groupNode) string {
		var f func(g *groupNode) string
		f = func(g *groupNode) string {
			s := fmt.Sprintf("%d:%s", g.number, g.source)
			if len(g.children) > 0 {
				parts := make([]string, len(g.children))
				for i, c := range g.children {
					parts[i] = f(c)
				}
				s += "[" + strings.Join(parts, " ") + "]"
			}
			return s
		}
		parts := make([]string, len(g.children))
		for i, c := range g.children {
			parts[i] = f(c)
		}
		return strings.Join(parts, " ")
	}
	for src, want := range map[string]string{
		`^(a)(b)$`:                     "1:a 2:b",
		`^(a(b))$`:                     "1:a(b)[2:b]",
		`^(?:x(a))$`:                   "1:a",
		`^(?=(a))a$`:                   "1:a",
		`^(?<=(a))b(?<!c)$`:            "1:a",
		`^(?<first>\w+) (?<last>\w+)$`: `1:?<first>\w+ 2:?<last>\w+`,
		`^\(not\) ([(]) (\\)$`:         `1:[(] 2:\\`,
		`^[)(](a)$`:                    "1:a",
		`^(a)\1$`:                      "1:a",
	} {
		if got := show(groupTree(src)); got != want {
			t.Errorf("groupTree(%s) = %q, want %q", src, got, want)
		}
	}
}

// RegExp groups get the parameter type whose regular expression they are
// written as (cucumber-js's lookupByRegexp), else an anonymous one; a group
// that did not participate has no value.
func TestJSExpressionArguments(t *testing.T) {
	reg := &jsbridge.Registry{}
	m, err := newMatcher(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src, text string
		want      []string // type=value, value "<nil>" when absent
	}{
		{`^I have (\d+) cukes$`, "I have 4 cukes", []string{"int=4"}},
		{`^I have (-?\d+) cukes$`, "I have -4 cukes", []string{"int=-4"}},
		{`^a (\w+)(?: of (\d+))?$`, "a box", []string{"anonymous=box", "int=<nil>"}},
		{`^(.*) and (\S+)$`, "x and y", []string{"=x", "anonymous=y"}},
		{`^(?<n>\d+)(?=px)px$`, "12px", []string{"anonymous=12"}}, // the group source is "?<n>\d+", as in cucumber-js
		{`^nope$`, "other", nil},
	} {
		re, err := compileJSRegexp(tc.src, "")
		if err != nil {
			t.Fatal(err)
		}
		args, err := (&jsExpression{re: re, m: m}).Match(tc.text)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range args {
			v := "<nil>"
			if p := a.Group().Value(); p != nil {
				v = *p
			}
			got = append(got, a.ParameterType().Name()+"="+v)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("/%s/ on %q: %v, want %v", tc.src, tc.text, got, tc.want)
		}
	}
}

// A project definition matching a step wins over the built-in library's;
// two library definitions, or two project ones, stay ambiguous.
func TestProjectStepsWinOverTheLibrary(t *testing.T) {
	lib := func(p string) *jsbridge.StepDef {
		return &jsbridge.StepDef{Pattern: p, Source: jsbridge.SourceRef{URI: jsbridge.LibraryScheme + "steps/x.ts", Line: 1}}
	}
	own := func(p string) *jsbridge.StepDef {
		return &jsbridge.StepDef{Pattern: p, Source: jsbridge.SourceRef{URI: "steps/mine.ts", Line: 1}}
	}
	for _, tc := range []struct {
		name string
		defs []*jsbridge.StepDef
		want []int
	}{
		{"library only", []*jsbridge.StepDef{lib("I click {string}")}, []int{0}},
		{"project wins", []*jsbridge.StepDef{lib("I click {string}"), own(`I click "Save"`)}, []int{1}},
		{"project wins over two", []*jsbridge.StepDef{lib("I click {string}"), lib("I click {}"), own("I click {string}")}, []int{2}},
		{"two library steps are ambiguous", []*jsbridge.StepDef{lib("I click {string}"), lib("I click {}")}, []int{0, 1}},
		{"two project steps are ambiguous", []*jsbridge.StepDef{lib("I click {string}"), own("I click {string}"), own("I click {}")}, []int{1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := newMatcher(&jsbridge.Registry{Steps: tc.defs})
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.match(`I click "Save"`)
			if err != nil {
				t.Fatal(err)
			}
			var idx []int
			for _, g := range got {
				idx = append(idx, g.def)
			}
			if !slices.Equal(idx, tc.want) {
				t.Fatalf("matched %v, want %v", idx, tc.want)
			}
		})
	}
}

// Message ids are version-4 UUIDs, unique within a run and across runs
// (their random part is drawn per process).
func TestNewID(t *testing.T) {
	re := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := newID()
		if !re.MatchString(id) || seen[id] {
			t.Fatalf("id %q (seen: %v)", id, seen[id])
		}
		seen[id] = true
	}
}
