package godogworld_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cucumber/godog"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/examples/godogdemo"
	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/godogworld/internal/godogtest"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world"
)

// goSteps are the Go steps of examples/godogdemo, written against the
// World: I open "<path>", I log in as "<user>" with password "<password>",
// the heading reads "<text>", the counter reads "<text>".
var goSteps = godogdemo.InitializeScenario

const loginFeature = `Feature: Login
  Scenario: Logging in
    Given I open "/login"
    When I log in as "demo" with password "secret"
    Then the heading reads "Welcome, demo!"
    And every scenario has its own page

  Scenario: A new scenario is logged out
    Given I open "/welcome"
    Then the heading reads "Log in"
    And every scenario has its own page
`

// TestGoSteps runs a godog suite whose Go steps use the World against the
// demo app: relative URLs resolve against baseURL, Expect retries until
// the page shows the text, and each scenario gets a fresh context (the
// login cookie of the first is not in the second) that is closed once the
// scenario is over.
func TestGoSteps(t *testing.T) {
	testenv.NeedBrowser(t)
	s, err := godogworld.New(godogworld.Options{Browser: world.Config{BaseURL: testenv.DemoApp(t), OutputDir: t.TempDir()}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var pages []playwright.Page
	contexts := map[playwright.BrowserContext]bool{}
	var hookErrs []string
	status, _, report := godogtest.Run(t, s, map[string]string{"login.feature": loginFeature}, 1, func(sc *godog.ScenarioContext) {
		// The suite's own hooks run inside the Suite's: its Before hooks
		// find the page open, and so do its After hooks.
		sc.Before(func(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
			if w := godogworld.FromContext(ctx); w == nil || w.Page.URL() != "about:blank" {
				hookErrs = append(hookErrs, "a Before hook has no fresh page")
			}
			return ctx, nil
		})
		sc.After(func(ctx context.Context, _ *godog.Scenario, _ error) (context.Context, error) {
			if w := godogworld.FromContext(ctx); w == nil || w.Page.IsClosed() {
				hookErrs = append(hookErrs, "an After hook has no open page")
			}
			return ctx, nil
		})
		goSteps(sc)
		sc.Step(`^every scenario has its own page$`, func(ctx context.Context) error {
			w := godogworld.MustFromContext(ctx)
			mu.Lock()
			defer mu.Unlock()
			if contexts[w.Context] || w.Page.Context() != w.Context {
				return fmt.Errorf("the scenario's context is not its own")
			}
			for _, p := range pages {
				if !p.IsClosed() {
					return fmt.Errorf("the page of an earlier scenario is still open")
				}
			}
			contexts[w.Context] = true
			pages = append(pages, w.Page)
			return nil
		})
	}, "")
	if status != 0 {
		t.Fatalf("godog exit status %d: %+v", status, report)
	}
	for _, name := range []string{"Logging in", "A new scenario is logged out"} {
		for _, st := range godogtest.ScenarioSteps(t, report, name) {
			if st.Result.Status != "passed" || len(st.Embeddings) != 0 {
				t.Errorf("%s / %s: %s with %d attachments %s", name, st.Name, st.Result.Status, len(st.Embeddings), st.Result.Error)
			}
		}
	}
	if len(hookErrs) > 0 {
		t.Error(hookErrs)
	}
	if len(contexts) != 2 {
		t.Errorf("%d contexts for 2 scenarios", len(contexts))
	}
	if godogworld.FromContext(context.Background()) != nil {
		t.Error("FromContext outside a scenario is not nil")
	}
}

// TestFailedStepScreenshot: the step that fails gets one PNG of the page
// in godog's cucumber JSON (screenshot = only-on-failure, the default);
// the steps before it have no attachment, the one after it is skipped;
// the report is valid Cucumber JSON for the official converter.
func TestFailedStepScreenshot(t *testing.T) {
	testenv.NeedBrowser(t)
	s, err := godogworld.New(godogworld.Options{
		Browser: world.Config{BaseURL: testenv.DemoApp(t), OutputDir: t.TempDir(), Viewport: &world.Viewport{Width: 800, Height: 600}},
		// Expect retries for 300 ms before the step fails.
		ExpectTimeout: 300 * time.Millisecond, Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	status, raw, report := godogtest.Run(t, s, map[string]string{"login.feature": `Feature: Login
  Scenario: A wrong expectation
    Given I open "/login"
    Then the heading reads "Welcome, nobody!"
    And I open "/welcome"
`}, 1, goSteps, "")
	if status != 1 {
		t.Fatalf("godog exit status %d, want 1 (failure)", status)
	}
	steps := godogtest.ScenarioSteps(t, report, "A wrong expectation")
	if len(steps) != 3 {
		t.Fatalf("%d steps", len(steps))
	}
	if st := steps[0]; st.Result.Status != "passed" || len(st.Embeddings) != 0 {
		t.Errorf("first step: %s with %d attachments", st.Result.Status, len(st.Embeddings))
	}
	failed := steps[1]
	if failed.Result.Status != "failed" || !strings.Contains(failed.Result.Error, "Welcome, nobody!") {
		t.Errorf("failing step: %s %q", failed.Result.Status, failed.Result.Error)
	}
	if len(failed.Embeddings) != 1 {
		t.Fatalf("failing step has %d attachments, want the screenshot", len(failed.Embeddings))
	}
	e := failed.Embeddings[0]
	if e.MimeType != "image/png" || e.Name != "failure.png" {
		t.Errorf("attachment %s %s", e.Name, e.MimeType)
	}
	body, err := base64.StdEncoding.DecodeString(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if cfg.Width != 800 || cfg.Height != 600 {
		t.Errorf("screenshot is %dx%d, want the 800x600 viewport", cfg.Width, cfg.Height)
	}
	if steps[2].Result.Status != "skipped" {
		t.Errorf("step after the failure: %s", steps[2].Result.Status)
	}
	godogtest.ValidateCucumberJSON(t, raw)
}

// TestScreenshotModes: screenshot = on attaches the page at the end of
// every scenario (to its last step), and a failing scenario gets one
// screenshot, the failure's; off attaches nothing, not even for a
// failure. trace = retain-on-failure links the failed scenario's trace.
func TestScreenshotModes(t *testing.T) {
	testenv.NeedBrowser(t)
	base := testenv.DemoApp(t)
	feature := `Feature: Modes
  Scenario: Passing
    Given I open "/login"
    Then the heading reads "Log in"

  Scenario: Failing
    Given I open "/login"
    Then the heading reads "Not this"
`
	for _, tc := range []struct {
		screenshot, trace world.Mode
		passing, failing  []string // attachment names of the last step
	}{
		{world.ModeOn, world.ModeRetainOnFailure, []string{"screenshot.png"}, []string{"failure.png", "trace.zip"}},
		{world.ModeOff, world.ModeOff, nil, nil},
	} {
		t.Run(string(tc.screenshot), func(t *testing.T) {
			out := t.TempDir()
			s, err := godogworld.New(godogworld.Options{
				Browser:       world.Config{BaseURL: base, OutputDir: out, Screenshot: tc.screenshot, Trace: tc.trace},
				ExpectTimeout: 300 * time.Millisecond, Logf: t.Logf,
			})
			if err != nil {
				t.Fatal(err)
			}
			_, _, report := godogtest.Run(t, s, map[string]string{"modes.feature": feature}, 1, goSteps, "")
			for name, want := range map[string][]string{"Passing": tc.passing, "Failing": tc.failing} {
				steps := godogtest.ScenarioSteps(t, report, name)
				var got []string
				for _, e := range steps[len(steps)-1].Embeddings {
					got = append(got, e.Name)
					if e.Name != "trace.zip" {
						continue
					}
					link, _ := base64.StdEncoding.DecodeString(e.Data)
					path := strings.TrimPrefix(string(link), "file://")
					if e.MimeType != "text/uri-list" || !strings.HasPrefix(path, out) {
						t.Errorf("trace link %s %s", e.MimeType, link)
					} else if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
						t.Errorf("trace %s: %v", path, err)
					}
				}
				if strings.Join(got, ",") != strings.Join(want, ",") {
					t.Errorf("%s: last step's attachments %v, want %v", name, got, want)
				}
			}
		})
	}
}

// TestStepContext: a step waiting on a Playwright call ends promptly when
// its context is done (the scenario's deadline, a cancel, the step
// timeout), not after Playwright's 30 s (one Suite serves three godog
// runs): the click on an element that
// never appears returns within a second of the deadline, the step fails
// with the context's error and one failure screenshot, and the next
// scenario runs normally. A step may return a context derived from its
// own: with StepTimeout, the next steps are not bound by its deadline.
func TestStepContext(t *testing.T) {
	testenv.NeedBrowser(t)
	base := testenv.DemoApp(t)
	type ended struct {
		at, deadline time.Time // when the click returned; the step's deadline
		err          error
	}
	// One Suite (one browser) serves the runs; the step timeout is 2 s.
	s, err := godogworld.New(godogworld.Options{
		Browser: world.Config{BaseURL: base, OutputDir: t.TempDir()}, StepTimeout: 2 * time.Second, Logf: t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	run := func(t *testing.T, defaultCtx context.Context, onClick func(), feature string) (int, []godogtest.Feature, []ended) {
		t.Helper()
		var mu sync.Mutex
		var clicks []ended
		var out bytes.Buffer
		var cancels []context.CancelFunc
		status := godog.TestSuite{
			ScenarioInitializer: s.ScenarioInitializer(func(sc *godog.ScenarioContext) {
				goSteps(sc)
				sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
					for _, tag := range p.Tags {
						if tag.Name == "@deadline" { // a 1 s deadline on the scenario's context
							ctx, cancel := context.WithTimeout(ctx, time.Second)
							mu.Lock()
							cancels = append(cancels, cancel)
							mu.Unlock()
							return ctx, nil
						}
					}
					return ctx, nil
				})
				sc.Step(`^I click a button that never appears$`, func(ctx context.Context) error {
					if onClick != nil {
						onClick()
					}
					err := godogworld.MustFromContext(ctx).Page.Locator("#never").Click()
					deadline, _ := ctx.Deadline()
					mu.Lock()
					clicks = append(clicks, ended{time.Now(), deadline, err})
					mu.Unlock()
					return err
				})
				sc.Step(`^I keep a value in the context$`, func(ctx context.Context) (context.Context, error) {
					return context.WithValue(ctx, struct{}{}, "kept"), nil
				})
				sc.Step(`^I work for (\d+) ms$`, func(ctx context.Context, ms int) error {
					select {
					case <-time.After(time.Duration(ms) * time.Millisecond):
						if ctx.Value(struct{}{}) != "kept" {
							return errors.New("the value of an earlier step is gone")
						}
						return nil
					case <-ctx.Done():
						return fmt.Errorf("the step's context ended: %w", ctx.Err())
					}
				})
			}),
			Options: &godog.Options{
				Format: "cucumber", Output: &out, NoColors: true, Strict: true, DefaultContext: defaultCtx,
				FeatureContents: []godog.Feature{{Name: "ctx.feature", Contents: []byte(feature)}},
			},
		}.Run()
		for _, c := range cancels {
			c()
		}
		report := parse(t, out.Bytes())
		return status, report, clicks
	}
	checkAborted := func(t *testing.T, report []godogtest.Feature, scenario string, want error, wantText string) {
		t.Helper()
		steps := godogtest.ScenarioSteps(t, report, scenario)
		st := steps[1]
		if st.Result.Status != "failed" || !strings.Contains(st.Result.Error, wantText) || !strings.Contains(st.Result.Error, want.Error()) {
			t.Errorf("%s: the click step %s: %q, want the context's error %q", scenario, st.Result.Status, st.Result.Error, wantText)
		}
		if len(st.Embeddings) != 1 || st.Embeddings[0].Name != "failure.png" {
			t.Errorf("%s: the click step's attachments: %d, want the failure screenshot", scenario, len(st.Embeddings))
		}
		if steps[2].Result.Status != "skipped" {
			t.Errorf("%s: the step after the click: %s", scenario, steps[2].Result.Status)
		}
	}

	t.Run("scenario deadline", func(t *testing.T) {
		status, report, clicks := run(t, nil, nil, `Feature: Deadline
  @deadline
  Scenario: A click past the deadline
    Given I open "/login"
    When I click a button that never appears
    Then the heading reads "Log in"

  Scenario: The next scenario
    Given I open "/login"
    Then the heading reads "Log in"
`)
		if status != 1 || len(clicks) != 1 {
			t.Fatalf("status %d, %d clicks", status, len(clicks))
		}
		if c := clicks[0]; c.at.Sub(c.deadline) > time.Second || c.err == nil {
			t.Errorf("the click returned %v after the deadline (%v), want within 1 s with an error", c.at.Sub(c.deadline), c.err)
		}
		checkAborted(t, report, "A click past the deadline", context.DeadlineExceeded, "the step's context is done")
		for _, st := range godogtest.ScenarioSteps(t, report, "The next scenario") {
			if st.Result.Status != "passed" {
				t.Errorf("the next scenario: %s %s %s", st.Name, st.Result.Status, st.Result.Error)
			}
		}
	})

	t.Run("step timeout", func(t *testing.T) {
		status, report, clicks := run(t, nil, nil, `Feature: Step timeout
  Scenario: Steps that keep a context
    Given I keep a value in the context
    When I work for 1200 ms
    And I work for 1200 ms
    Then I work for 100 ms

  Scenario: A click past the step timeout
    Given I open "/login"
    When I click a button that never appears
    Then the heading reads "Log in"
`)
		if status != 1 || len(clicks) != 1 {
			t.Fatalf("status %d, %d clicks", status, len(clicks))
		}
		if c := clicks[0]; c.at.Sub(c.deadline) > time.Second || c.err == nil {
			t.Errorf("the click returned %v after the step timeout (%v), want within 1 s with an error", c.at.Sub(c.deadline), c.err)
		}
		checkAborted(t, report, "A click past the step timeout", context.DeadlineExceeded, "Options.StepTimeout = 2s")
		for _, st := range godogtest.ScenarioSteps(t, report, "Steps that keep a context") {
			if st.Result.Status != "passed" {
				t.Errorf("%s: %s %s (the step timeout of an earlier step reached a later one?)", st.Name, st.Result.Status, st.Result.Error)
			}
		}
	})

	t.Run("cancel", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var cancelled time.Time
		onClick := func() { // the run is cancelled 500 ms into the click
			cancelled = time.Now().Add(500 * time.Millisecond)
			time.AfterFunc(500*time.Millisecond, cancel)
		}
		status, report, clicks := run(t, ctx, onClick, `Feature: Cancel
  Scenario: A click when the run is cancelled
    Given I open "/login"
    When I click a button that never appears
    Then the heading reads "Log in"
`)
		if status != 1 || len(clicks) != 1 {
			t.Fatalf("status %d, %d clicks", status, len(clicks))
		}
		if c := clicks[0]; c.at.Sub(cancelled) > time.Second || c.err == nil {
			t.Errorf("the click returned %v after the cancel (%v), want within 1 s with an error", c.at.Sub(cancelled), c.err)
		}
		checkAborted(t, report, "A click when the run is cancelled", context.Canceled, "the step's context is done")
	})
}

// TestMissingWrapper: a suite that forgot to wrap its ScenarioInitializer
// gets a failure that says so, not a nil-pointer panic.
func TestMissingWrapper(t *testing.T) {
	var out bytes.Buffer
	status := godog.TestSuite{
		ScenarioInitializer: func(sc *godog.ScenarioContext) { goSteps(sc) }, // not wrapped by a Suite
		Options: &godog.Options{
			Format: "cucumber", Output: &out, NoColors: true, Strict: true,
			FeatureContents: []godog.Feature{{Name: "x.feature", Contents: []byte("Feature: X\n  Scenario: Y\n    Given I open \"/login\"\n")}},
		},
	}.Run()
	if status != 1 {
		t.Fatalf("status %d", status)
	}
	st := godogtest.ScenarioSteps(t, parse(t, out.Bytes()), "Y")[0]
	if want := "must be wrapped by the Suite's (ScenarioInitializer: suite.ScenarioInitializer(InitializeScenario))"; st.Result.Status != "failed" || !strings.Contains(st.Result.Error, want) || strings.Contains(st.Result.Error, "nil pointer") {
		t.Errorf("step %s: %q", st.Result.Status, st.Result.Error)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "ScenarioInitializer") {
			t.Errorf("MustFromContext outside a scenario: %v", r)
		}
	}()
	godogworld.MustFromContext(context.Background())
}

// TestNewErrors: New reports a bad configuration once, with its key.
func TestNewErrors(t *testing.T) {
	for _, tc := range []struct {
		opts godogworld.Options
		want string
	}{
		{godogworld.Options{Browser: world.Config{Browser: "netscape"}}, `[browser] browser: "netscape" is not a browser (want chromium, firefox or webkit)`},
		{godogworld.Options{Browser: world.Config{Screenshot: "sometimes"}}, `[browser] screenshot: "sometimes" (want off, on or only-on-failure)`},
		{godogworld.Options{StepTimeout: -time.Second}, "godogworld: Options.StepTimeout is negative (-1s)"},
	} {
		_, err := godogworld.New(tc.opts)
		if err == nil || err.Error() != tc.want {
			t.Errorf("New: %v\nwant: %s", err, tc.want)
		}
	}
}

type fakeT struct {
	deadline time.Time
	ok       bool
	cleanups []func()
}

func (f *fakeT) Deadline() (time.Time, bool) { return f.deadline, f.ok }
func (f *fakeT) Cleanup(fn func())           { f.cleanups = append(f.cleanups, fn) }

// TestTestContext: the context ends before go test's deadline (5 s, or a
// tenth of the time left), with a cause that says why; without one it
// ends with the test.
func TestTestContext(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		left, margin time.Duration
	}{{10 * time.Minute, 5 * time.Second}, {20 * time.Second, 2 * time.Second}} {
		ft := &fakeT{deadline: now.Add(tc.left), ok: true}
		ctx := godogworld.TestContext(ft)
		d, ok := ctx.Deadline()
		if got := ft.deadline.Sub(d); !ok || got < tc.margin-100*time.Millisecond || got > tc.margin {
			t.Errorf("%v left: the context ends %v before the test's deadline, want %v", tc.left, got, tc.margin)
		}
		for _, c := range ft.cleanups {
			c()
		}
		if ctx.Err() == nil {
			t.Error("the context outlives the test")
		}
	}
	ft := &fakeT{}
	ctx := godogworld.TestContext(ft)
	if _, ok := ctx.Deadline(); ok || ctx.Err() != nil || len(ft.cleanups) != 1 {
		t.Fatalf("without a deadline: %v", ctx.Err())
	}
	ft.cleanups[0]()
	if ctx.Err() == nil {
		t.Error("the context outlives the test")
	}
}

func parse(t *testing.T, raw []byte) []godogtest.Feature {
	t.Helper()
	var report []godogtest.Feature
	if err := json.Unmarshal(raw, &report); err != nil {
		t.Fatalf("godog's cucumber report is not JSON: %v\n%s", err, raw)
	}
	return report
}
