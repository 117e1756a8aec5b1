package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// ferridriver bdd keeps esbuild's output in its cache of bundles: a step
// file edited between two runs, even at once and to the same size, is what
// the second run runs; FERRIDRIVER_BUNDLE_CACHE=off runs without the cache.
func TestBundleCacheSeesEdits(t *testing.T) {
	dir := t.TempDir()
	cache := filepath.Join(t.TempDir(), "bundles")
	step := func(word string) string {
		return "import { Given } from '@cucumber/cucumber'\nGiven('a step', function () { console.log('" + word + "') })\n"
	}
	testenv.WriteFiles(t, dir, map[string]string{
		"features/a.feature": "Feature: f\n  Scenario: s\n    Given a step\n",
		"steps/s.ts":         step("first"),
	})
	run := func(env ...string) string {
		t.Helper()
		t.Setenv("FERRIDRIVER_BUNDLE_CACHE", cache)
		for _, e := range env {
			k, v, _ := strings.Cut(e, "=")
			t.Setenv(k, v)
		}
		r := ferridriver(t, dir, "bdd", "--format", "summary")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		return r.stdout
	}
	if out := run(); !strings.Contains(out, "first") {
		t.Errorf("first run: %s", out)
	}
	if entries, _ := filepath.Glob(filepath.Join(cache, "*.js")); len(entries) == 0 {
		t.Errorf("nothing in the cache after a run")
	}
	if out := run(); !strings.Contains(out, "first") {
		t.Errorf("second run: %s", out)
	}
	if err := os.WriteFile(filepath.Join(dir, "steps/s.ts"), []byte(step("later")), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := run(); !strings.Contains(out, "later") || strings.Contains(out, "first") {
		t.Errorf("after the edit: %s", out)
	}
	testenv.WriteFiles(t, dir, map[string]string{"steps/s.ts": step("third")})
	os.RemoveAll(cache)
	if out := run("FERRIDRIVER_BUNDLE_CACHE=off"); !strings.Contains(out, "third") {
		t.Errorf("without the cache: %s", out)
	}
	if _, err := os.Stat(cache); err == nil {
		t.Errorf("FERRIDRIVER_BUNDLE_CACHE=off created the cache")
	}
}
