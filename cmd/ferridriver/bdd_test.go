package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A dry run runs no step, so it starts no [[webServer]]: one whose command
// fails at once makes a real run a usage error and a dry run pass.
func TestDryRunStartsNoWebServer(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"ferridriver.toml":   "[[webServer]]\ncommand = \"exit 3\"\nport = 9\ntimeout = 5000\n",
		"features/a.feature": "Feature: f\n  Scenario: s\n    Given a step\n",
		"steps/steps.js":     "import { Given } from '@cucumber/cucumber'\nGiven('a step', function () {})\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	// The plain run first: cobra keeps flag values between calls.
	if code := run([]string{"bdd"}); code != exitUsage {
		t.Errorf("bdd with a failing web server: exit %d, want %d", code, exitUsage)
	}
	if code := run([]string{"bdd", "--dry-run"}); code != 0 {
		t.Errorf("bdd --dry-run: exit %d, want 0 (the web server must not be started)", code)
	}
}
