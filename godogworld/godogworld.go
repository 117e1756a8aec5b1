// Package godogworld gives godog suites (github.com/cucumber/godog)
// ferridriver's browser World, and optionally the project's JavaScript and
// TypeScript step definitions, so that a Go team keeps godog as its runner
// and writes steps in Go against a real browser page.
//
// A Suite owns ferridriver's shared browser launcher (the same browser
// discovery, launch flags and [browser] configuration as `ferridriver bdd`,
// remote `connect`/`connectOverCDP` included). Wrapped around godog's
// initializers, it gives every scenario a fresh browser context and page,
// closed when the scenario ends; a failed step gets a screenshot of the
// page attached through godog's attachment API (godog.Attach), which
// godog's cucumber formatter reports as an embedding. Step functions reach
// the scenario's page with FromContext:
//
//	suite := godog.TestSuite{
//		TestSuiteInitializer: fd.TestSuiteInitializer(nil),
//		ScenarioInitializer: fd.ScenarioInitializer(func(sc *godog.ScenarioContext) {
//			sc.Step(`^I open the login page$`, func(ctx context.Context) error {
//				_, err := godogworld.FromContext(ctx).Page.Goto("/login")
//				return err
//			})
//		}),
//	}
//
// With Options.Steps set (LoadOptions takes them from ferridriver.toml's
// [test] steps), every JavaScript step definition is registered with godog
// and runs in a ferridriver VM whose this.page is the page the Go steps
// see; the files' Before and After hooks run around each scenario.
// docs/godog.md says where godog's semantics differ from `ferridriver bdd`.
package godogworld

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/cucumber/godog"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/world"
)

// Options configure a Suite. The zero value is valid: a headless Chromium
// found on the machine, no base URL, no JavaScript steps.
type Options struct {
	// Browser is the [browser] configuration: which browser and how it is
	// launched or connected to, baseURL, viewport, timeouts, screenshot and
	// trace modes.
	Browser world.Config
	// ExpectTimeout is the default timeout of World.Expect assertions in
	// milliseconds; zero is Playwright's default (5000).
	ExpectTimeout float64

	// Dir is the project directory: JavaScript step paths are relative to
	// it and it is process.cwd() of the steps. Empty: the working directory.
	Dir string
	// Steps are JavaScript/TypeScript step files, directories or globs
	// whose step definitions and hooks are added to the godog suite. Empty:
	// none (Go steps only).
	Steps []string
	// Extensions are extension files or directories bundled with the steps
	// (their tools are callable from steps through plugins[...]).
	Extensions []string
	// Alias maps import specifiers to others when bundling ([bundler] alias).
	Alias map[string]string
	// WorldParameters is this.parameters of every JavaScript World.
	WorldParameters map[string]any
	// Env is exactly what process.env holds in the steps ([scripting]
	// allowEnv).
	Env map[string]string
	// ScriptCommands are the commands the steps may run ([scripting.allow]).
	ScriptCommands *capability.CommandSet
	// Stdout and Stderr receive the console output of JavaScript steps.
	// Nil: os.Stdout and os.Stderr.
	Stdout, Stderr io.Writer

	// Logf receives browser events (launch, crash, relaunch) and problems
	// met while closing. Nil: they go to os.Stderr.
	Logf func(format string, args ...any)
}

// LoadOptions reads the configuration of the project in dir the way
// `ferridriver bdd` does (ferridriver.toml, .yaml or .json, then
// FERRIDRIVER_* variables): [browser], [test] steps and worldParameters,
// extensions, [bundler] alias and [scripting]. Relative [browser]
// storageState, outputDir and cacheDir are made relative to dir, since a
// godog suite usually runs in its package's directory. Set Steps to nil
// to use the browser alone.
func LoadOptions(dir string) (Options, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Options{}, err
	}
	cfg, err := config.Load(abs, "")
	if err != nil {
		return Options{}, err
	}
	cmds, err := cfg.ScriptCommands()
	if err != nil {
		return Options{}, err
	}
	b := cfg.Browser
	for _, p := range []*string{&b.StorageState, &b.OutputDir, &b.CacheDir} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(abs, *p)
		}
	}
	return Options{
		Browser:         b,
		Dir:             abs,
		Steps:           cfg.Test.Steps,
		Extensions:      cfg.Extensions,
		Alias:           cfg.Bundler.Alias,
		WorldParameters: cfg.Test.WorldParameters,
		Env:             cfg.ProcessEnv(os.Environ()),
		ScriptCommands:  cmds,
	}, nil
}

// acquireTimeout bounds the wait for a scenario's page (the first one also
// starts the driver and launches or connects to the browser).
const acquireTimeout = 2 * time.Minute

// Suite is ferridriver's part of a godog test suite: the shared browser
// and, with Options.Steps, the project's JavaScript steps. Its
// initializers are safe for godog's concurrent scenarios (Concurrency > 1).
// Nothing is started until the first scenario begins.
type Suite struct {
	opts     Options
	launcher *world.Launcher
	js       *jsLibrary // nil without Options.Steps

	mu     sync.Mutex
	closed bool
	slots  []*slot
	free   []*slot
	open   map[*scenario]bool
}

// New validates opts, loads the JavaScript steps if there are any (an
// error there names the file and line) and returns a Suite that has
// started no browser yet.
func New(opts Options) (*Suite, error) {
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.Dir = wd
	}
	if opts.Logf == nil {
		opts.Logf = func(format string, args ...any) {
			fmt.Fprintf(os.Stderr, "ferridriver: "+format+"\n", args...)
		}
	}
	l, err := world.NewLauncher(opts.Browser, world.Options{Logf: opts.Logf})
	if err != nil {
		return nil, fmt.Errorf("[browser]: %w", err)
	}
	s := &Suite{opts: opts, launcher: l, open: map[*scenario]bool{}}
	if len(opts.Steps) > 0 {
		js, err := loadJS(opts)
		if err != nil {
			_ = l.Close()
			return nil, err
		}
		s.js = js
	}
	return s, nil
}

// TestSuiteInitializer returns a godog TestSuiteInitializer that runs next
// (which may be nil) and closes the Suite after the suite has run (see
// Close). A Suite serves one godog run when used this way.
func (s *Suite) TestSuiteInitializer(next func(*godog.TestSuiteContext)) func(*godog.TestSuiteContext) {
	return func(tsc *godog.TestSuiteContext) {
		if next != nil {
			next(tsc)
		}
		tsc.AfterSuite(func() {
			if err := s.Close(); err != nil {
				s.opts.Logf("closing the browser: %v", err)
			}
		})
	}
}

// ScenarioInitializer returns a godog ScenarioInitializer that wraps next
// (the suite's own, which may be nil) like a fixture: its Before hook runs
// first and gives the scenario its page, so next's Before hooks and steps
// can use FromContext; the JavaScript steps are registered after next's
// steps (godog runs the first definition that matches, so a Go step wins
// over a JavaScript one with the same text); its After hook runs last: the
// JavaScript After hooks, then the page's context is closed, after next's
// After hooks have used it. A failed step gets a screenshot of World.Page
// attached (unless [browser] screenshot = "off").
func (s *Suite) ScenarioInitializer(next func(*godog.ScenarioContext)) func(*godog.ScenarioContext) {
	return func(sc *godog.ScenarioContext) {
		sc.Before(s.beforeScenario)
		sc.StepContext().Before(s.beforeStep)
		sc.StepContext().After(s.afterStep)
		if next != nil {
			next(sc)
		}
		if s.js != nil {
			for i, re := range s.js.regexps {
				sc.Step(re, s.jsStep(i))
			}
		}
		sc.After(s.afterScenario)
	}
}

// Close ends the Suite: the page of any scenario still open is closed,
// the JavaScript AfterAll hooks run in every VM, then the VMs, the browser
// and the driver are closed (no browser process outlives it). It is
// idempotent; scenarios that begin afterwards fail.
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
		if err := sl.close(s.js); err != nil {
			errs = append(errs, err)
		}
	}
	if s.js != nil {
		s.js.lib.Close()
	}
	if err := s.launcher.Close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// slot is one concurrently running scenario's share of the Suite: a
// worker id for the launcher and, with JavaScript steps, a VM. A scenario
// takes a free slot for its whole run, so a VM only ever runs one
// scenario at a time; the Suite's mutex orders the hand-overs between
// godog's goroutines.
type slot struct {
	id int
	js *jsWorker // nil without JavaScript steps
}

func (sl *slot) close(js *jsLibrary) error {
	if sl.js == nil {
		return nil
	}
	return sl.js.close(js)
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
	sl := &slot{id: len(s.slots)}
	s.slots = append(s.slots, sl)
	s.mu.Unlock()
	if s.js != nil {
		w, err := s.js.newWorker(sl.id, s.launcher)
		if err != nil {
			s.release(sl)
			return nil, err
		}
		sl.js = w
	}
	return sl, nil
}

// release hands sl back; a slot whose VM could not be made is dropped
// (its id is not reused).
func (s *Suite) release(sl *slot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.js != nil && sl.js == nil {
		return
	}
	s.free = append(s.free, sl)
}

// scenario is the state of one running scenario.
type scenario struct {
	suite   *Suite
	slot    *slot
	session *world.Session
	world   *World
	js      *jsScenario // nil without JavaScript steps

	ended bool
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
		return ctx, fmt.Errorf("the scenario's page: %w", session.Explain(err))
	}
	sc := &scenario{suite: s, slot: sl, session: session, world: newWorld(page, s.opts, pickle)}
	s.mu.Lock()
	s.open[sc] = true
	s.mu.Unlock()
	ctx = context.WithValue(ctx, scenarioKey{}, sc)
	if sl.js == nil {
		return ctx, nil
	}
	js, atts, err := sl.js.begin(s.js, pickle, session, page)
	sc.js = js
	return godog.Attach(ctx, atts...), err
}

func (s *Suite) beforeStep(ctx context.Context, st *godog.Step) (context.Context, error) {
	if sc := scenarioFrom(ctx); sc != nil && sc.js != nil {
		sc.js.step = st
	}
	return ctx, nil
}

// afterStep attaches the failure screenshot to the step that failed.
func (s *Suite) afterStep(ctx context.Context, _ *godog.Step, status godog.StepResultStatus, _ error) (context.Context, error) {
	sc := scenarioFrom(ctx)
	if status != godog.StepFailed || sc == nil || sc.ended || s.opts.Browser.ScreenshotMode() == world.ModeOff {
		return ctx, nil
	}
	p := sc.world.Page
	if p == nil || p.IsClosed() || sc.session.Crashed() {
		return ctx, nil
	}
	png, err := p.Screenshot(playwright.PageScreenshotOptions{Type: playwright.ScreenshotTypePng, Timeout: playwright.Float(5000)})
	if err != nil {
		s.opts.Logf("failure screenshot: %v", sc.session.Explain(err))
		return ctx, nil
	}
	return godog.Attach(ctx, godog.Attachment{Body: png, FileName: "failure.png", MediaType: "image/png"}), nil
}

func (s *Suite) afterScenario(ctx context.Context, _ *godog.Scenario, err error) (context.Context, error) {
	sc := scenarioFrom(ctx)
	if sc == nil {
		return ctx, nil
	}
	atts, endErr := sc.end(err)
	return godog.Attach(ctx, atts...), endErr
}

// end runs the JavaScript After hooks and closes the scenario's context;
// what it returns (a screenshot with screenshot = "on", a link to the
// trace) is attached to the scenario's last step. Only the first call
// does anything.
func (sc *scenario) end(scenarioErr error) ([]godog.Attachment, error) {
	s := sc.suite
	s.mu.Lock()
	if sc.ended {
		s.mu.Unlock()
		return nil, nil
	}
	sc.ended = true
	delete(s.open, sc)
	s.mu.Unlock()
	failed := scenarioErr != nil && !errors.Is(scenarioErr, godog.ErrSkip)
	var atts []godog.Attachment
	var errs []error
	if sc.js != nil {
		a, err := sc.slot.js.end(s.js, sc.js, scenarioErr, failed)
		atts = append(atts, a...)
		if err != nil {
			errs = append(errs, err)
		}
	}
	art, err := sc.session.Close(failed)
	if err != nil {
		errs = append(errs, err)
	}
	if art != nil && len(art.Screenshot) > 0 {
		atts = append(atts, godog.Attachment{Body: art.Screenshot, FileName: "screenshot.png", MediaType: "image/png"})
	}
	if art != nil && art.TracePath != "" {
		atts = append(atts, godog.Attachment{Body: []byte(fileURL(art.TracePath)), FileName: "trace.zip", MediaType: "text/uri-list"})
	}
	s.release(sc.slot)
	return atts, errors.Join(errs...)
}

// jsStepRegexps are the godog regular expressions of the JavaScript step
// definitions, by definition index.
func jsStepRegexps(lib *runner.Library) ([]*regexp.Regexp, error) {
	defs := lib.Registry().Steps
	out := make([]*regexp.Regexp, len(defs))
	var errs []error
	for i := range defs {
		re, err := lib.Regexp(i)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[i] = re
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("JavaScript step definitions godog cannot match (it matches Go regular expressions):\n%w", errors.Join(errs...))
	}
	return out, nil
}
