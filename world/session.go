package world

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/world/sandbox"
)

// pageSet is a fresh context with its first page.
type pageSet struct {
	slot    *browserSlot
	context playwright.BrowserContext
	page    playwright.Page
	tracing bool
	// recorded is the context's recording ([browser] video), nil when it
	// does not record.
	recorded *recording
}

// prepared is a pageSet being created ahead of time for a worker's next
// session.
type prepared struct {
	done chan struct{}
	set  *pageSet
	err  error
	// state is the storageState file's stamp when preparing started.
	state string
}

// storageStamp identifies the current version of the [browser]
// storageState file ("" when none is configured or it is missing), so
// that a context prepared before a test case rewrote the file (a login
// scenario saving it for the next ones) is not handed out with the old
// state.
func (l *Launcher) storageStamp() string {
	if l.cfg.StorageState == "" {
		return ""
	}
	fi, err := os.Stat(l.cfg.StorageState)
	if err != nil {
		return ""
	}
	return fmt.Sprint(fi.ModTime().UnixNano(), fi.Size())
}

// newPageSet creates a context with the configured options, starts tracing
// if asked, and opens its page.
func (l *Launcher) newPageSet(ctx context.Context, worker int) (*pageSet, error) {
	slot, err := l.browser(ctx, worker)
	if err != nil {
		return nil, err
	}
	opts, err := l.ContextOptions()
	if err != nil {
		return nil, err
	}
	rec, err := l.recordVideo(ctx, &opts)
	if err != nil {
		return nil, err
	}
	bc, err := slot.browser.NewContext(opts)
	if err != nil {
		if rec != nil && rec.local {
			_ = os.RemoveAll(rec.dir)
		}
		if slot.lost() || errors.Is(err, playwright.ErrTargetClosed) {
			slot.crashed.Store(true)
			return nil, l.lostError(fmt.Errorf("new browser context: %v", err))
		}
		return nil, fmt.Errorf("new browser context: %w", err)
	}
	ps := &pageSet{slot: slot, context: bc, recorded: rec}
	if rec != nil {
		bc.OnPage(rec.add)
	}
	if err := l.ConfigureContext(bc); err != nil {
		_ = bc.Close()
		return nil, err
	}
	if l.cfg.TraceMode() != ModeOff {
		err := bc.Tracing().Start(playwright.TracingStartOptions{
			Screenshots: playwright.Bool(true), Snapshots: playwright.Bool(true),
		})
		if err != nil {
			_ = bc.Close()
			return nil, fmt.Errorf("start tracing: %w", err)
		}
		ps.tracing = true
	}
	if ps.page, err = bc.NewPage(); err != nil {
		_ = bc.Close()
		return nil, fmt.Errorf("new page: %w", err)
	}
	if ps.recorded != nil {
		ps.recorded.add(ps.page)
	}
	return ps, nil
}

// ContextOptions returns the options of the contexts the Launcher creates
// ([browser] baseURL, viewport, locale...): the defaults of contexts that
// step code creates itself (browser.newContext()).
func (l *Launcher) ContextOptions() (playwright.BrowserNewContextOptions, error) {
	c := &l.cfg
	vp := c.ViewportSize()
	opts := playwright.BrowserNewContextOptions{
		Viewport: &playwright.Size{Width: vp.Width, Height: vp.Height},
	}
	if c.BaseURL != "" {
		opts.BaseURL = playwright.String(c.BaseURL)
	}
	if c.Locale != "" {
		opts.Locale = playwright.String(c.Locale)
	}
	if c.TimezoneID != "" {
		opts.TimezoneId = playwright.String(c.TimezoneID)
	}
	switch c.ColorScheme {
	case "light":
		opts.ColorScheme = playwright.ColorSchemeLight
	case "dark":
		opts.ColorScheme = playwright.ColorSchemeDark
	case "no-preference":
		opts.ColorScheme = playwright.ColorSchemeNoPreference
	}
	if c.IgnoreHTTPSErrors {
		opts.IgnoreHttpsErrors = playwright.Bool(true)
	}
	if c.StorageState != "" {
		if _, err := os.Stat(c.StorageState); err != nil {
			return opts, fmt.Errorf("[browser] storageState: %w", err)
		}
		opts.StorageStatePath = playwright.String(c.StorageState)
	}
	return opts, nil
}

// ConfigureContext applies [browser] actionTimeout and navigationTimeout
// to c, and the request filters: the origin filter (SetOriginFilter) and,
// for a remote browser (which ferridriver's launch flags cannot reach),
// the refusal of the cloud metadata endpoints. The Launcher's own
// contexts get them, and so must those step code creates
// (browser.newContext()).
func (l *Launcher) ConfigureContext(c playwright.BrowserContext) error {
	if t := l.cfg.ActionTimeout; t != nil {
		c.SetDefaultTimeout(*t)
	}
	if t := l.cfg.NavigationTimeout; t != nil {
		c.SetDefaultNavigationTimeout(*t)
	}
	if l.cfg.Remote() {
		if err := sandbox.RefuseMetadata(c); err != nil {
			return fmt.Errorf("browser context: refusing the cloud metadata endpoints: %w", err)
		}
	}
	if err := l.origins.Load().Install(c); err != nil {
		return fmt.Errorf("browser context: origin filter: %w", err)
	}
	return nil
}

// SetOriginFilter filters the requests of every context created after it
// (nil: none). `ferridriver mcp` sets --allowed-origins/--blocked-origins.
func (l *Launcher) SetOriginFilter(f *sandbox.OriginFilter) { l.origins.Store(f) }

// OriginFilter returns the filter SetOriginFilter set (nil: none).
func (l *Launcher) OriginFilter() *sandbox.OriginFilter { return l.origins.Load() }

// Prewarm starts creating, in the background, the context and page that
// worker's next Session will use, launching the browser if needed. The
// prepared context is brand new and unused, so isolation is unchanged; a
// Session takes it on its first Page call. At most one is kept per worker.
// Prewarm returns at once; failures are dropped (the Session then creates
// its own context and reports any error itself). A prepared context is
// dropped, too, if the storageState file changed since it was made.
func (l *Launcher) Prewarm(worker int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.prewarmed[worker] != nil {
		return
	}
	p := &prepared{done: make(chan struct{}), state: l.storageStamp()}
	l.prewarmed[worker] = p
	go func() {
		defer close(p.done)
		p.set, p.err = l.newPageSet(context.Background(), worker)
		if p.err != nil {
			l.mu.Lock()
			if l.prewarmed[worker] == p {
				delete(l.prewarmed, worker)
			}
			l.mu.Unlock()
		}
	}()
}

// takePrepared hands over worker's prepared page set, waiting for it if it
// is still being made; nil if there is none or it is unusable.
func (l *Launcher) takePrepared(ctx context.Context, worker int) *pageSet {
	l.mu.Lock()
	p := l.prewarmed[worker]
	delete(l.prewarmed, worker)
	l.mu.Unlock()
	if p == nil {
		return nil
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		go func() { <-p.done; p.discard(l) }()
		return nil
	}
	if p.err != nil {
		return nil
	}
	if !p.set.slot.usable() || p.state != l.storageStamp() {
		p.discard(l)
		return nil
	}
	return p.set
}

func (p *prepared) discard(l *Launcher) {
	if p.err == nil && p.set != nil {
		_ = p.set.context.Close()
		if p.set.recorded != nil {
			l.discardVideos(p.set.recorded)
		}
	}
}

// Session is one test case's view of the browser: a fresh BrowserContext
// and Page, created on first use, closed by Close. Its methods are safe for
// concurrent use.
type Session struct {
	l      *Launcher
	worker int
	name   string

	mu      sync.Mutex
	set     *pageSet
	request playwright.APIRequestContext
	closed  bool
	// shared: the context and page belong to another session (Shared);
	// Close leaves them open.
	shared bool
}

// Shared returns a session on s's context whose page is page (one of the
// context's pages): test cases run through it act on a live page, as an
// MCP agent left it, and closing it leaves the context and page open. s
// must have started.
func (s *Session) Shared(page playwright.Page) (*Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set == nil || s.closed {
		return nil, errors.New("world: the session has no page yet")
	}
	set := &pageSet{slot: s.set.slot, context: s.set.context, page: page}
	return &Session{l: s.l, worker: s.worker, name: s.name, set: set, shared: true}, nil
}

// NewSession returns a Session for a test case run by worker (0-based)
// whose name is used for artifact file names. It starts nothing.
func (l *Launcher) NewSession(worker int, name string) *Session {
	return &Session{l: l, worker: worker, name: name}
}

// Page returns the session's page, creating the context and page (and
// launching the browser) on first use.
func (s *Session) Page(ctx context.Context) (playwright.Page, error) {
	ps, err := s.ensure(ctx)
	if err != nil {
		return nil, err
	}
	return ps.page, nil
}

// Context returns the session's browser context (created on first use).
func (s *Session) Context(ctx context.Context) (playwright.BrowserContext, error) {
	ps, err := s.ensure(ctx)
	if err != nil {
		return nil, err
	}
	return ps.context, nil
}

// Browser returns the browser serving this session, launching it if needed
// (without creating the session's context).
func (s *Session) Browser(ctx context.Context) (playwright.Browser, error) {
	s.mu.Lock()
	ps := s.set
	s.mu.Unlock()
	if ps != nil {
		return ps.slot.browser, nil
	}
	return s.l.Browser(ctx, s.worker)
}

// Request returns an API request context honouring baseURL,
// ignoreHTTPSErrors, storageState and actionTimeout. It needs the driver but
// no browser; it is disposed by Close.
func (s *Session) Request(ctx context.Context) (playwright.APIRequestContext, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("world: session is closed")
	}
	if s.request != nil {
		return s.request, nil
	}
	pw, err := s.l.Playwright(ctx)
	if err != nil {
		return nil, err
	}
	c := &s.l.cfg
	opts := playwright.APIRequestNewContextOptions{}
	if c.BaseURL != "" {
		opts.BaseURL = playwright.String(c.BaseURL)
	}
	if c.IgnoreHTTPSErrors {
		opts.IgnoreHttpsErrors = playwright.Bool(true)
	}
	if c.StorageState != "" {
		opts.StorageStatePath = playwright.String(c.StorageState)
	}
	if c.ActionTimeout != nil {
		opts.Timeout = playwright.Float(*c.ActionTimeout)
	}
	if s.request, err = pw.Request.NewContext(opts); err != nil {
		return nil, fmt.Errorf("new API request context: %w", err)
	}
	return s.request, nil
}

// Started reports whether the session has created its context and page.
func (s *Session) Started() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.set != nil
}

// Idle reports whether the session has nothing to close: no context, no
// API request context.
func (s *Session) Idle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.set == nil && s.request == nil
}

// Crashed reports whether the browser serving this session's page exited
// unexpectedly.
func (s *Session) Crashed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.set != nil && s.set.slot.lost()
}

// LostError is the error of a test case during which the session's
// browser went away: a crash (relaunched next) or, for a remote browser,
// a dropped connection (reconnected next). It wraps ErrBrowserCrashed.
func (s *Session) LostError() error { return s.l.lostError(nil) }

// Explain turns an error from a Playwright call made with this session's
// page into a clear one when the cause is a browser crash (wrapping
// ErrBrowserCrashed); other errors are returned unchanged.
func (s *Session) Explain(err error) error {
	if err == nil || errors.Is(err, ErrBrowserCrashed) || !s.Crashed() {
		return err
	}
	return s.l.lostError(err)
}

func (s *Session) ensure(ctx context.Context) (*pageSet, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errors.New("world: session is closed")
	}
	if s.l.isClosed() {
		return nil, ErrClosed
	}
	if s.set != nil {
		if s.set.slot.lost() {
			return nil, s.l.lostError(nil)
		}
		return s.set, nil
	}
	ps := s.l.takePrepared(ctx, s.worker)
	if ps == nil {
		var err error
		if ps, err = s.l.newPageSet(ctx, s.worker); err != nil {
			return nil, err
		}
	}
	s.set = ps
	if s.l.opts.AutoPrewarm {
		s.prewarmAfterLoad(ps.page)
	}
	return ps, nil
}

// prewarmAfterLoad starts preparing the worker's next page once page has
// loaded its first document, or after prewarmFallback if it has not by
// then (a test case that never navigates). Started at once, the next
// page's creation and the last context's closing compete with the first
// navigation of the test case (most test cases begin by opening a page)
// for the browser process, and that navigation is on the test case's
// critical path; after it, the next page is made while the test case
// acts and asserts. On the benchmark's browser suite at 1 worker on the
// headless shell that made the suite 2-8% faster (docs/benchmarks.md).
func (s *Session) prewarmAfterLoad(page playwright.Page) {
	var once sync.Once
	start := func() { once.Do(func() { s.l.Prewarm(s.worker) }) }
	page.Once("load", start)
	time.AfterFunc(s.l.prewarmFallback, start)
}

// prewarmFallback bounds how long the next page waits for the current
// one's first load.
const prewarmFallback = 250 * time.Millisecond

// Artifacts are what a closed session leaves for the report.
type Artifacts struct {
	// Screenshot is a PNG of the page at the end of the test case, taken
	// when screenshot = on; nil otherwise. (The only-on-failure screenshot
	// is the caller's: it shows the page when the step failed, see
	// browserenv.)
	Screenshot []byte
	// TracePath is the kept trace zip (trace on, or retain-on-failure and
	// failed); "" otherwise.
	TracePath string
	// Videos are the kept videos of the context's pages (video on, or
	// retain-on-failure and failed), in the order the pages opened.
	Videos []string
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Close ends the session: takes the end-of-test-case screenshot
// (screenshot = on) and stops the trace per its mode (failed says whether
// the test case failed), then closes the context. A session that never
// created its page costs nothing. If the browser crashed during the test
// case the error wraps ErrBrowserCrashed.
// Close is idempotent.
func (s *Session) Close(failed bool) (*Artifacts, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return &Artifacts{}, nil
	}
	s.closed = true
	ps, req := s.set, s.request
	s.mu.Unlock()

	art := &Artifacts{}
	var errs []error
	if req != nil {
		if err := req.Dispose(); err != nil && !errors.Is(err, playwright.ErrTargetClosed) {
			errs = append(errs, fmt.Errorf("dispose API request context: %w", err))
		}
	}
	if ps == nil || s.shared {
		return art, errors.Join(errs...)
	}
	if ps.slot.lost() {
		errs = append(errs, s.l.lostError(nil))
		return art, errors.Join(errs...)
	}
	if s.l.cfg.ScreenshotMode() == ModeOn && !ps.page.IsClosed() {
		png, err := ps.page.Screenshot(playwright.PageScreenshotOptions{
			Type: playwright.ScreenshotTypePng, Timeout: playwright.Float(10000),
		})
		if err != nil {
			errs = append(errs, s.Explain(fmt.Errorf("screenshot: %w", err)))
		} else {
			art.Screenshot = png
		}
	}
	name := unsafeName.ReplaceAllString(s.name, "-")
	if len(name) > 80 {
		name = name[:80]
	}
	if ps.tracing {
		tm := s.l.cfg.TraceMode()
		if tm == ModeOn || (tm == ModeRetainOnFailure && failed) {
			path := filepath.Join(s.l.outDir, "traces", fmt.Sprintf("%s-w%d-%d.zip", name, s.worker, s.l.seq.Add(1)))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				errs = append(errs, fmt.Errorf("trace dir: %w", err))
			} else if err := ps.context.Tracing().Stop(path); err != nil {
				errs = append(errs, s.Explain(fmt.Errorf("save trace %s: %w", path, err)))
			} else {
				art.TracePath = path
			}
		} else if err := ps.context.Tracing().Stop(); err != nil && !errors.Is(err, playwright.ErrTargetClosed) {
			errs = append(errs, s.Explain(fmt.Errorf("stop trace: %w", err)))
		}
	}
	if err := ps.context.Close(); err != nil && !errors.Is(err, playwright.ErrTargetClosed) {
		errs = append(errs, s.Explain(fmt.Errorf("close context: %w", err)))
	}
	if ps.recorded != nil {
		// The videos are complete once the context is closed.
		vm := s.l.cfg.VideoMode()
		keep := vm == ModeOn || (vm == ModeRetainOnFailure && failed)
		saved, err := s.l.keepVideos(ps.recorded, fmt.Sprintf("%s-w%d-%d", name, s.worker, s.l.seq.Add(1)), keep)
		if err != nil {
			errs = append(errs, s.Explain(err))
		}
		art.Videos = saved
	}
	return art, errors.Join(errs...)
}
