package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// The CI recipes of docs/ci.md are YAML, and use only keys that GitHub
// Actions and GitLab CI know where they put them (a misspelt key is
// ignored or refused by those systems, not here). The GitHub workflow was
// also checked with actionlint, which this test does not run.
func TestCIRecipesAreYAML(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(oracles.Root(), "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) < 4 {
		t.Fatalf("docs/ci.md has %d yaml blocks, want the GitHub and GitLab recipes", len(blocks))
	}
	gitlabJob := []string{"stage", "image", "parallel", "services", "variables", "script", "before_script", "artifacts", "when", "needs"}
	githubJob := []string{"runs-on", "strategy", "steps", "needs", "if", "permissions", "env"}
	check := func(what string, m map[string]any, allowed []string) {
		t.Helper()
		for k := range m {
			if !slices.Contains(allowed, k) {
				t.Errorf("%s: unexpected key %q", what, k)
			}
		}
	}
	var github, gitlab int
	for i, b := range blocks {
		var v map[string]any
		if err := yaml.Unmarshal(b[1], &v); err != nil {
			t.Errorf("yaml block %d does not parse: %v\n%s", i+1, err, b[1])
			continue
		}
		if jobs, ok := v["jobs"].(map[string]any); ok {
			github++
			check("github workflow", v, []string{"name", "on", "jobs"})
			for name, job := range jobs {
				check("github job "+name, job.(map[string]any), githubJob)
			}
			continue
		}
		gitlab++
		for name, job := range v {
			switch name {
			case "stages":
				continue
			case "default":
				check("gitlab default", job.(map[string]any), []string{"image", "before_script"})
				continue
			}
			j := job.(map[string]any)
			check("gitlab job "+name, j, gitlabJob)
			if _, ok := j["script"]; !ok {
				t.Errorf("gitlab job %s has no script", name)
			}
			services, _ := j["services"].([]any)
			for _, s := range services {
				check("gitlab service", s.(map[string]any), []string{"name", "alias", "entrypoint", "command", "variables"})
			}
		}
	}
	if github < 2 || gitlab < 2 {
		t.Errorf("%d GitHub and %d GitLab recipes, want 2 of each", github, gitlab)
	}
}
