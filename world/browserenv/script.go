package browserenv

import (
	"context"
	"sync"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/install"
	"github.com/ferridriver/ferridriver/world/jsapi"
)

// ScriptBrowser is the browser of the script host (`ferridriver run`): one
// page for the whole run (`page` and `context` globals, tool handlers'
// ctx.page), launched on first use. A page the script closed is replaced
// by a new one in the same context; a crashed browser by a new session.
// Install it with jsbridge.SetBrowserProvider. (The mcp host gives each
// client's VM an AgentBrowser.) Safe for concurrent use.
type ScriptBrowser struct {
	launcher *world.Launcher
	cfg      world.Config

	mu      sync.Mutex
	session *world.Session
	page    playwright.Page // replaces the session's page once it closed
}

// NewScriptBrowser returns a ScriptBrowser with the [browser]
// configuration. It starts nothing.
func NewScriptBrowser(cfg world.Config, opts Options) (*ScriptBrowser, error) {
	l, err := world.NewLauncher(cfg, world.Options{InstallDriver: install.EnsureDriver, Logf: opts.Logf, Debugf: opts.Debugf})
	if err != nil {
		return nil, err
	}
	return &ScriptBrowser{launcher: l, cfg: cfg}, nil
}

// Launcher is the browser the script runs on.
func (s *ScriptBrowser) Launcher() *world.Launcher { return s.launcher }

// Close closes the session's context, the browser and the driver.
func (s *ScriptBrowser) Close() error {
	s.mu.Lock()
	sess := s.session
	s.session = nil
	s.mu.Unlock()
	if sess != nil {
		_, _ = sess.Close(false)
	}
	return s.launcher.Close()
}

type scriptHostKey struct{}

// bind makes vm's bindings use this browser (once per VM).
func (s *ScriptBrowser) bind(vm *jsbridge.VM) *jsapi.Runtime {
	api := jsapi.Of(vm)
	vm.Local(scriptHostKey{}, func() any {
		api.SetHost(scriptHost{s})
		return true
	})
	return api
}

func (s *ScriptBrowser) current() *world.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == nil || s.session.Crashed() {
		if s.session != nil {
			go func(old *world.Session) { _, _ = old.Close(false) }(s.session)
		}
		s.session = s.launcher.NewSession(0, "script")
		s.page = nil
	}
	return s.session
}

// Page returns the session's page, creating it (and launching the browser)
// on first use.
func (s *ScriptBrowser) Page(vm *jsbridge.VM, _ *jsbridge.ToolFrame) (goja.Value, error) {
	api := s.bind(vm)
	sess := s.current()
	ctx, cancel := context.WithTimeout(context.Background(), acquireTimeout)
	defer cancel()
	p, err := sess.Page(ctx)
	if err != nil {
		return nil, sess.Explain(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.page != nil {
		p = s.page
	}
	if p.IsClosed() {
		np, err := p.Context().NewPage()
		if err != nil {
			return nil, sess.Explain(err)
		}
		s.page, p = np, np
	}
	return api.Page(p), nil
}

// Context returns the session's browser context.
func (s *ScriptBrowser) Context(vm *jsbridge.VM, _ *jsbridge.ToolFrame) (goja.Value, error) {
	api := s.bind(vm)
	sess := s.current()
	ctx, cancel := context.WithTimeout(context.Background(), acquireTimeout)
	defer cancel()
	c, err := sess.Context(ctx)
	if err != nil {
		return nil, sess.Explain(err)
	}
	return api.Context(c), nil
}

// scriptHost is the jsapi.Host of script and mcp VMs.
type scriptHost struct{ s *ScriptBrowser }

func (h scriptHost) Browser(ctx context.Context) (playwright.Browser, error) {
	return h.s.launcher.Browser(ctx, 0)
}

func (h scriptHost) ContextDefaults() (playwright.BrowserNewContextOptions, error) {
	return h.s.launcher.ContextOptions()
}

func (h scriptHost) ContextCreated(c playwright.BrowserContext) error {
	return h.s.launcher.ConfigureContext(c)
}

func (h scriptHost) Playwright(ctx context.Context) (*playwright.Playwright, error) {
	return h.s.launcher.Playwright(ctx)
}

func (h scriptHost) Explain(err error) error {
	h.s.mu.Lock()
	sess := h.s.session
	h.s.mu.Unlock()
	if sess == nil {
		return err
	}
	return sess.Explain(err)
}

func (h scriptHost) ActionTimeout() float64 { return actionTimeout(&h.s.cfg) }

func (h scriptHost) PrepareVideo(ctx context.Context) error { return h.s.launcher.PrepareVideo(ctx) }

func (h scriptHost) DeviceDescriptors(ctx context.Context) ([]byte, error) {
	return h.s.launcher.DeviceDescriptors(ctx)
}
