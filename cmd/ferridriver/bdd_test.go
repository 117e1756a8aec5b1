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

// A limit in MiB from [test] or its flag (the flag wins) becomes the
// runner's bytes: unset is the runner's default (0), 0 MiB no limit (-1).
func TestLimitOption(t *testing.T) {
	mib := func(n int) *int { return &n }
	for _, tc := range []struct {
		key     *int
		flagSet bool
		flag    int
		want    int64
	}{
		{nil, false, 64, 0},
		{mib(8), false, 64, 8 << 20},
		{mib(0), false, 64, -1},
		{mib(8), true, 16, 16 << 20},
		{mib(8), true, 0, -1},
		{nil, true, 2048, 2048 << 20},
	} {
		if got := limitOption(tc.key, tc.flagSet, tc.flag); got != tc.want {
			t.Errorf("limitOption(%v, %v, %d) = %d, want %d", tc.key, tc.flagSet, tc.flag, got, tc.want)
		}
	}
}
