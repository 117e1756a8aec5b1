// Package godogworld gives godog suites (github.com/cucumber/godog)
// ferridriver's browser World, so that a Go team keeps godog as its runner
// and writes steps in Go against a real browser page.
//
// A Suite owns ferridriver's shared browser launcher (the same browser
// discovery, launch flags and [browser] configuration as `ferridriver bdd`,
// remote `connect`/`connectOverCDP` included). Wrapped around godog's
// initializers, it gives every scenario a fresh browser context and page,
// closed when the scenario ends; a failed step gets a screenshot of the
// page attached through godog's attachment API (godog.Attach). Step
// functions reach the scenario's page with MustFromContext:
//
//	suite := godog.TestSuite{
//		TestSuiteInitializer: fd.TestSuiteInitializer(nil),
//		ScenarioInitializer: fd.ScenarioInitializer(func(sc *godog.ScenarioContext) {
//			sc.Step(`^I open the login page$`, func(ctx context.Context) error {
//				_, err := godogworld.MustFromContext(ctx).Page.Goto("/login")
//				return err
//			})
//		}),
//	}
//
// When a step's context is done (a deadline, a cancel, Options.StepTimeout)
// the scenario's browser context is closed, so the Playwright calls the
// step is waiting on end at once, and the step fails with the context's
// error (see Options.StepTimeout and TestContext).
//
// The package depends on godog, playwright-go and ferridriver's world
// package only. The project's JavaScript and TypeScript steps and
// ferridriver.toml loading are in package godogworld/jssteps, which a
// team imports when it wants them. Importing godogworld also registers
// the godog formatter "message" (Cucumber Messages NDJSON, which
// `ferridriver report` renders as HTML, JUnit and Cucumber JSON), and
// Suite.RunWithRetries runs failed scenarios again. docs/godog.md says
// where godog's semantics differ from `ferridriver bdd`.
package godogworld

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/cucumber/godog"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/install"
)

// Options configure a Suite. The zero value is valid: a headless Chromium
// found on the machine, no base URL, Playwright's timeouts.
type Options struct {
	// Browser is the [browser] configuration: which browser and how it is
	// launched or connected to, baseURL, viewport, screenshot and trace
	// modes (world.ModeOn...). Its timeouts are Playwright's milliseconds;
	// ActionTimeout and NavigationTimeout below set them as durations.
	Browser world.Config

	// ExpectTimeout is how long World.Expect assertions retry; zero is
	// Playwright's default (5 s).
	ExpectTimeout time.Duration
	// ActionTimeout and NavigationTimeout, when positive, replace
	// Browser.ActionTimeout and Browser.NavigationTimeout: the default
	// timeout of every Playwright action (click, fill...) and navigation
	// (goto, reload...) on the scenario's context. Zero keeps Browser's
	// (unset there: Playwright's 30 s).
	ActionTimeout, NavigationTimeout time.Duration
	// StepTimeout, when positive, is the default timeout of every step:
	// the step's context.Context gets this deadline, and when it passes
	// the step fails as for any done context (see Suite). Zero: steps
	// have no timeout of their own (the scenario's context still applies).
	StepTimeout time.Duration

	// Plugins add step definitions and per-scenario work to the Suite
	// (package godogworld/jssteps adds the project's JavaScript steps
	// this way). Most suites have none.
	Plugins []Plugin

	// Logf receives browser events (launch, crash, relaunch) and problems
	// met while closing. Nil: they go to os.Stderr.
	Logf func(format string, args ...any)

	// InstallDriver, when set, provides the Playwright driver when it is
	// not installed yet: install.EnsureDriver (package
	// github.com/ferridriver/ferridriver/world/install) downloads it from
	// the npm registry on first use. Nil: the driver must be installed
	// (`ferridriver install`), which keeps net/http and TLS, about 3 MB,
	// out of the test binary. jssteps.LoadOptions sets it.
	InstallDriver func(ctx context.Context, opts install.Options) (*install.Driver, error)
}

// acquireTimeout bounds the wait for a scenario's page (the first one also
// starts the driver and launches or connects to the browser).
const acquireTimeout = 2 * time.Minute

// Suite is ferridriver's part of a godog test suite: the shared browser
// and the Plugins. Its initializers are safe for godog's concurrent
// scenarios (Concurrency > 1). Nothing is started until the first
// scenario begins.
//
// Context: when the context.Context of a running step is done (its
// deadline passed, it was cancelled, or Options.StepTimeout passed), the
// Suite takes the failure screenshot and closes the scenario's browser
// context at once: every Playwright call pending on its pages (a click
// waiting for an element, an Expect assertion, a navigation) returns an
// error within moments, and the step fails with an error that wraps the
// context's (errors.Is(err, context.DeadlineExceeded)), whatever the step
// function returned. The scenario's remaining steps are skipped, as after
// any failure. A step whose context is already done does not run.
type Suite struct {
	opts     Options
	launcher *world.Launcher
	steps    []pluginStep

	mu     sync.Mutex
	closed bool
	slots  []*slot
	free   []*slot
	open   map[*scenario]bool

	// holdOpen: TestSuiteInitializer's AfterSuite leaves the Suite open
	// (RunWithRetries runs its attempts and closes it).
	holdOpen bool
	// initialized: a godog run used TestSuiteInitializer.
	initialized bool
	// failed are the scenarios that did not pass since the last
	// takeFailed, with their errors.
	failed []failure
}

// failure is a scenario that did not pass, for RunWithRetries.
type failure struct {
	pickle *godog.Scenario
	err    error
}

// pluginStep is one step definition of a plugin.
type pluginStep struct {
	plugin int
	index  int
	def    PluginStep
}

// New validates opts and returns a Suite that has started no browser yet.
// A bad [browser] configuration is reported with its key.
func New(opts Options) (*Suite, error) {
	if opts.Logf == nil {
		opts.Logf = func(format string, args ...any) {
			fmt.Fprintf(os.Stderr, "ferridriver: "+format+"\n", args...)
		}
	}
	for name, d := range map[string]time.Duration{"ExpectTimeout": opts.ExpectTimeout, "ActionTimeout": opts.ActionTimeout, "NavigationTimeout": opts.NavigationTimeout, "StepTimeout": opts.StepTimeout} {
		if d < 0 {
			return nil, fmt.Errorf("godogworld: Options.%s is negative (%v)", name, d)
		}
	}
	cfg := opts.Browser
	if opts.ActionTimeout > 0 {
		cfg.ActionTimeout = playwright.Float(millis(opts.ActionTimeout))
	}
	if opts.NavigationTimeout > 0 {
		cfg.NavigationTimeout = playwright.Float(millis(opts.NavigationTimeout))
	}
	opts.Browser = cfg
	// The Suite takes both screenshots itself, of World.Page: the
	// session's own end-of-scenario one would repeat the failure one.
	cfg.Screenshot = world.ModeOff
	if err := opts.Browser.Validate(); err != nil {
		return nil, err
	}
	l, err := world.NewLauncher(cfg, world.Options{Logf: opts.Logf, InstallDriver: opts.InstallDriver})
	if err != nil {
		return nil, err
	}
	s := &Suite{opts: opts, launcher: l, open: map[*scenario]bool{}}
	for p, pl := range opts.Plugins {
		for i, def := range pl.Steps() {
			s.steps = append(s.steps, pluginStep{plugin: p, index: i, def: def})
		}
	}
	return s, nil
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// TestSuiteInitializer returns a godog TestSuiteInitializer that runs next
// (which may be nil) and closes the Suite after the suite has run (see
// Close). A Suite serves one godog run when used this way (RunWithRetries
// keeps it open for its attempts).
func (s *Suite) TestSuiteInitializer(next func(*godog.TestSuiteContext)) func(*godog.TestSuiteContext) {
	return func(tsc *godog.TestSuiteContext) {
		s.mu.Lock()
		s.initialized = true
		s.mu.Unlock()
		if next != nil {
			next(tsc)
		}
		tsc.AfterSuite(func() {
			s.mu.Lock()
			hold := s.holdOpen
			s.mu.Unlock()
			if hold {
				return
			}
			if err := s.Close(); err != nil {
				s.opts.Logf("closing the browser: %v", err)
			}
		})
	}
}

// ScenarioInitializer returns a godog ScenarioInitializer that wraps next
// (the suite's own, which may be nil) like a fixture: its Before hook runs
// first and gives the scenario its page, so next's Before hooks and steps
// can use MustFromContext; the plugins' steps are registered after next's
// steps (godog runs the first definition that matches, so a Go step wins
// over a JavaScript one with the same text); its After hook runs last:
// the plugins' end of the scenario, then the page's context is closed,
// after next's After hooks have used it. A failed step gets a screenshot
// of World.Page attached (unless [browser] screenshot = "off").
func (s *Suite) ScenarioInitializer(next func(*godog.ScenarioContext)) func(*godog.ScenarioContext) {
	return func(sc *godog.ScenarioContext) {
		sc.Before(s.beforeScenario)
		sc.StepContext().Before(s.beforeStep)
		sc.StepContext().After(s.afterStep)
		if next != nil {
			next(sc)
		}
		for _, ps := range s.steps {
			sc.Step(ps.def.Expr, s.pluginStepFunc(ps))
			setStepLocation(sc, ps.def.File, ps.def.Line)
		}
		// Registered last, so it sees the context the step function gets,
		// after every BeforeStep hook of next.
		sc.StepContext().Before(s.armStep)
		sc.After(s.afterScenario)
	}
}

// Close ends the Suite: the page of any scenario still open is closed,
// the plugins' workers and the plugins are closed, then the browser and
// the driver (no browser process outlives it). It is idempotent;
// scenarios that begin afterwards fail.
func (s *Suite) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	var left []*scenario
	for sc := range s.open {
		left = append(left, sc)
	}
	slots := s.slots
	s.mu.Unlock()
	var errs []error
	for _, sc := range left {
		if _, err := sc.end(errors.New("the suite closed before the scenario ended")); err != nil {
			errs = append(errs, err)
		}
	}
	for _, sl := range slots {
		for _, w := range sl.workers {
			if w == nil {
				continue
			}
			if err := w.Close(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	for _, p := range s.opts.Plugins {
		if err := p.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := s.launcher.Close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// slot is one concurrently running scenario's share of the Suite: a
// worker id for the launcher and a worker of each plugin. A scenario takes
// a free slot for its whole run, so a plugin's worker (a VM) only ever
// runs one scenario at a time; the Suite's mutex orders the hand-overs
// between godog's goroutines.
type slot struct {
	id      int
	workers []PluginWorker // by plugin; complete once acquire returned
}

func (s *Suite) acquire() (*slot, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errors.New("godogworld: the Suite is closed")
	}
	if n := len(s.free); n > 0 {
		sl := s.free[n-1]
		s.free = s.free[:n-1]
		s.mu.Unlock()
		return sl, nil
	}
	sl := &slot{id: len(s.slots), workers: make([]PluginWorker, len(s.opts.Plugins))}
	s.slots = append(s.slots, sl)
	s.mu.Unlock()
	for i, p := range s.opts.Plugins {
		w, err := p.NewWorker(sl.id, s.launcher)
		if err != nil {
			// The slot is dropped (its id is not reused); Close closes
			// the workers it got.
			return nil, err
		}
		sl.workers[i] = w
	}
	return sl, nil
}

// release hands sl back.
func (s *Suite) release(sl *slot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.free = append(s.free, sl)
}

// scenario is the state of one running scenario.
type scenario struct {
	suite   *Suite
	slot    *slot
	session *world.Session
	world   *World
	pickle  *godog.Scenario
	plugin  *PluginScenario
	// context is the scenario's browser context (World.Context may be
	// replaced by a step).
	context playwright.BrowserContext

	mu    sync.Mutex
	ended bool
	// step is the step godog is running (set by the first BeforeStep
	// hook), given to plugin steps.
	step *godog.Step
	// watch is the running step's context watcher (armStep, afterStep).
	watch *stepWatch
	// shot: a failure screenshot was attached (the end-of-scenario one of
	// screenshot = on is then not taken).
	shot bool
	// aborted is the cause when a step's context ended while it ran (the
	// browser context was closed then).
	aborted error
}

type scenarioKey struct{}

func scenarioFrom(ctx context.Context) *scenario {
	sc, _ := ctx.Value(scenarioKey{}).(*scenario)
	return sc
}

func (s *Suite) beforeScenario(ctx context.Context, pickle *godog.Scenario) (context.Context, error) {
	sl, err := s.acquire()
	if err != nil {
		return ctx, err
	}
	session := s.launcher.NewSession(sl.id, pickle.Name)
	actx, cancel := context.WithTimeout(ctx, acquireTimeout)
	page, err := session.Page(actx)
	cancel()
	if err != nil {
		_, _ = session.Close(true)
		s.release(sl)
		return ctx, fmt.Errorf("godogworld: the scenario's page: %w", session.Explain(err))
	}
	sc := &scenario{suite: s, slot: sl, session: session, world: newWorld(page, s.opts, pickle), pickle: pickle, context: page.Context()}
	sc.plugin = &PluginScenario{Pickle: pickle, Session: session, World: sc.world}
	s.mu.Lock()
	s.open[sc] = true
	s.mu.Unlock()
	ctx = context.WithValue(ctx, scenarioKey{}, sc)
	var atts []godog.Attachment
	for _, w := range sl.workers {
		a, err := w.Begin(ctx, sc.plugin)
		atts = append(atts, a...)
		if err != nil {
			return godog.Attach(ctx, atts...), err
		}
	}
	return godog.Attach(ctx, atts...), nil
}

// beforeStep records the step godog runs, for the plugins' steps.
func (s *Suite) beforeStep(ctx context.Context, st *godog.Step) (context.Context, error) {
	if sc := scenarioFrom(ctx); sc != nil {
		sc.mu.Lock()
		sc.step = st
		sc.mu.Unlock()
	}
	return ctx, nil
}

// pluginStepFunc is the godog step function of a plugin's step definition:
// the scenario's worker of that plugin runs it.
func (s *Suite) pluginStepFunc(ps pluginStep) func(ctx context.Context) (context.Context, error) {
	return func(ctx context.Context) (context.Context, error) {
		sc := scenarioFrom(ctx)
		if sc == nil {
			return ctx, errors.New(missingWrapper)
		}
		sc.mu.Lock()
		st := sc.step
		sc.mu.Unlock()
		atts, err := sc.slot.workers[ps.plugin].RunStep(ctx, ps.index, sc.plugin, st)
		return godog.Attach(ctx, atts...), err
	}
}

// afterStep ends the step's context watch and attaches the failure
// screenshot to the step that failed. A step whose context ended while it
// ran fails with the context's error.
func (s *Suite) afterStep(ctx context.Context, _ *godog.Step, status godog.StepResultStatus, _ error) (context.Context, error) {
	sc := scenarioFrom(ctx)
	if sc == nil {
		return ctx, nil
	}
	sc.mu.Lock()
	w := sc.watch
	sc.watch = nil
	sc.mu.Unlock()
	if w != nil {
		if cause, shot := w.stop(); cause != nil {
			sc.mu.Lock()
			sc.aborted = cause
			sc.shot = sc.shot || shot != nil
			sc.mu.Unlock()
			if shot != nil {
				ctx = godog.Attach(ctx, *shot)
			}
			return ctx, cause
		}
	}
	if status != godog.StepFailed {
		return ctx, nil
	}
	if shot := sc.failureScreenshot(5 * time.Second); shot != nil {
		sc.markShot()
		return godog.Attach(ctx, *shot), nil
	}
	return ctx, nil
}

func (sc *scenario) markShot() {
	sc.mu.Lock()
	sc.shot = true
	sc.mu.Unlock()
}

// failureScreenshot is a PNG of World.Page as a godog attachment, nil
// when screenshot = off or the page is gone.
func (sc *scenario) failureScreenshot(timeout time.Duration) *godog.Attachment {
	if sc.suite.opts.Browser.ScreenshotMode() == world.ModeOff {
		return nil
	}
	png := sc.screenshot(timeout)
	if png == nil {
		return nil
	}
	return &godog.Attachment{Body: png, FileName: "failure.png", MediaType: "image/png"}
}

func (sc *scenario) screenshot(timeout time.Duration) []byte {
	sc.mu.Lock()
	ended := sc.ended
	sc.mu.Unlock()
	p := sc.world.Page
	if ended || p == nil || p.IsClosed() || sc.session.Crashed() {
		return nil
	}
	png, err := p.Screenshot(playwright.PageScreenshotOptions{Type: playwright.ScreenshotTypePng, Timeout: playwright.Float(millis(timeout))})
	if err != nil {
		sc.suite.opts.Logf("screenshot: %v", sc.session.Explain(err))
		return nil
	}
	return png
}

func (s *Suite) afterScenario(ctx context.Context, pickle *godog.Scenario, err error) (context.Context, error) {
	sc := scenarioFrom(ctx)
	if sc != nil {
		atts, endErr := sc.end(err)
		ctx = godog.Attach(ctx, atts...)
		if endErr != nil {
			err = endErr // godog joins it with the scenario's error
		}
		s.record(pickle, err)
		return ctx, endErr
	}
	s.record(pickle, err)
	return ctx, nil
}

// record keeps the scenarios that failed while RunWithRetries runs.
func (s *Suite) record(pickle *godog.Scenario, err error) {
	if err == nil || errors.Is(err, godog.ErrSkip) {
		return
	}
	s.mu.Lock()
	if s.holdOpen {
		s.failed = append(s.failed, failure{pickle, err})
	}
	s.mu.Unlock()
}

// end runs the plugins' end of the scenario and closes the scenario's
// context; what it returns (the end-of-scenario screenshot with
// screenshot = on, a link to the trace) is attached to the scenario's
// last step. Only the first call does anything.
func (sc *scenario) end(scenarioErr error) ([]godog.Attachment, error) {
	s := sc.suite
	sc.mu.Lock()
	if sc.ended {
		sc.mu.Unlock()
		return nil, nil
	}
	w := sc.watch
	sc.watch = nil
	sc.mu.Unlock()
	if w != nil {
		// Not stopped by afterStep: godog ended the scenario in a hook.
		w.stop()
	}
	sc.mu.Lock()
	shot, aborted := sc.shot, sc.aborted
	sc.mu.Unlock()
	failed := scenarioErr != nil && !errors.Is(scenarioErr, godog.ErrSkip)
	sc.plugin.Err = scenarioErr
	var atts []godog.Attachment
	var errs []error
	for _, w := range sc.slot.workers {
		a, err := w.End(sc.plugin)
		atts = append(atts, a...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	if s.opts.Browser.ScreenshotMode() == world.ModeOn && !shot {
		if png := sc.screenshot(10 * time.Second); png != nil {
			atts = append(atts, godog.Attachment{Body: png, FileName: "screenshot.png", MediaType: "image/png"})
		}
	}
	sc.mu.Lock()
	sc.ended = true
	sc.mu.Unlock()
	s.mu.Lock()
	delete(s.open, sc)
	s.mu.Unlock()
	art, err := sc.session.Close(failed)
	if err != nil {
		if aborted != nil {
			// The context was closed when the step's context ended: what
			// could not be saved is logged, the scenario has failed
			// already.
			s.opts.Logf("closing the scenario %q: %v", sc.pickle.Name, err)
		} else {
			errs = append(errs, err)
		}
	}
	if art != nil && art.TracePath != "" {
		atts = append(atts, godog.Attachment{Body: []byte(fileURL(art.TracePath)), FileName: "trace.zip", MediaType: "text/uri-list"})
	}
	s.release(sc.slot)
	return atts, errors.Join(errs...)
}

// fileURL is the file:// URL of path, for the trace attachment: traces are
// megabytes, so the report links the zip rather than embedding it.
func fileURL(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
