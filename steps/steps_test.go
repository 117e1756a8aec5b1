package steps

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/runner"
	// The library imports @playwright/test, which the browser world serves.
	_ "github.com/ferridriver/ferridriver/world/jsapi"
)

// category is the file a built-in step is defined in, without ".ts":
// "ferridriver:steps/navigation.ts:12" is "navigation".
func category(s jsbridge.SourceRef) string {
	return strings.TrimSuffix(path.Base(strings.TrimPrefix(s.URI, jsbridge.LibraryScheme)), ".ts")
}

func libraryRegistry(t *testing.T) *jsbridge.Registry {
	t.Helper()
	return libraryVM(t, Library()).Registry()
}

// libraryVM is a bdd VM with lib loaded alone, closed with the test.
func libraryVM(t *testing.T, lib *jsbridge.Library) *jsbridge.VM {
	t.Helper()
	dir := t.TempDir()
	b, err := jsbridge.Build(jsbridge.BundleOptions{Dir: dir, Library: lib})
	if err != nil {
		t.Fatal(err)
	}
	vm, err := jsbridge.NewVM(b, jsbridge.VMOptions{Host: jsbridge.HostBDD, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(vm.Close)
	return vm
}

// dryRun plans a feature with the library alone, running nothing, and
// returns the message stream.
func dryRun(t *testing.T, feature string) []*messages.Envelope {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "features"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "features", "f.feature"), []byte(feature), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := runner.Prepare(runner.Options{Dir: dir, Library: Library(), DryRun: true, Stdout: &strings.Builder{}, Stderr: &strings.Builder{}})
	if err != nil {
		t.Fatal(err)
	}
	var envs []*messages.Envelope
	r.Execute(context.Background(), runner.SinkFunc(func(e *messages.Envelope) { envs = append(envs, e) }))
	return envs
}

// Every built-in step has a one-line description and at least one
// example, and the count by category is printed (go test -v).
func TestBuiltinStepsAreDocumented(t *testing.T) {
	reg := libraryRegistry(t)
	counts := map[string]int{}
	for _, d := range reg.Steps {
		if !d.Source.IsLibrary() {
			t.Fatalf("%q is not from the library: %s", d.Pattern, d.Source)
		}
		counts[category(d.Source)]++
		switch {
		case strings.TrimSpace(d.Description) == "" || strings.Contains(d.Description, "\n"):
			t.Errorf("%s: %q needs a one-line description", d.Source, d.Pattern)
		case len(d.Examples) == 0:
			t.Errorf("%s: %q needs an example", d.Source, d.Pattern)
		}
	}
	cats := make([]string, 0, len(counts))
	for c := range counts {
		cats = append(cats, c)
	}
	sort.Slice(cats, func(i, j int) bool {
		if counts[cats[i]] != counts[cats[j]] {
			return counts[cats[i]] > counts[cats[j]]
		}
		return cats[i] < cats[j]
	})
	parts := make([]string, len(cats))
	for i, c := range cats {
		parts[i] = fmt.Sprintf("%s %d", c, counts[c])
	}
	t.Logf("built-in steps: %d (%s)", len(reg.Steps), strings.Join(parts, ", "))
	if len(reg.Steps) < 140 {
		t.Errorf("only %d built-in steps", len(reg.Steps))
	}
}

// Each example of a built-in step is a valid step that matches that step
// definition, and only it (the runner's own matcher, in a dry run).
func TestBuiltinExamplesMatchTheirStep(t *testing.T) {
	reg := libraryRegistry(t)
	type want struct{ pattern, source string }
	var b strings.Builder
	var wants []want
	b.WriteString("Feature: examples\n")
	for _, d := range reg.Steps {
		for _, ex := range d.Examples {
			fmt.Fprintf(&b, "  Scenario: %d\n    %s\n", len(wants), ex)
			wants = append(wants, want{d.Pattern, d.Source.String()})
		}
	}
	envs := dryRun(t, b.String())
	defs := map[string]want{}
	pickles := map[string]*messages.Pickle{}
	for _, e := range envs {
		if d := e.StepDefinition; d != nil {
			defs[d.ID] = want{d.Pattern.Source, fmt.Sprintf("%s:%d", *d.SourceReference.URI, d.SourceReference.Location.Line)}
		}
		if p := e.Pickle; p != nil {
			pickles[p.ID] = p
		}
	}
	checked := 0
	for _, e := range envs {
		tc := e.TestCase
		if tc == nil {
			continue
		}
		p := pickles[tc.PickleID]
		var i int
		fmt.Sscan(p.Name, &i)
		for _, s := range tc.TestSteps {
			if s.PickleStepID == nil {
				continue
			}
			checked++
			text := p.Steps[0].Text
			switch {
			case len(s.StepDefinitionIDs) == 0:
				t.Errorf("example %q (of %q) matches no step", text, wants[i].pattern)
			case len(s.StepDefinitionIDs) > 1:
				t.Errorf("example %q (of %q) is ambiguous", text, wants[i].pattern)
			case defs[s.StepDefinitionIDs[0]] != wants[i]:
				t.Errorf("example %q of %q (%s) matches %+v", text, wants[i].pattern, wants[i].source, defs[s.StepDefinitionIDs[0]])
			}
		}
	}
	if checked != len(wants) {
		t.Fatalf("checked %d examples of %d", checked, len(wants))
	}
}
