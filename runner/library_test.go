package runner

import (
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/jsbridge"
)

const librarySteps = `
const { Given, Before, After, AfterStep, defineParameterType } = require('@cucumber/cucumber')
defineParameterType({ name: 'color', regexp: /red|blue/, transformer: (s) => s.toUpperCase() })
Given('I have {int} {color} cukes', function () {})
Given(/^I (?:am|was) (\w+)$/i, function () {})
Given('it is {string}', function () {})
Before(function first() {})
Before({ tags: '@slow' }, function slow() {})
After(function a1() {})
After({ tags: 'not @slow' }, function a2() {})
After(function a3() {})
AfterStep(function s1() {})
AfterStep(function s2() {})
`

func loadLibrary(t *testing.T, files map[string]string) (*Library, error) {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, files)
	l, err := LoadLibrary(Options{Dir: dir, Steps: []string{"steps"}})
	if err == nil {
		t.Cleanup(l.Close)
	}
	return l, err
}

// TestLibraryRegexpAndMatch: each definition's Go regular expression
// selects the texts it matches, and Match gives bdd's arguments.
func TestLibraryRegexpAndMatch(t *testing.T) {
	l, err := loadLibrary(t, map[string]string{"steps/steps.js": librarySteps})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		def        int
		text       string
		match      bool
		paramTypes string // parameter type of each argument
		values     string // first value of each argument
	}{
		{0, "I have 3 red cukes", true, "int color", "3 red"},
		{0, "I have 3 green cukes", false, "", ""},
		{0, "so I have 3 red cukes", false, "", ""}, // Cucumber Expressions are anchored
		{1, "i WAS happy", true, "anonymous", "happy"},
		{1, "I am", false, "", ""},
		{2, `it is "a \"quoted\" word"`, true, "string", `a \"quoted\" word`},
	} {
		re, err := l.Regexp(tc.def)
		if err != nil {
			t.Fatalf("Regexp(%d): %v", tc.def, err)
		}
		if re.MatchString(tc.text) != tc.match {
			t.Errorf("%s matches %q: %v, want %v", re, tc.text, !tc.match, tc.match)
		}
		args, ok, err := l.Match(tc.def, tc.text)
		if err != nil || ok != tc.match {
			t.Errorf("Match(%d, %q) = %v, %v", tc.def, tc.text, ok, err)
			continue
		}
		var types, values []string
		for _, a := range args {
			types = append(types, a.ParamType)
			v := "<nil>"
			for _, x := range a.Values {
				if x != nil {
					v = *x
					break
				}
			}
			values = append(values, v)
		}
		if strings.Join(types, " ") != tc.paramTypes || strings.Join(values, " ") != tc.values {
			t.Errorf("Match(%d, %q): types %v values %v", tc.def, tc.text, types, values)
		}
	}
}

// TestLibraryHooks: hooks in the order bdd runs them, filtered by tags.
func TestLibraryHooks(t *testing.T) {
	l, err := loadLibrary(t, map[string]string{"steps/steps.js": librarySteps})
	if err != nil {
		t.Fatal(err)
	}
	names := func(kind jsbridge.HookKind, tags ...string) string {
		var out []string
		for _, h := range l.Hooks(kind, tags) {
			out = append(out, l.Registry().Hooks[h.Index].Kind.String()+":"+h.Source.String())
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		kind jsbridge.HookKind
		tags []string
		want string
	}{
		{jsbridge.Before, nil, "Before:steps/steps.js:7"},
		{jsbridge.Before, []string{"@slow"}, "Before:steps/steps.js:7 Before:steps/steps.js:8"},
		{jsbridge.After, nil, "After:steps/steps.js:11 After:steps/steps.js:10 After:steps/steps.js:9"},
		{jsbridge.After, []string{"@slow"}, "After:steps/steps.js:11 After:steps/steps.js:9"},
		{jsbridge.AfterStep, nil, "AfterStep:steps/steps.js:13 AfterStep:steps/steps.js:12"},
		{jsbridge.BeforeAll, nil, ""},
	} {
		if got := names(tc.kind, tc.tags...); got != tc.want {
			t.Errorf("Hooks(%s, %v) = %s, want %s", tc.kind, tc.tags, got, tc.want)
		}
	}
	vm, err := l.NewVM(3)
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	if n := len(vm.Registry().Steps); n != 3 {
		t.Errorf("the new VM registered %d steps", n)
	}
}

// TestLibraryRegexpErrors: definitions Go's regular expressions cannot
// express are errors naming their source.
func TestLibraryRegexpErrors(t *testing.T) {
	l, err := loadLibrary(t, map[string]string{"steps/steps.js": `
const { Given, defineParameterType } = require('@cucumber/cucumber')
defineParameterType({ name: 'notx', regexp: /(?<!x)y/ })
Given(/^I have (\w+) and \1$/, function () {})
Given('I see {notx}', function () {})
Given('I use {unknown}', function () {})
Given(/^fine$/, function () {})
`})
	if err != nil {
		t.Fatal(err)
	}
	for def, want := range []string{
		"steps/steps.js:4: step /^I have (\\w+) and \\1$/: the regular expression needs JavaScript's engine",
		"steps/steps.js:5: step \"I see {notx}\": parameter type {notx} has a regular expression that only JavaScript's engine compiles",
		"steps/steps.js:6: step \"I use {unknown}\": undefined parameter type {unknown}",
	} {
		_, err := l.Regexp(def)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Regexp(%d) = %v, want %s...", def, err, want)
		}
	}
	if _, err := l.Regexp(3); err != nil {
		t.Errorf("Regexp(3): %v", err)
	}
	if _, err := l.Regexp(4); err == nil {
		t.Error("Regexp of a definition that does not exist")
	}
}

// TestLoadLibraryErrors: a step file that does not compile is reported
// with its position.
func TestLoadLibraryErrors(t *testing.T) {
	_, err := loadLibrary(t, map[string]string{"steps/bad.ts": "Given('x', function ( {})\n"})
	if err == nil || !strings.Contains(err.Error(), "steps/bad.ts:2:1: ") {
		t.Errorf("got %v", err)
	}
	if _, err := LoadLibrary(Options{}); err == nil {
		t.Error("LoadLibrary without a directory")
	}
}
