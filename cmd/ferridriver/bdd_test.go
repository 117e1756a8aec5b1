package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ferridriver/ferridriver/formatters"
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

// @cucumber/pretty-formatter names the installed formatter package when
// it is a 1.x release (a formatter class), else cucumber-js's pretty;
// other names are left to the formats and the custom formatters.
func TestFormatName(t *testing.T) {
	withRelease := func(version string) string {
		dir := t.TempDir()
		pkg := filepath.Join(dir, "node_modules", "@cucumber", "pretty-formatter")
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"@cucumber/pretty-formatter","version":"`+version+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		sub := filepath.Join(dir, "project")
		if err := os.Mkdir(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		return sub // the package is found up the tree, as Node finds it
	}
	tests := []struct{ dir, name, want string }{
		{withRelease("1.0.1"), "@cucumber/pretty-formatter", "@cucumber/pretty-formatter"},
		{withRelease("4.1.0"), "@cucumber/pretty-formatter", "pretty"},
		{t.TempDir(), "@cucumber/pretty-formatter", "pretty"},
		{t.TempDir(), "./reporter.js", "./reporter.js"},
		{t.TempDir(), "allure-cucumberjs/reporter", "allure-cucumberjs/reporter"},
		{t.TempDir(), "junit", "junit"},
	}
	for _, tc := range tests {
		if got := formatName(tc.dir, formatters.Spec{Name: tc.name, Path: "out.txt"}); got.Name != tc.want || got.Path != "out.txt" {
			t.Errorf("%s in %s: %v, want %s:out.txt", tc.name, tc.dir, got, tc.want)
		}
	}
}
