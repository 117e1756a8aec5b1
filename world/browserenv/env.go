// Package browserenv plugs the browser into ferridriver's hosts: for `bdd`
// it is the runner.Environment that gives every test case attempt its own
// world.Session, decorates every World with lazy page, context, browser,
// request and baseURL properties, attaches the failure screenshot and the
// trace, and closes the context after the After hooks; for the script
// host, ScriptBrowser is the page behind the `page` global and tool
// handlers' ctx.page; for the mcp host, AgentBrowser gives each client's
// VM the current tab of the client's browser session.
package browserenv

import (
	"context"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/install"
	"github.com/ferridriver/ferridriver/world/jsapi"
)

// acquireTimeout bounds the wait for a page, a context or the driver when
// JS first touches this.page (launching the browser included).
const acquireTimeout = 2 * time.Minute

// Environment is the browser world of a bdd run. It launches nothing until
// a step touches the browser.
type Environment struct {
	launcher        *world.Launcher
	cfg             world.Config
	logf            func(format string, args ...any)
	backgroundClose bool
	snapshots       jsapi.SnapshotSettings

	// closing tracks contexts closed in the background after test cases
	// that leave no artifact, so Close waits for them.
	closing sync.WaitGroup

	// live, when set, gives every test case its session (a live page
	// shared with an MCP agent) instead of a fresh context; the launcher
	// is then not the environment's to close.
	live func() (*world.Session, error)
}

// NewLive returns an Environment whose test cases all run on the page
// live returns (see world.Session.Shared), on the browser of l, which the
// caller keeps owning: run_bdd runs features on an agent's page.
func NewLive(l *world.Launcher, live func() (*world.Session, error), opts Options) *Environment {
	return &Environment{launcher: l, cfg: l.Config(), logf: opts.Logf, live: live}
}

// Options tune an Environment.
type Options struct {
	// Logf receives browser events (launch, crash, relaunch). Nil: silent.
	Logf func(format string, args ...any)
	// Debugf receives routine diagnostics (driver start and browser launch
	// timings). Nil: dropped.
	Debugf func(format string, args ...any)
	// Snapshots are the settings of visual comparisons (toHaveScreenshot,
	// toMatchSnapshot); their OutputDir defaults to [browser] outputDir.
	Snapshots jsapi.SnapshotSettings
	// Overlap does browser work in the background while test cases run:
	// each worker's next context and page are prepared once the worker
	// has used the browser, and a test case's context is closed in the
	// background when nothing is left to collect from it, so the next test
	// case starts at once.
	Overlap bool
}

// New returns the Environment of a run with the [browser] configuration.
func New(cfg world.Config, opts Options) (*Environment, error) {
	l, err := world.NewLauncher(cfg, world.Options{InstallDriver: install.EnsureDriver, Logf: opts.Logf, Debugf: opts.Debugf, AutoPrewarm: opts.Overlap})
	if err != nil {
		return nil, err
	}
	snaps := opts.Snapshots
	if snaps.OutputDir == "" {
		snaps.OutputDir = cfg.OutputDir
		if snaps.OutputDir == "" {
			snaps.OutputDir = "test-results"
		}
		// As the launcher's: relative to the working directory.
		if abs, err := filepath.Abs(snaps.OutputDir); err == nil {
			snaps.OutputDir = abs
		}
	}
	return &Environment{launcher: l, cfg: cfg, logf: opts.Logf, backgroundClose: opts.Overlap, snapshots: snaps}, nil
}

// Launcher returns the Launcher behind the environment.
func (e *Environment) Launcher() *world.Launcher { return e.launcher }

// Close waits for background context closes, then closes the browsers and
// the driver (no browser process survives it).
func (e *Environment) Close() error {
	e.closing.Wait()
	if e.live != nil {
		return nil
	}
	return e.launcher.Close()
}

// Worker prepares worker id's VM: the World properties, the bindings'
// host, the crash check and the tool handlers' browser.
func (e *Environment) Worker(id int, vm *jsbridge.VM) (runner.WorkerEnvironment, error) {
	w := &worker{env: e, id: id, vm: vm, api: jsapi.Of(vm)}
	w.api.SetHost(w)
	w.api.SetSnapshotSettings(e.snapshots)
	if err := w.installWorldProps(); err != nil {
		return nil, err
	}
	if proto := vm.DefaultWorldPrototype(); proto != nil {
		// Every World is cucumber's World: its prototype gets the
		// accessors once (decorating each World cost a logic-only
		// suite a fifth of its run).
		if _, err := w.decorateFunc(goja.Undefined(), proto, w.names, w.getters, w.setters); err != nil {
			return nil, fmt.Errorf("decorating the World with page, context...: %w", err)
		}
		vm.AddWorldHook(func(obj *goja.Object) error {
			w.world, w.ownPage = obj, true
			return nil
		})
	} else {
		vm.AddWorldHook(w.decorate)
	}
	vm.AddStepCheck(w.crashCheck)
	jsbridge.SetBrowserProvider(vm, w)
	return w, nil
}

// worker follows one worker's test cases. Its methods run on the worker's
// goroutine (the VM's loop), except the jsapi.Host methods called by work
// goroutines (Explain...), which only read the session under mu.
type worker struct {
	env *Environment
	id  int
	vm  *jsbridge.VM
	api *jsapi.Runtime

	mu      sync.Mutex
	session *world.Session

	// Per test case attempt:
	world        *goja.Object
	ownPage      bool       // this.page is still ferridriver's accessor
	userPage     goja.Value // what the user assigned to this.page
	cached       map[string]goja.Value
	crashed      bool // the crash was reported to a step already
	decorateFunc goja.Callable
	// the decorate function's arguments, made once
	names, getters, setters goja.Value
}

var worldProps = []string{"page", "context", "browser", "request", "baseURL"}

// decorateSource defines ferridriver's accessors on a World, leaving alone
// every property the user's World defines (an own value, a getter, a
// class field with a value), so a setWorldConstructor class keeps its own.
const decorateSource = `(function (w, names, getters, setters) {
  const installed = [];
  for (let i = 0; i < names.length; i++) {
    installed.push(false);
    const n = names[i];
    let o = w, d;
    while (o && o !== Object.prototype) {
      d = Object.getOwnPropertyDescriptor(o, n);
      if (d) break;
      o = Object.getPrototypeOf(o);
    }
    if (d && (d.get || d.set || d.value !== undefined)) continue;
    Object.defineProperty(w, n, { get: getters[i], set: setters[i], configurable: true, enumerable: false });
    installed[i] = true;
  }
  return installed[0];
})`

var (
	decorateOnce sync.Once
	decoratePrg  *goja.Program
	decorateErr  error
)

func (w *worker) installWorldProps() error {
	decorateOnce.Do(func() {
		decoratePrg, decorateErr = goja.Compile("<ferridriver-world.js>", decorateSource, true)
	})
	if decorateErr != nil {
		return decorateErr
	}
	rt := w.vm.Runtime()
	v, err := rt.RunProgram(decoratePrg)
	if err != nil {
		return err
	}
	w.decorateFunc, _ = goja.AssertFunction(v)
	var names, getters, setters []any
	for _, name := range worldProps {
		names = append(names, name)
		getters = append(getters, rt.ToValue(func(c goja.FunctionCall) goja.Value {
			return w.value(name)
		}))
		setters = append(setters, rt.ToValue(func(c goja.FunctionCall) goja.Value {
			if o, ok := c.This.(*goja.Object); ok {
				_ = o.DefineDataProperty(name, c.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
				if name == "page" && o == w.world {
					w.ownPage, w.userPage = false, c.Argument(0)
				}
			}
			return goja.Undefined()
		}))
	}
	w.names, w.getters, w.setters = rt.NewArray(names...), rt.NewArray(getters...), rt.NewArray(setters...)
	return nil
}

// decorate is the World hook: it runs for every World.
func (w *worker) decorate(obj *goja.Object) error {
	w.world = obj
	own, err := w.decorateFunc(goja.Undefined(), obj, w.names, w.getters, w.setters)
	if err != nil {
		return fmt.Errorf("decorating the World with page, context...: %w", err)
	}
	// Whether this.page is ours decides which page the failure screenshot
	// shows.
	w.ownPage = own.ToBoolean()
	return nil
}

// value is the getter of this.page, this.context...: created on first use
// in the test case, then the same object.
func (w *worker) value(name string) goja.Value {
	if v, ok := w.cached[name]; ok {
		return v
	}
	s := w.current()
	if s == nil {
		w.vm.Throw(fmt.Errorf("this.%s is only available while a test case runs", name))
	}
	ctx, cancel := context.WithTimeout(context.Background(), acquireTimeout)
	defer cancel()
	var v goja.Value
	switch name {
	case "page":
		var p playwright.Page
		err := w.startup(true, func() (err error) { p, err = s.Page(ctx); return err })
		if err != nil {
			w.vm.Throw(fmt.Errorf("this.page: %w", s.Explain(err)))
		}
		w.markRecording(p.Context())
		v = w.api.Page(p)
	case "context":
		var c playwright.BrowserContext
		err := w.startup(true, func() (err error) { c, err = s.Context(ctx); return err })
		if err != nil {
			w.vm.Throw(fmt.Errorf("this.context: %w", s.Explain(err)))
		}
		w.markRecording(c)
		v = w.api.Context(c)
	case "request":
		var rc playwright.APIRequestContext
		err := w.startup(false, func() (err error) { rc, err = s.Request(ctx); return err })
		if err != nil {
			w.vm.Throw(fmt.Errorf("this.request: %w", err))
		}
		v = w.api.APIRequest(rc)
	case "browser":
		v = w.api.SharedBrowser()
	case "baseURL":
		if w.env.cfg.BaseURL == "" {
			v = goja.Undefined()
		} else {
			v = w.vm.Runtime().ToValue(w.env.cfg.BaseURL)
		}
	}
	if w.cached == nil {
		w.cached = map[string]goja.Value{}
	}
	w.cached[name] = v
	return v
}

// startup runs get, which makes the test case's page, context or API
// request context and may have to start the driver and launch the browser
// (browser: whether it needs one) first, with the step's clock paused: a
// step's timeout and duration measure the step, not the browser's
// start-up (nor its own context's creation). When get waited for the
// start-up, the step gets a note saying how long, so the time is
// reported apart.
func (w *worker) startup(browser bool, get func() error) error {
	_, ready := w.env.launcher.Startup(w.id, browser)
	resume := w.vm.PauseStepClock()
	start := time.Now()
	err := get()
	waited := time.Since(start)
	resume()
	if err == nil && !ready {
		st, _ := w.env.launcher.Startup(w.id, browser)
		_ = w.vm.Attach(&messages.Attachment{
			Body: StartupNote(st, waited), ContentEncoding: messages.AttachmentContentEncodingIdentity, MediaType: messages.StartupMediaType,
		})
	}
	return err
}

// StartupNote is the text of the note attached to a step that waited
// waited for st's start-up.
func StartupNote(st world.Startup, waited time.Duration) string {
	var parts []string
	if st.Driver > 0 {
		parts = append(parts, "Playwright driver started in "+seconds(st.Driver))
	}
	if st.Browser > 0 {
		how := " launched in "
		if st.Remote {
			how = " connected in "
		}
		parts = append(parts, st.BrowserName+how+seconds(st.Browser))
	}
	detail := ""
	if len(parts) > 0 {
		detail = " (" + strings.Join(parts, ", ") + ")"
	}
	return fmt.Sprintf("Start-up: waited %s%s, not counted in step durations or timeouts", seconds(waited), detail)
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.2f s", d.Seconds()) }

// markRecording tells the bindings that the test case's own context
// records videos ([browser] video), so this.page.video() is its Video.
func (w *worker) markRecording(c playwright.BrowserContext) {
	if w.env.cfg.VideoMode() != world.ModeOff {
		w.api.MarkRecording(c)
	}
}

func (w *worker) current() *world.Session {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.session
}

// BeginTestCase starts a session for the attempt (it creates nothing yet).
func (w *worker) BeginTestCase(pickle *messages.Pickle, attempt int) {
	name := pickle.Name
	if attempt > 0 {
		name += "-retry" + strconv.Itoa(attempt)
	}
	s := w.env.launcher.NewSession(w.id, name)
	if w.env.live != nil {
		live, err := w.env.live()
		if err != nil {
			w.logf("run_bdd: the live page: %v", err)
		} else {
			s = live
		}
	}
	w.mu.Lock()
	w.session = s
	w.mu.Unlock()
	w.world, w.ownPage, w.userPage, w.cached, w.crashed = nil, false, nil, nil, false
	w.api.BeginTestCase(jsapi.TestCase{File: filepath.FromSlash(pickle.URI), Title: pickle.Name, Retry: attempt})
}

// crashCheck fails the step during which the browser died, when the step
// itself did not notice (it did not touch the page afterwards).
func (w *worker) crashCheck(err error) error {
	if err != nil || w.crashed {
		return err
	}
	s := w.current()
	if s == nil || !s.Crashed() {
		return nil
	}
	w.crashed = true
	return s.LostError()
}

// failurePage is the page the failure screenshot shows: the one the user
// put in this.page, or the test case's own page if it was created.
func (w *worker) failurePage() playwright.Page {
	if !w.ownPage && w.world != nil {
		v := w.userPage
		if v == nil {
			v = w.world.Get("page")
		}
		if p, ok := w.api.PageOf(v); ok && !p.IsClosed() {
			return p
		}
		return nil
	}
	s := w.current()
	if s == nil || !s.Started() || s.Crashed() {
		return nil
	}
	p, err := s.Page(context.Background())
	if err != nil || p.IsClosed() {
		return nil
	}
	return p
}

// StepFailed takes the failure screenshot (unless screenshot = off), so it
// is attached to the failing step.
func (w *worker) StepFailed() []*messages.Attachment {
	if w.env.cfg.ScreenshotMode() == world.ModeOff {
		return nil
	}
	p := w.failurePage()
	if p == nil {
		return nil
	}
	png, err := p.Screenshot(playwright.PageScreenshotOptions{Type: playwright.ScreenshotTypePng, Timeout: playwright.Float(5000)})
	if err != nil {
		w.logf("failure screenshot: %v", err)
		return nil
	}
	return []*messages.Attachment{pngAttachment(png, "failure.png")}
}

func pngAttachment(png []byte, name string) *messages.Attachment {
	return &messages.Attachment{
		Body: base64.StdEncoding.EncodeToString(png), ContentEncoding: messages.AttachmentContentEncodingBase64,
		MediaType: "image/png", FileName: messages.Ptr(name),
	}
}

func (w *worker) logf(format string, args ...any) {
	if w.env.logf != nil {
		w.env.logf(format, args...)
	}
}

// EndTestCase runs after the After hooks: contexts JS created and left
// open are closed; the session's screenshot (screenshot = on) and trace are
// attached; its context is closed, in the background when nothing is left
// to collect.
func (w *worker) EndTestCase(failed bool) []*messages.Attachment {
	w.mu.Lock()
	s := w.session
	w.session = nil
	w.mu.Unlock()
	var closing []playwright.BrowserContext
	if s != nil && s.Started() && !s.Crashed() {
		if c, err := s.Context(context.Background()); err == nil {
			closing = append(closing, c)
		}
	}
	w.api.Reset(closing...)
	w.world, w.cached, w.userPage = nil, nil, nil
	if s == nil {
		return nil
	}
	cfg := &w.env.cfg
	tm := cfg.TraceMode()
	wantTrace := tm == world.ModeOn || (tm == world.ModeRetainOnFailure && failed)
	wantShot := cfg.ScreenshotMode() == world.ModeOn
	wantVideo := cfg.VideoMode() != world.ModeOff
	if !wantTrace && !wantShot && !wantVideo && w.env.backgroundClose && !s.Idle() {
		// Nothing to collect (the failure screenshot, if any, was taken
		// when the step failed): close the context in the background, so
		// the next test case starts now.
		w.env.closing.Add(1)
		go func() {
			defer w.env.closing.Done()
			if _, err := s.Close(false); err != nil && !errors.Is(err, world.ErrBrowserCrashed) {
				w.logf("closing the test case's context: %v", err)
			}
		}()
		return nil
	}
	art, err := s.Close(failed)
	if err != nil && !errors.Is(err, world.ErrBrowserCrashed) {
		w.logf("closing the test case's context: %v", err)
	}
	var out []*messages.Attachment
	if art != nil && len(art.Screenshot) > 0 {
		out = append(out, pngAttachment(art.Screenshot, "screenshot.png"))
	}
	if art != nil && art.TracePath != "" {
		out = append(out, fileLink(art.TracePath, "trace.zip"))
	}
	if art != nil {
		for _, v := range art.Videos {
			out = append(out, fileLink(v, "video.webm"))
		}
	}
	return out
}

// fileLink links a trace zip or a video (a file:// URL, text/uri-list)
// rather than embedding it: they are megabytes, reports stay small, and
// `npx playwright show-trace <path>` opens a trace.
func fileLink(path, name string) *messages.Attachment {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return &messages.Attachment{
		Body: u.String(), ContentEncoding: messages.AttachmentContentEncodingIdentity,
		MediaType: "text/uri-list", FileName: messages.Ptr(name),
	}
}

// Close ends the worker: contexts its code created outside test cases
// (BeforeAll) are closed.
func (w *worker) Close() { w.api.Close() }

// ---- jsapi.Host ----

// Browser and Playwright may launch the browser or start the driver for a
// step's call (browser.newContext(), request.newContext()): the step's
// clock is paused meanwhile, as for this.page.
func (w *worker) Browser(ctx context.Context) (playwright.Browser, error) {
	defer w.vm.PauseStepClock()()
	return w.env.launcher.Browser(ctx, w.id)
}

func (w *worker) ContextDefaults() (playwright.BrowserNewContextOptions, error) {
	return w.env.launcher.ContextOptions()
}

func (w *worker) ContextCreated(c playwright.BrowserContext) error {
	return w.env.launcher.ConfigureContext(c)
}

func (w *worker) Playwright(ctx context.Context) (*playwright.Playwright, error) {
	defer w.vm.PauseStepClock()()
	return w.env.launcher.Playwright(ctx)
}

func (w *worker) Explain(err error) error {
	if s := w.current(); s != nil {
		return s.Explain(err)
	}
	return err
}

func (w *worker) ActionTimeout() float64 { return actionTimeout(&w.env.cfg) }

func (w *worker) PrepareVideo(ctx context.Context) error { return w.env.launcher.PrepareVideo(ctx) }

func (w *worker) DeviceDescriptors(ctx context.Context) ([]byte, error) {
	return w.env.launcher.DeviceDescriptors(ctx)
}

// ---- jsbridge.BrowserProvider: a tool handler called from a step gets the
// step's World page ----

func (w *worker) Page(vm *jsbridge.VM, _ *jsbridge.ToolFrame) (goja.Value, error) {
	if w.world == nil {
		return nil, errors.New("ctx.page is only available while a test case runs (not in BeforeAll/AfterAll)")
	}
	return w.world.Get("page"), nil
}

func (w *worker) Context(vm *jsbridge.VM, _ *jsbridge.ToolFrame) (goja.Value, error) {
	if w.world == nil {
		return nil, errors.New("ctx.context is only available while a test case runs (not in BeforeAll/AfterAll)")
	}
	return w.world.Get("context"), nil
}

func actionTimeout(cfg *world.Config) float64 {
	if cfg.ActionTimeout != nil {
		return *cfg.ActionTimeout
	}
	return 0
}
