package e2e

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/examples/godogdemo"
	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world"
)

// TestGodogReport: a godog suite on godogworld writes its run with the
// "message" format; `ferridriver report` renders the official HTML report
// from it, which Chromium opens and which counts the scenarios as the
// run did, and JUnit and Cucumber JSON with the failure screenshot.
func TestGodogReport(t *testing.T) {
	t.Parallel() // long and self-contained (see the package doc)
	testenv.NeedBrowser(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"features/login.feature": `Feature: Login
  Scenario: Logging in
    Given I open "/login"
    When I log in as "demo" with password "secret"
    Then the heading reads "Welcome, demo!"

  Scenario: A wrong password
    Given I open "/login"
    When I log in as "demo" with password "nope"
    Then the heading reads "Welcome, demo!"
`})
	s, err := godogworld.New(godogworld.Options{
		Browser:       world.Config{BaseURL: testenv.DemoApp(t), OutputDir: filepath.Join(dir, "results")},
		ExpectTimeout: 500 * time.Millisecond, Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	var console strings.Builder
	status := godog.TestSuite{
		TestSuiteInitializer: s.TestSuiteInitializer(nil),
		ScenarioInitializer:  s.ScenarioInitializer(godogdemo.InitializeScenario),
		Options: &godog.Options{
			Format: "progress,message:" + filepath.Join(dir, "run.ndjson"), Output: &console, NoColors: true, Strict: true,
			Paths: []string{filepath.Join(dir, "features")},
		},
	}.Run()
	if status != 1 {
		t.Fatalf("godog exit status %d, want 1\n%s", status, console.String())
	}

	res := ferridriver(t, dir, "report", "--from", "run.ndjson",
		"--format", "html:report.html", "--format", "junit:junit.xml", "--format", "json:report.json")
	if res.code != 0 {
		t.Fatalf("report: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}

	var junit struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "junit.xml")); err != nil {
		t.Fatal(err)
	} else if err := xml.Unmarshal(b, &junit); err != nil || junit.Tests != 2 || junit.Failures != 1 {
		t.Errorf("junit: %d tests, %d failures (%v), want 2 and 1", junit.Tests, junit.Failures, err)
	}
	var cuke []struct {
		Elements []struct {
			Name  string `json:"name"`
			Steps []struct {
				Embeddings []struct {
					MimeType string `json:"mime_type"`
				} `json:"embeddings"`
			} `json:"steps"`
		} `json:"elements"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "report.json")); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(b, &cuke); err != nil || len(cuke) != 1 || len(cuke[0].Elements) != 2 {
		t.Fatalf("cucumber json: %v", err)
	}
	shots := 0
	for _, e := range cuke[0].Elements {
		for _, st := range e.Steps {
			for _, em := range st.Embeddings {
				if em.MimeType == "image/png" {
					shots++
				}
			}
		}
	}
	if shots != 1 {
		t.Errorf("cucumber json: %d screenshots, want the failure's", shots)
	}

	// The official renderer, in Chromium.
	l, err := world.NewLauncher(world.Config{OutputDir: t.TempDir()}, world.Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Error(err)
		}
	})
	session := l.NewSession(0, "report")
	defer session.Close(false)
	page, err := session.Page(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := page.Goto("file://" + filepath.Join(dir, "report.html")); err != nil {
		t.Fatal(err)
	}
	if err := page.GetByRole("heading", playwright.PageGetByRoleOptions{Name: "Scenarios"}).WaitFor(); err != nil {
		t.Fatalf("the report's scenario list never showed: %v", err)
	}
	text, err := page.InnerText("body")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`\((\d+) / (\d+)\) passed`).FindStringSubmatch(text); m == nil || m[1] != "1" || m[2] != "2" {
		t.Errorf("the report does not show 1 of 2 scenarios passed: %v\n%.600s", m, text)
	}
	for _, want := range []string{"A wrong password", "Logging in", "godog"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report does not show %q", want)
		}
	}
}
