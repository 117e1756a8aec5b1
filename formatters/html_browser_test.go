package formatters_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/world"
)

// TestHTMLRendersInChromium opens our html reports in headless Chromium
// through the project's browser layer, waits for the scenario list, checks
// the number of scenarios the page shows, and keeps a screenshot of each
// under test-results/formatters/.
func TestHTMLRendersInChromium(t *testing.T) {
	testenv.NeedBrowser(t)
	t.Setenv(formatters.EnvHTMLFormatter, filepath.Join(oracles.NodeModules(t), "@cucumber", "html-formatter"))
	shots := filepath.Join(oracles.Root(), "test-results", "formatters")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := world.NewLauncher(world.Config{OutputDir: t.TempDir()}, world.Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("close the browser: %v", err)
		}
	})
	passedOf := regexp.MustCompile(`\((\d+) / (\d+)\) passed`)
	for _, sample := range []string{"examples-tables", "rules", "retry", "attachments", "hooks", "undefined", "examples-tables-interrupted"} {
		t.Run(sample, func(t *testing.T) {
			envs := cck(t, sample)
			page := filepath.Join(t.TempDir(), sample+".html")
			render(t, envs, page)

			s := l.NewSession(0, sample)
			defer s.Close(false)
			p, err := s.Page(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.Goto("file://" + page); err != nil {
				t.Fatal(err)
			}
			if err := p.GetByRole("heading", playwright.PageGetByRoleOptions{Name: "Scenarios"}).WaitFor(); err != nil {
				t.Fatalf("the scenario list never showed: %v", err)
			}
			if _, err := p.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(filepath.Join(shots, "html-"+sample+".png")), FullPage: playwright.Bool(true)}); err != nil {
				t.Fatal(err)
			}
			text, err := p.InnerText("body")
			if err != nil {
				t.Fatal(err)
			}
			m := passedOf.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("no “(passed / total) passed” on the page:\n%.500s", text)
			}
			passed, total := expectedCounts(envs)
			if got := fmt.Sprintf("%s/%s", m[1], m[2]); got != fmt.Sprintf("%d/%d", passed, total) {
				t.Errorf("page shows %s scenarios passed, want %d/%d", got, passed, total)
			}
		})
	}
}

// cck reads a CCK sample stream; "<sample>-interrupted" cuts it after a
// random testStepStarted and ends it as an interrupted run.
func cck(t *testing.T, sample string) []*messages.Envelope {
	name, interrupted := sample, false
	if n := len(sample) - len("-interrupted"); n > 0 && sample[n:] == "-interrupted" {
		name, interrupted = sample[:n], true
	}
	envs := oracles.CCKStream(t, name)
	if !interrupted {
		return envs
	}
	var starts []int
	for i, e := range envs {
		if e.TestStepStarted != nil {
			starts = append(starts, i)
		}
	}
	cut := starts[rand.New(rand.NewSource(3)).Intn(len(starts))]
	ts := envs[cut].TestStepStarted.Timestamp
	return append(envs[:cut+1:cut+1], &messages.Envelope{TestRunFinished: &messages.TestRunFinished{Timestamp: ts}})
}

func render(t *testing.T, envs []*messages.Envelope, path string) {
	set, err := formatters.NewSet([]formatters.Spec{{Name: "html", Path: path}}, formatters.Options{}, nil, os.Stderr, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs {
		set.Handle(e)
	}
	set.Close()
	if set.Failed() {
		t.Fatal("html format failed")
	}
}

// expectedCounts: the scenarios (final attempts) of the stream and how
// many of them passed, as the official report counts them: by their worst
// step result so far, so a scenario interrupted after passing steps counts
// as passed there.
func expectedCounts(envs []*messages.Envelope) (passed, total int) {
	q := query.New()
	for _, e := range envs {
		q.Update(e)
	}
	for _, tcs := range q.AllTestCaseStarted() {
		total++
		if r := q.MostSevereResult(tcs.ID); r != nil && r.Status == messages.TestStepResultStatusPassed || r == nil && q.TestCaseFinished(tcs.ID) != nil {
			passed++
		}
	}
	return passed, total
}
