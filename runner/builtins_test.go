package runner

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

// lazyLibrary is a built-in library as the runner sees it: parameter
// types, steps, a step hook, and a line printed when it loads.
func lazyLibrary(extra string) *jsbridge.Library {
	return &jsbridge.Library{Name: "steps", Entries: []string{"index.ts"}, FS: fstest.MapFS{"index.ts": {Data: []byte(`
import { When, Then, BeforeStep, defineParameterType } from '@cucumber/cucumber'
console.log('library loaded')
export const shade = (c: string) => c + '!'

defineParameterType({ name: 'color', regexp: /red|green/, transformer: (s: string) => s.toUpperCase() })
let seen = 0
BeforeStep(function () { seen++ })
When('I paint it {color}', function (this: any, c: string) { this.painted = c })
Then('the library saw {int} step(s)', function (n: number) { if (seen !== n) throw new Error('saw ' + seen) })
` + extra)}}, Module: "lib/steps"}
}

const lazyProjectSteps = `import { Given, Then } from '@cucumber/cucumber'
Given('a thing', function () {})
Then('it is painted {word}', function (this: any, c: string) { if (this.painted !== c) throw new Error('painted ' + this.painted) })
`

// definitions lists the definitions a stream reports, with their sources.
func definitions(envs []*messages.Envelope) []string {
	var out []string
	for _, e := range envs {
		switch {
		case e.StepDefinition != nil:
			out = append(out, fmt.Sprintf("step %s %s:%d", e.StepDefinition.Pattern.Source, *e.StepDefinition.SourceReference.URI, e.StepDefinition.SourceReference.Location.Line))
		case e.ParameterType != nil:
			out = append(out, fmt.Sprintf("type %s %v", e.ParameterType.Name, e.ParameterType.RegularExpressions))
		case e.Hook != nil:
			out = append(out, fmt.Sprintf("hook %s %s:%d", *e.Hook.Type, *e.Hook.SourceReference.URI, e.Hook.SourceReference.Location.Line))
		}
	}
	return out
}

func snippets(e *messages.Envelope) string {
	var out []string
	for _, s := range e.Suggestion.Snippets {
		out = append(out, s.Language+": "+s.Code)
	}
	return strings.Join(out, "\n")
}

// A run whose features use none of the library's steps does not load the
// library; a run that could use it (a library step, a project step with a
// library parameter type) loads it before the project's code, and its step
// hook runs. A library with a test-case hook always loads. Either way, the
// stream reports the project's definitions and, of the library's, only
// what the test cases use, the same whether it was loaded or not.
func TestLibraryLoadsOnlyWhenUsed(t *testing.T) {
	cache, err := jsbridge.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const (
		color   = "type color [red|green]"
		paint   = "step I paint it {color} ferridriver:steps/index.ts:9"
		saw     = "step the library saw {int} step(s) ferridriver:steps/index.ts:10"
		thing   = "step a thing steps/project.ts:2"
		painted = "step it is painted {word} steps/project.ts:3"
	)
	project := []string{thing, painted}
	for _, tc := range []struct {
		name     string
		feature  string
		steps    string
		library  string
		dryRun   bool
		loaded   bool
		statuses string
		reported []string
	}{
		{name: "project steps only", feature: "Given a thing", loaded: false, statuses: "PASSED", reported: project},
		{name: "a library step", feature: "Given a thing\nWhen I paint it red\nThen it is painted RED\nAnd the library saw 4 steps", loaded: true, statuses: "PASSED PASSED PASSED PASSED",
			reported: []string{color, paint, saw, thing, painted}},
		{name: "a library parameter type", feature: "Given a red thing", steps: "Given('a {color} thing', function (c: string) { if (c !== 'RED') throw new Error(c) })\n", loaded: true, statuses: "PASSED",
			reported: []string{color, thing, painted, "step a {color} thing steps/project.ts:4"}},
		{name: "an undefined step", feature: "When I paint it blue", loaded: false, statuses: "UNDEFINED", reported: project},
		{name: "a dry run", feature: "When I paint it red", dryRun: true, loaded: false, statuses: "SKIPPED", reported: []string{color, paint, thing, painted}},
		{name: "project code importing the library's module", feature: "Given a shade", steps: "import { shade } from 'lib/steps'\nGiven('a shade', function () { if (shade('x') !== 'x!') throw new Error('shade') })\n", loaded: true, statuses: "PASSED",
			reported: []string{thing, painted, "step a shade steps/project.ts:5"}},
		{name: "a dry run of project code importing the library's module", feature: "Given a shade", steps: "import { shade } from 'lib/steps'\nshade('loads')\nGiven('a shade', function () {})\n", dryRun: true, loaded: true, statuses: "SKIPPED",
			reported: []string{thing, painted, "step a shade steps/project.ts:6"}},
		{name: "a library with a Before hook", feature: "Given a thing", library: "import { Before } from '@cucumber/cucumber'\nBefore(function () {})\n", loaded: true, statuses: "PASSED PASSED",
			reported: []string{"hook BEFORE_TEST_CASE ferridriver:steps/index.ts:12", thing, painted}},
		// A project step with a built-in phrasing wins: the library's is
		// not used, so not reported.
		{name: "a project step shadowing a library step", feature: "When I paint it red", steps: "When('I paint it red', function () {})\n", loaded: true, statuses: "PASSED",
			reported: []string{thing, painted, "step I paint it red steps/project.ts:4"}},
		// Two library steps matching one text: both are reported, as the
		// ambiguous test step references them.
		{name: "an ambiguous library step", feature: "When I paint it red", library: "When(/^I paint it (red|green)$/, function () {})\n", loaded: true, statuses: "AMBIGUOUS",
			reported: []string{color, paint, "step ^I paint it (red|green)$ ferridriver:steps/index.ts:11", thing, painted}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{
				"features/a.feature": "Feature: f\n  Scenario: s\n    " + strings.ReplaceAll(tc.feature, "\n", "\n    ") + "\n",
				"steps/project.ts":   lazyProjectSteps + tc.steps,
			}
			lib := lazyLibrary(tc.library)
			lazy := newSuite(t, files)
			r, err := lazy.prepare(Options{Library: lib, Cache: cache, DryRun: tc.dryRun})
			if err != nil {
				t.Fatal(err)
			}
			if stubbed := r.stubs != nil; stubbed == tc.loaded {
				t.Errorf("library stubbed: %v, want loaded: %v", stubbed, tc.loaded)
			}
			if reg := r.vm0.Registry(); reg.Steps[0].IsStub() == tc.loaded {
				t.Errorf("the registry's first step is a stub: %v", reg.Steps[0].IsStub())
			}
			lazy.res = r.Execute(t.Context(), SinkFunc(func(e *messages.Envelope) { lazy.envs = append(lazy.envs, e) }))
			if got := strings.Join(lazy.statuses(), "|"); got != tc.statuses {
				t.Errorf("statuses %q, want %q\n%s", got, tc.statuses, lazy.stderr.String())
			}
			if printed := strings.Count(lazy.stdout.String(), "library loaded"); printed != map[bool]int{true: 1}[tc.loaded] {
				t.Errorf("the library printed %d times:\n%s", printed, lazy.stdout.String())
			}
			// The same run without the cache loads the library: the
			// definitions reported are the same.
			eager := newSuite(t, files).run(Options{Library: lib, DryRun: tc.dryRun})
			if got, want := definitions(lazy.envs), definitions(eager.envs); !slices.Equal(got, want) {
				t.Errorf("definitions\n got %q\nwant %q", got, want)
			}
			if got := definitions(lazy.envs); !slices.Equal(got, tc.reported) {
				t.Errorf("reported\n got %q\nwant %q", got, tc.reported)
			}
			if got, want := len(lazy.of("suggestion")), len(eager.of("suggestion")); got != want {
				t.Errorf("%d suggestions, want %d", got, want)
			} else if got > 0 {
				// The run does not use the library: cucumber-js's
				// suggestion, and the built-in step on stderr.
				if got, want := snippets(lazy.of("suggestion")[0]), snippets(eager.of("suggestion")[0]); got != want || strings.Contains(got, "Built-in step") {
					t.Errorf("suggestions\n got %s\nwant %s", got, want)
				}
				if !strings.Contains(lazy.stderr.String(), "close to built-in steps:\n  When I paint it") {
					t.Errorf("no hint of the built-in step on stderr:\n%s", lazy.stderr.String())
				}
			}
		})
	}
}

// With several workers, every worker's VM starts with the same stubs.
func TestLibraryStubsInEveryWorker(t *testing.T) {
	cache, err := jsbridge.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := newSuite(t, map[string]string{
		"features/a.feature": "Feature: f\n  Scenario: a\n    Given a thing\n  Scenario: b\n    Given a thing\n  Scenario: c\n    Given a thing\n",
		"steps/project.ts":   lazyProjectSteps,
	}).run(Options{Library: lazyLibrary(""), Cache: cache, Parallel: 3})
	if !s.res.Success || s.stdout.Len() > 0 {
		t.Errorf("success %v, printed %q\n%s", s.res.Success, s.stdout.String(), s.stderr.String())
	}
}

// A stub that runs anyway (a bug of the decision) fails its step with a
// clear error, never passes silently.
func TestLibraryStubFails(t *testing.T) {
	x := &jsbridge.LibraryIndex{Steps: []jsbridge.StepDef{{Keyword: "When", Pattern: "stub", Source: jsbridge.SourceRef{URI: "ferridriver:steps/x.ts", Line: 1}}}, Order: []jsbridge.Def{{Kind: jsbridge.DefStep}}}
	empty, err := jsbridge.Build(jsbridge.BundleOptions{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	vm, err := jsbridge.NewVM(empty, jsbridge.VMOptions{Stubs: x})
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	world, err := vm.NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	out := vm.RunStep(vm.Registry().Steps[0], world, nil, nil, 0)
	if out.Status != messages.TestStepResultStatusFailed || out.Err == nil || !strings.Contains(out.Err.Error(), "did not load its built-in step library") {
		t.Errorf("a stub ran: %v %v", out.Status, out.Err)
	}
}

// A project file that does not compile is reported as it is without the
// cache: the bundle without the library fails with the project's error,
// not with the library left out.
func TestLibraryLeftOutReportsProjectErrors(t *testing.T) {
	cache, err := jsbridge.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := newSuite(t, map[string]string{
		"features/a.feature": "Feature: f\n  Scenario: s\n    Given a thing\n",
		"steps/project.ts":   "import { Given } from '@cucumber/cucumber'\nGiven('a thing', function () { return 1 +* 2 })\n",
	})
	_, err = s.prepare(Options{Library: lazyLibrary(""), Cache: cache})
	var be *jsbridge.BundleError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "steps/project.ts:2:") || strings.Contains(err.Error(), "ferridriver/steps") {
		t.Fatalf("want the project's syntax error at steps/project.ts:2, got %v", err)
	}
}

// The shards of one run report the same definitions: a shard whose test
// cases use no built-in step still reports those the others use.
func TestLibraryReportedAlikeInEveryShard(t *testing.T) {
	cache, err := jsbridge.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"features/a.feature": "Feature: f\n  Scenario: uses the library\n    When I paint it red\n  Scenario: does not\n    Given a thing\n",
		"steps/project.ts":   lazyProjectSteps,
	}
	var defs [][]string
	for _, shard := range []string{"1/2", "2/2"} {
		s := newSuite(t, files).run(Options{Library: lazyLibrary(""), Cache: cache, Shard: shard})
		defs = append(defs, definitions(s.envs))
	}
	if !slices.Equal(defs[0], defs[1]) || !slices.Contains(defs[1], "step I paint it {color} ferridriver:steps/index.ts:9") {
		t.Errorf("shard 1 reports %q\nshard 2 reports %q", defs[0], defs[1])
	}
}
