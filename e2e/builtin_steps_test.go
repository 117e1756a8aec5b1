package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// The built-in step library is loaded before the project's steps: a
// project step matching the same text wins over the built-in one, and
// [test] builtinSteps = false turns the library off (issue 12).
func TestBuiltinStepsAreLoadedUnlessTurnedOff(t *testing.T) {
	files := map[string]string{
		"features/a.feature": "Feature: a\n  Scenario: s\n    Given I open \"/login\"\n    When I go back\n",
		"steps/mine.ts":      "import { When } from '@cucumber/cucumber'\nWhen('I go back', function () {})\n",
	}
	for _, tc := range []struct {
		name, config string
		code         int
		want         []string // the source of each step's definition, "" for undefined
	}{
		{"on by default", "", 0, []string{"ferridriver:steps/", "steps/mine.ts"}},
		{"turned off", "[test]\nbuiltinSteps = false\n", 1, []string{"", "steps/mine.ts"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testenv.WriteFiles(t, dir, files)
			if tc.config != "" {
				testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": tc.config})
			}
			res := ferridriver(t, dir, "bdd", "--dry-run", "--format", "message:m.ndjson")
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", res.code, tc.code, res.stdout, res.stderr)
			}
			envs := oracles.ReadStream(t, filepath.Join(dir, "m.ndjson"))
			defs := map[string]string{}
			for _, e := range envs {
				if d := e.StepDefinition; d != nil {
					defs[d.ID] = *d.SourceReference.URI
				}
			}
			var got []string
			for _, e := range envs {
				if tc := e.TestCase; tc != nil {
					for _, s := range tc.TestSteps {
						if s.PickleStepID == nil {
							continue
						}
						switch len(s.StepDefinitionIDs) {
						case 0:
							got = append(got, "")
						case 1:
							got = append(got, defs[s.StepDefinitionIDs[0]])
						default:
							t.Fatalf("step %s is ambiguous: %v", *s.PickleStepID, s.StepDefinitionIDs)
						}
					}
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("steps matched %q, want %q", got, tc.want)
			}
			for i := range got {
				if (tc.want[i] == "") != (got[i] == "") || !strings.HasPrefix(got[i], tc.want[i]) {
					t.Fatalf("steps matched %q, want %q", got, tc.want)
				}
			}
		})
	}
}
