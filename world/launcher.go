package world

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/install"
	"github.com/ferridriver/ferridriver/world/sandbox"
)

// ErrBrowserCrashed is wrapped by errors caused by the browser process
// exiting unexpectedly (crash, OOM kill, kill -9) during a test case.
var ErrBrowserCrashed = errors.New("the browser process exited unexpectedly (crashed or was killed)")

// ErrClosed is returned by a Launcher after Close.
var ErrClosed = errors.New("world: launcher is closed")

// EnvMarker is set in the environment of every browser a Launcher starts,
// with a value unique to that Launcher, so that its processes (and their
// children) can be found in /proc and none is left behind by Close.
const EnvMarker = "FERRIDRIVER_BROWSER_ID"

// closedNetworkArgs keep Chromium from phoning home: on a closed network
// those requests only cost time.
var closedNetworkArgs = []string{
	"--disable-background-networking", "--disable-component-update", "--disable-sync",
	"--no-first-run", "--disable-gpu",
}

// playwrightDisabledFeatures is the --disable-features list that
// playwright-core 1.52.0 gives Chromium (lib/server/chromium/
// chromiumSwitches.js). Chromium keeps only the last --disable-features
// of its command line, so a list added after Playwright's must repeat it.
var playwrightDisabledFeatures = []string{
	"AcceptCHFrame", "AutoExpandDetailsElement", "AvoidUnnecessaryBeforeUnloadCheckSync",
	"CertificateTransparencyComponentUpdater", "DeferRendererTasksAfterInput",
	"DestroyProfileOnBrowserClose", "DialMediaRouteProvider", "ExtensionManifestV2Disabled",
	"GlobalMediaControls", "HttpsUpgrades", "ImprovedCookieControls", "LazyFrameLoading",
	"LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning", "Translate",
}

// hiddenUIFeatures are browser-window UI that headless Chromium (the full
// browser's --headless, as Debian's chromium) builds for every new window,
// so for every test case's context: the address bar's WebUI popups, two
// chrome:// pages rendered in the background. No test can see them;
// without them a test case's browser work costs about 30% less (Chromium 156,
// docs/benchmarks.md).
var hiddenUIFeatures = []string{"WebUIOmniboxPopup", "WebUIOmniboxAimPopup"}

// unusedSpareFeatures: after a navigation Chromium starts a spare renderer
// process for the navigating profile, to hand to its next navigation. Each
// test case has its own context, that is its own profile, so the spare is
// never used and is killed when the context closes: one renderer started
// for nothing per test case (about 6% of Chromium's CPU in the benchmark).
var unusedSpareFeatures = []string{"SpareRendererForSitePerProcess"}

// metadataResolverRules keep the browser from resolving the cloud metadata
// endpoints (capability.MetadataHostForms: their names and every spelling
// of their addresses a URL parser produces), so that no page, frame,
// fetch or redirect reaches them: the browser's side of the rule fetch and
// the request clients apply. A name that resolves to such an address
// through DNS is not caught (docs/capabilities.md).
var metadataResolverRules = func() string {
	var rules []string
	for _, h := range capability.MetadataHostForms() {
		rules = append(rules, "MAP "+h+" ~NOTFOUND")
	}
	return strings.Join(rules, ", ")
}()

// ChromiumArgs returns the command-line flags ferridriver launches
// Chromium with: --no-sandbox when root is true, closedNetworkArgs, then
// user, with one --disable-features last that joins Playwright's list,
// hiddenUIFeatures, unusedSpareFeatures and every --disable-features in
// user (Chromium would otherwise keep only the last of them), and one
// --host-resolver-rules whose metadataResolverRules come before the
// user's own rules (the first rule that matches a host applies).
func ChromiumArgs(root bool, user []string) []string {
	var args []string
	if root {
		args = append(args, "--no-sandbox") // Chromium refuses to run as root with its sandbox
	}
	args = append(args, closedNetworkArgs...)
	disabled := slices.Concat(playwrightDisabledFeatures, hiddenUIFeatures, unusedSpareFeatures)
	resolverRules := []string{metadataResolverRules}
	for _, a := range user {
		if list, ok := strings.CutPrefix(a, "--disable-features="); ok {
			disabled = append(disabled, strings.Split(list, ",")...)
			continue
		}
		if rules, ok := strings.CutPrefix(a, "--host-resolver-rules="); ok {
			resolverRules = append(resolverRules, rules)
			continue
		}
		args = append(args, a)
	}
	args = append(args, "--host-resolver-rules="+strings.Join(resolverRules, ", "))
	seen := map[string]bool{"": true}
	joined := disabled[:0]
	for _, f := range disabled {
		if f = strings.TrimSpace(f); !seen[f] {
			seen[f] = true
			joined = append(joined, f)
		}
	}
	return append(args, "--disable-features="+strings.Join(joined, ","))
}

// Options tune a Launcher beyond the [browser] config.
type Options struct {
	// Logf receives one line per notable event (driver install, launch,
	// crash). Nil = silent.
	Logf func(format string, args ...any)
	// Debugf receives routine diagnostics (driver start and browser launch
	// timings). Nil = dropped.
	Debugf func(format string, args ...any)
	// AutoPrewarm makes a Session, once its page exists, start preparing
	// the next context+page for the same worker in the background (see
	// Launcher.Prewarm).
	AutoPrewarm bool
	// Install is used to find or install the driver; its CacheDir defaults
	// to Config.CacheDir.
	Install install.Options
	// InstallDriver, when set, provides a driver that is not installed yet
	// (install.EnsureDriver downloads it from the npm registry). Nil: the
	// driver must be installed already (install.FindDriver), and the
	// error says how. Opt-in because the download links net/http and TLS
	// into every program that launches a browser (3 MB of a godog suite's
	// test binary).
	InstallDriver func(ctx context.Context, opts install.Options) (*install.Driver, error)
}

// Launcher starts the Playwright driver and browsers on demand and hands
// out Sessions. It is safe for concurrent use by any number of workers.
// Nothing is started until a Session asks for its page (or Prewarm is
// called): a suite that never touches the browser starts no process.
type Launcher struct {
	cfg    Config
	opts   Options
	marker string
	outDir string

	mu        sync.Mutex
	closed    bool
	pw        *pwStart
	exe       *install.Browser // discovered once
	slots     map[int]*browserSlot
	prewarmed map[int]*prepared
	seq       atomic.Int64
	// driverStarted (under mu) is set once a driver was started: until
	// then no process of this Launcher can exist.
	driverStarted bool

	procMu sync.Mutex
	groups map[int]string // browser process groups seen: pgid -> executable dir

	// prewarmFallback: see Session.prewarmAfterLoad (a field for tests).
	prewarmFallback time.Duration

	// origins is the request filter of every context (SetOriginFilter).
	origins atomic.Pointer[sandbox.OriginFilter]

	video videoState
}

type pwStart struct {
	done chan struct{}
	pw   *playwright.Playwright
	err  error
	dur  time.Duration // how long the start took
	pid  int           // the driver's node process (Linux; 0 when unknown)
	gone atomic.Bool   // latched once the driver was seen dead
}

// dead reports whether a started driver process has exited. playwright-go
// does not say so itself: calls just fail with "target closed". Death is
// latched once seen, so a later process reusing the pid cannot revive it.
func (st *pwStart) dead() bool {
	if st.gone.Load() {
		return true
	}
	if isDone(st.done) && st.err == nil && st.pid > 0 && processGone(st.pid) {
		st.gone.Store(true)
		return true
	}
	return false
}

// browserSlot is one browser process (the shared one, or a worker's).
type browserSlot struct {
	done      chan struct{}
	driver    *pwStart // the driver that launched it
	browser   playwright.Browser
	err       error
	closing   atomic.Bool // we are closing it: a disconnect is not a crash
	crashed   atomic.Bool
	launchDur time.Duration
}

func (s *browserSlot) ready() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// usable reports whether a finished slot holds a live browser.
func (s *browserSlot) usable() bool {
	return s.ready() && s.err == nil && !s.lost() && s.browser.IsConnected()
}

// lost reports whether the browser went away without us closing it: it
// crashed or was killed, or the driver that speaks to it died.
func (s *browserSlot) lost() bool {
	if s.crashed.Load() {
		return true
	}
	if s.driver != nil && s.driver.dead() {
		s.crashed.Store(true)
		return true
	}
	return false
}

// NewLauncher validates cfg and returns a Launcher that has started nothing.
func NewLauncher(cfg Config, opts Options) (*Launcher, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	out := cfg.OutputDir
	if out == "" {
		out = "test-results"
	}
	out, err := filepath.Abs(out)
	if err != nil {
		return nil, fmt.Errorf("[browser] outputDir: %w", err)
	}
	if opts.Install.CacheDir == "" {
		opts.Install.CacheDir = cfg.CacheDir
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	return &Launcher{
		cfg:       cfg,
		opts:      opts,
		marker:    fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(rnd[:])),
		outDir:    out,
		slots:     map[int]*browserSlot{},
		prewarmed: map[int]*prepared{},
		groups:    map[int]string{},

		prewarmFallback: prewarmFallback,
	}, nil
}

// Config returns the configuration the Launcher was created with.
func (l *Launcher) Config() Config { return l.cfg }

// Marker is the value of EnvMarker in this Launcher's browser processes.
func (l *Launcher) Marker() string { return l.marker }

func (l *Launcher) logf(format string, args ...any) {
	if l.opts.Logf != nil {
		l.opts.Logf(format, args...)
	}
}

func (l *Launcher) debugf(format string, args ...any) {
	if l.opts.Debugf != nil {
		l.opts.Debugf(format, args...)
	}
}

// Playwright returns the running driver connection, starting the driver
// (not a browser) if needed; for API-only work such as request contexts.
func (l *Launcher) Playwright(ctx context.Context) (*playwright.Playwright, error) {
	st, err := l.driver(ctx)
	if err != nil {
		return nil, err
	}
	return st.pw, nil
}

// driver returns the started driver, (re)starting it if needed.
func (l *Launcher) driver(ctx context.Context) (*pwStart, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, ErrClosed
	}
	st := l.pw
	if st != nil && st.dead() {
		l.logf("the Playwright driver exited unexpectedly; restarting it")
		dead := st.pw
		go func() { _ = dead.Stop() }() // reap it
		st = nil
	}
	if st == nil || (isDone(st.done) && st.err != nil) {
		st = &pwStart{done: make(chan struct{})}
		l.pw, l.driverStarted = st, true
		go func() {
			defer close(st.done)
			start := time.Now()
			st.pw, st.pid, st.err = l.startDriver()
			st.dur = time.Since(start)
		}()
	}
	l.mu.Unlock()
	select {
	case <-st.done:
		if st.err != nil {
			return nil, st.err
		}
		return st, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// findDriver finds the Playwright driver, or installs it with
// Options.InstallDriver when the program opted in to the download.
func (l *Launcher) findDriver(ctx context.Context) (*install.Driver, error) {
	iopts := l.opts.Install
	if iopts.Logf == nil {
		iopts.Logf = l.opts.Logf
	}
	if l.opts.InstallDriver != nil {
		return l.opts.InstallDriver(ctx, iopts)
	}
	drv, err := install.FindDriver(iopts.CacheDir)
	if err != nil {
		return nil, fmt.Errorf("%w, or let the program download it (InstallDriver: install.EnsureDriver in its options)", err)
	}
	return drv, nil
}

// runMu serialises playwright.Run: it reads and writes package globals of
// playwright-go and the process environment.
var runMu sync.Mutex

func (l *Launcher) startDriver() (*playwright.Playwright, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	drv, err := l.findDriver(ctx)
	if err != nil {
		return nil, 0, err
	}
	node, err := install.FindNode()
	if err != nil {
		return nil, 0, err
	}
	runMu.Lock()
	defer runMu.Unlock()
	// playwright-go reads the node binary from this variable only.
	if os.Getenv("PLAYWRIGHT_NODEJS_PATH") != node.Path {
		if err := os.Setenv("PLAYWRIGHT_NODEJS_PATH", node.Path); err != nil {
			return nil, 0, err
		}
	}
	start := time.Now()
	// Run is serialised, so the one new driver child is this one.
	before := driverChildren()
	dir, err := drv.WithCallLog()
	if err != nil {
		l.debugf("%v: errors will lack Playwright's call log", err)
	}
	pw, err := playwright.Run(&playwright.RunOptions{DriverDirectory: dir, SkipInstallBrowsers: true})
	if err != nil {
		return nil, 0, fmt.Errorf("start the Playwright driver (%s with %s): %w", drv.CLI, node.Path, err)
	}
	pid := 0
	for p := range driverChildren() {
		if !before[p] {
			pid = p
		}
	}
	l.debugf("playwright driver %s started in %v", drv.Version, time.Since(start).Round(time.Millisecond))
	return pw, pid, nil
}

// browser returns the live browser for worker, launching it if needed.
func (l *Launcher) browser(ctx context.Context, worker int) (*browserSlot, error) {
	key := 0
	if l.cfg.PerWorker {
		key = worker
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, ErrClosed
	}
	slot := l.slots[key]
	if slot == nil || (slot.ready() && !slot.usable()) {
		if slot != nil && slot.err == nil {
			// A lost browser: make sure its leftovers go away.
			old := slot
			go func() { old.closing.Store(true); _ = old.browser.Close() }()
		}
		slot = &browserSlot{done: make(chan struct{})}
		l.slots[key] = slot
		go func() {
			defer close(slot.done)
			slot.err = l.launch(slot)
		}()
	}
	l.mu.Unlock()
	select {
	case <-slot.done:
		if slot.err != nil {
			return nil, slot.err
		}
		return slot, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Browser returns the browser that worker's sessions use, launching it
// (and the driver) if needed.
func (l *Launcher) Browser(ctx context.Context, worker int) (playwright.Browser, error) {
	slot, err := l.browser(ctx, worker)
	if err != nil {
		return nil, err
	}
	return slot.browser, nil
}

func (l *Launcher) launch(slot *browserSlot) error {
	if l.cfg.Remote() {
		return l.connect(slot)
	}
	ctx := context.Background()
	// Find the browser first: a missing one is reported without starting
	// the driver.
	opts, err := l.launchOptions()
	if err != nil {
		return err
	}
	drv, err := l.driver(ctx)
	if err != nil {
		return err
	}
	start := time.Now()
	b, err := l.browserType(drv.pw).Launch(opts)
	if err != nil && errors.Is(err, playwright.ErrTargetClosed) {
		// The driver died under us: start a new one and try once more.
		l.logf("playwright driver connection lost; restarting it")
		l.mu.Lock()
		if l.pw == drv {
			l.pw = nil
		}
		l.mu.Unlock()
		if drv, err = l.driver(ctx); err != nil {
			return err
		}
		b, err = l.browserType(drv.pw).Launch(opts)
	}
	where := "channel " + l.cfg.Channel
	if opts.ExecutablePath != nil {
		where = *opts.ExecutablePath
	}
	if err != nil {
		return fmt.Errorf("launch %s (%s): %w", l.cfg.BrowserName(), where, err)
	}
	slot.driver = drv
	slot.browser = b
	slot.launchDur = time.Since(start)
	b.OnDisconnected(func(playwright.Browser) {
		if !slot.closing.Load() {
			slot.crashed.Store(true)
			l.logf("%v; it will be relaunched on next use", ErrBrowserCrashed)
		}
	})
	l.debugf("%s %s (%s) launched in %v", l.cfg.BrowserName(), b.Version(), where, slot.launchDur.Round(time.Millisecond))
	l.tracked() // remember the new browser's process group while its leader lives
	return nil
}

// lostError says that the browser went away during the running test case
// and what happens next: relaunched, or for a remote browser, reconnected.
// It wraps ErrBrowserCrashed (and ErrRemoteLost for a remote browser);
// cause, when not nil, is the Playwright error that revealed it.
func (l *Launcher) lostError(cause error) error {
	msg := ErrBrowserCrashed.Error() + " during this test case; it will be relaunched for the next one"
	if l.cfg.Remote() {
		msg = fmt.Sprintf("%v (%s) during this test case; it will be reconnected for the next one", ErrRemoteLost, RedactEndpoint(l.cfg.Endpoint()))
	}
	if cause != nil {
		msg += " (" + l.cfg.redactSecrets(cause.Error()) + ")"
	}
	return &lostError{msg: msg, remote: l.cfg.Remote()}
}

type lostError struct {
	msg    string
	remote bool
}

func (e *lostError) Error() string { return e.msg }

func (e *lostError) Is(target error) bool {
	return target == ErrBrowserCrashed || (e.remote && target == ErrRemoteLost)
}

func nonZero(f float64) *float64 {
	if f == 0 {
		return nil
	}
	return &f
}

func (l *Launcher) browserType(pw *playwright.Playwright) playwright.BrowserType {
	switch l.cfg.BrowserName() {
	case "firefox":
		return pw.Firefox
	case "webkit":
		return pw.WebKit
	}
	return pw.Chromium
}

func (l *Launcher) launchOptions() (playwright.BrowserTypeLaunchOptions, error) {
	l.mu.Lock()
	exe := l.exe
	l.mu.Unlock()
	if exe == nil {
		found, err := install.FindBrowser(install.BrowserQuery{
			Browser: l.cfg.BrowserName(), ExecutablePath: l.cfg.ExecutablePath, Channel: l.cfg.Channel,
			Headless: l.cfg.IsHeadless(),
		})
		if err != nil {
			return playwright.BrowserTypeLaunchOptions{}, err
		}
		l.mu.Lock()
		l.exe, exe = found, found
		l.mu.Unlock()
	}
	opts := playwright.BrowserTypeLaunchOptions{
		Headless: playwright.Bool(l.cfg.IsHeadless()),
		Env:      l.browserEnv(),
	}
	if exe.Source == "channel" {
		opts.Channel = playwright.String(l.cfg.Channel)
	} else {
		opts.ExecutablePath = playwright.String(exe.Path)
	}
	if l.cfg.SlowMo > 0 {
		opts.SlowMo = playwright.Float(l.cfg.SlowMo)
	}
	opts.Args = l.cfg.Args
	if l.cfg.BrowserName() == "chromium" {
		opts.Args = ChromiumArgs(os.Geteuid() == 0, l.cfg.Args)
	}
	return opts, nil
}

// browserEnv is our environment plus the marker. Playwright replaces the
// browser's environment with this map when it is set.
func (l *Launcher) browserEnv() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		for i := 1; i < len(kv); i++ { // from 1: Windows has "=C:=..." entries
			if kv[i] == '=' {
				env[kv[:i]] = kv[i+1:]
				break
			}
		}
	}
	env[EnvMarker] = l.marker
	return env
}

// ExecutablePath returns the browser executable the Launcher uses (after
// discovery; "" before the first launch or when a channel is used).
func (l *Launcher) ExecutablePath() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.exe == nil {
		return ""
	}
	return l.exe.Path
}

// Startup is what the start-up of a Launcher's browser took.
type Startup struct {
	// Driver is how long the Playwright driver took to start (zero
	// until it has).
	Driver time.Duration
	// Browser is how long the worker's browser took to launch or connect
	// (zero until it has); BrowserName names it ("chromium 156.0...").
	Browser     time.Duration
	BrowserName string
	// Remote is set when the browser is a remote one, connected to
	// rather than launched.
	Remote bool
}

// Startup says what the start-up of worker's browser took so far, and
// whether it is over: the driver started and, when browser is set, the
// worker's browser is up. A wait for a Session's page or request
// context that begins before it is over waits for start-up.
func (l *Launcher) Startup(worker int, browser bool) (st Startup, ready bool) {
	key := 0
	if l.cfg.PerWorker {
		key = worker
	}
	l.mu.Lock()
	pw, slot := l.pw, l.slots[key]
	l.mu.Unlock()
	st.Remote = l.cfg.Remote()
	ready = pw != nil && isDone(pw.done) && pw.err == nil
	if ready {
		st.Driver = pw.dur
	}
	if !browser {
		return st, ready
	}
	if slot != nil && slot.usable() {
		st.Browser = slot.launchDur
		st.BrowserName = l.cfg.BrowserName() + " " + slot.browser.Version()
		if slot.driver != nil {
			st.Driver = slot.driver.dur
		}
	} else {
		ready = false
	}
	return st, ready
}

// Started reports whether a browser process has been launched (even if it
// has since crashed).
func (l *Launcher) Started() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.slots) > 0
}

// Close closes every prepared context, every browser and the driver, then
// kills any process still carrying this Launcher's marker (Linux), so no
// browser process outlives it. Sessions still open fail afterwards.
func (l *Launcher) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	preps := l.prewarmed
	l.prewarmed = map[int]*prepared{}
	slots := l.slots
	pw := l.pw
	started := l.driverStarted
	l.mu.Unlock()
	if !started {
		// Nothing was started (a run that never touched the browser):
		// no process can carry the marker, and scanning /proc for them
		// is a noticeable part of a short run.
		return nil
	}

	var errs []error
	for _, p := range preps {
		<-p.done
		p.discard(l)
	}
	for _, s := range slots {
		<-s.done
		if s.err == nil && !s.lost() {
			s.closing.Store(true)
			if err := s.browser.Close(); err != nil && !errors.Is(err, playwright.ErrTargetClosed) {
				errs = append(errs, fmt.Errorf("close browser: %w", err))
			}
		}
	}
	if pw != nil {
		<-pw.done
		if pw.err == nil {
			wasDead := pw.dead()
			if err := pw.pw.Stop(); err != nil && !wasDead {
				errs = append(errs, fmt.Errorf("stop the Playwright driver: %w", err))
			}
		}
	}
	if left := l.tracked(); len(left) > 0 {
		l.logf("killing %d browser processes left after closing the browser and driver", len(left))
	}
	if err := l.killTracked(5 * time.Second); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

func (l *Launcher) isClosed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

func isDone(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
