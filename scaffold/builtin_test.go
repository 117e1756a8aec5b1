package scaffold_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/scaffold"
	"github.com/ferridriver/ferridriver/steps"

	// The library imports @playwright/test, whose module the browser
	// bindings register.
	_ "github.com/ferridriver/ferridriver/world/jsapi"
)

// The scaffold's first feature uses built-in steps only: with none of the
// project's step files, every step of it matches exactly one built-in
// step. (Its other feature shows a project's own steps.)
func TestFirstFeatureUsesOnlyBuiltinSteps(t *testing.T) {
	dir := t.TempDir()
	if _, err := scaffold.Write(dir, scaffold.Options{}); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	run, err := runner.Prepare(runner.Options{
		Dir:     dir,
		Paths:   []string{"features/login.feature"},
		Steps:   []string{filepath.Join("no-step-files", "*.ts")},
		Library: steps.Library(),
		DryRun:  true,
		Stdout:  &out, Stderr: &out,
	})
	if err != nil {
		t.Fatal(err)
	}
	var steps int
	res := run.Execute(context.Background(), runner.SinkFunc(func(e *messages.Envelope) {
		if tc := e.TestCase; tc != nil {
			for _, s := range tc.TestSteps {
				if s.PickleStepID != nil {
					steps++
				}
			}
		}
		if f := e.TestStepFinished; f != nil && f.TestStepResult.Status != messages.TestStepResultStatusSkipped {
			t.Errorf("a step of features/login.feature is %s with the built-in steps alone", f.TestStepResult.Status)
		}
	}))
	if !res.Success || steps == 0 {
		t.Fatalf("dry run of features/login.feature: success %v, %d steps\n%s", res.Success, steps, out.String())
	}
}
