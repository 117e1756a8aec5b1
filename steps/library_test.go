package steps_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/steps"
	"github.com/ferridriver/ferridriver/steps/catalogue"

	// The library imports @playwright/test, whose module the browser
	// bindings register.
	_ "github.com/ferridriver/ferridriver/world/jsapi"
)

// loadLibrary loads the built-in library alone.
func loadLibrary(t *testing.T) *runner.Library {
	t.Helper()
	var out strings.Builder
	defs, err := runner.LoadBuiltinSteps(runner.Options{Dir: t.TempDir(), Library: steps.Library(), Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatalf("the library does not load: %v", err)
	}
	t.Cleanup(defs.Close)
	if out.Len() > 0 {
		t.Errorf("the library printed while loading:\n%s", out.String())
	}
	return defs
}

// Every built-in step is documented: a description and at least one
// example, written as a feature writes the step (with its keyword). Every
// example is matched by its own definition and by no other built-in one,
// through the matcher `bdd` uses: the library has no ambiguity, and its
// documentation cannot drift from what the steps accept.
func TestEveryBuiltinStepIsDocumentedAndItsExamplesMatchIt(t *testing.T) {
	defs := loadLibrary(t)
	reg := defs.Registry()
	if len(reg.Steps) == 0 {
		t.Fatal("the library defines no step")
	}
	for _, d := range reg.Steps {
		name := d.Source.String() + " " + d.Pattern
		if !d.Source.IsLibrary() {
			t.Errorf("%s: not from the library", name)
			continue
		}
		if strings.TrimSpace(d.Description) == "" {
			t.Errorf("%s: no description (options {description, example})", name)
		}
		if len(d.Examples) == 0 {
			t.Errorf("%s: no example (options {description, example})", name)
		}
		for _, ex := range d.Examples {
			first, _, _ := strings.Cut(strings.TrimSpace(ex), " ")
			if !slices.Contains([]string{"Given", "When", "Then", "And", "But", "*"}, first) {
				t.Errorf("%s: example %q does not start with a Gherkin keyword", name, ex)
			}
			text := runner.StepText(ex)
			got, err := defs.MatchText(text)
			if err != nil {
				t.Errorf("%s: example %q: %v", name, ex, err)
				continue
			}
			switch {
			case len(got) == 0:
				t.Errorf("%s: example %q matches no step (not even its own)", name, ex)
			case !slices.Contains(got, d):
				t.Errorf("%s: example %q matches %s instead", name, ex, sources(got))
			case len(got) > 1:
				t.Errorf("%s: example %q is ambiguous: it matches %s", name, ex, sources(got))
			}
		}
	}
}

func sources(defs []*jsbridge.StepDef) string {
	var out []string
	for _, d := range defs {
		out = append(out, fmt.Sprintf("%q (%s)", d.Pattern, d.Source))
	}
	return strings.Join(out, " and ")
}

// The library's categories (its files) and how many steps each has; the
// total is printed, as the closing note gives it.
func TestBuiltinStepsByCategory(t *testing.T) {
	c := catalogue.FromRegistry(loadLibrary(t).Registry())
	var parts []string
	for _, g := range c.Groups() {
		if !g.Builtin || g.Category == "" || strings.ContainsAny(g.Category, ":.") {
			t.Errorf("category %q (builtin %v): want the library file's name", g.Category, g.Builtin)
		}
		parts = append(parts, fmt.Sprintf("%s %d", g.Category, len(g.Steps)))
	}
	fmt.Printf("built-in steps: %d (%s); parameter types: %d\n", len(c.Steps), strings.Join(parts, ", "), len(c.ParameterTypes))
}

// docs/steps.md holds the Markdown of `ferridriver steps --builtin --md`
// between its generated markers: it never lags the library.
func TestDocsListEveryBuiltinStep(t *testing.T) {
	want := catalogue.FromRegistry(loadLibrary(t).Registry()).BuiltinOnly().Markdown()
	b, err := os.ReadFile(filepath.Join("..", "docs", "steps.md"))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := catalogue.Generated(string(b))
	if !ok {
		t.Fatalf("docs/steps.md has no %s ... %s markers", catalogue.BeginMarker, catalogue.EndMarker)
	}
	if got != want {
		t.Fatalf("docs/steps.md is stale: regenerate it with `make docs` (bin/ferridriver steps --builtin --md -o docs/steps.md)")
	}
}
