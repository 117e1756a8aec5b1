package browserenv

import (
	"context"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/jsapi"
)

// PageSource is the browser session an AgentBrowser gives code: an agent's
// session (world/browsing) whose browser tools act on the same page.
type PageSource interface {
	// Page and Context are the session's current tab and its context,
	// created (the browser launched) on first use.
	Page() (playwright.Page, error)
	Context() (playwright.BrowserContext, error)
	// Explain rewrites an error of the session's browser (a crash).
	Explain(err error) error
}

// ContextBudget bounds the browser contexts that code creates
// (browser.newContext()): AllowContext refuses one past the bound, and
// TrackContext counts one until it closes.
type ContextBudget interface {
	AllowContext() error
	TrackContext(c playwright.BrowserContext)
}

// AgentBrowser is the browser of an MCP client's script VM: the `page` and
// `context` globals, extension tools' ctx.page/ctx.context and the page
// given to Playwright code are the current tab and context of the client's
// browser session (src), the ones its browser tools drive. Contexts that
// the VM's code creates count against budget (nil: unbounded) and close
// with the VM.
type AgentBrowser struct {
	launcher *world.Launcher
	cfg      world.Config
	src      PageSource
	budget   ContextBudget
}

// NewAgentBrowser returns the provider of a VM whose page comes from src,
// on the browser of l (which the caller keeps owning).
func NewAgentBrowser(l *world.Launcher, src PageSource, budget ContextBudget) *AgentBrowser {
	return &AgentBrowser{launcher: l, cfg: l.Config(), src: src, budget: budget}
}

type agentHostKey struct{}

// bind makes vm's bindings use this browser (once per VM); what the VM's
// code created (contexts, request contexts) closes with the VM.
func (b *AgentBrowser) bind(vm *jsbridge.VM) *jsapi.Runtime {
	api := jsapi.Of(vm)
	vm.Local(agentHostKey{}, func() any {
		api.SetHost(agentHost{b})
		vm.OnClose(api.Close)
		return true
	})
	return api
}

// Page returns the session's current tab.
func (b *AgentBrowser) Page(vm *jsbridge.VM, _ *jsbridge.ToolFrame) (goja.Value, error) {
	api := b.bind(vm)
	p, err := b.src.Page()
	if err != nil {
		return nil, err
	}
	return api.Page(p), nil
}

// Context returns the session's browser context.
func (b *AgentBrowser) Context(vm *jsbridge.VM, _ *jsbridge.ToolFrame) (goja.Value, error) {
	api := b.bind(vm)
	c, err := b.src.Context()
	if err != nil {
		return nil, err
	}
	return api.Context(c), nil
}

// PageValue is the JS object of page in vm (a page of the session's
// context, for code given a page as its argument).
func (b *AgentBrowser) PageValue(vm *jsbridge.VM, p playwright.Page) goja.Value {
	return b.bind(vm).Page(p)
}

// agentHost is the jsapi.Host of an MCP client's VM.
type agentHost struct{ b *AgentBrowser }

func (h agentHost) Browser(ctx context.Context) (playwright.Browser, error) {
	return h.b.launcher.Browser(ctx, 0)
}

func (h agentHost) ContextDefaults() (playwright.BrowserNewContextOptions, error) {
	return h.b.launcher.ContextOptions()
}

// AllowContext implements jsapi.ContextGate.
func (h agentHost) AllowContext() error {
	if h.b.budget != nil {
		return h.b.budget.AllowContext()
	}
	return nil
}

func (h agentHost) ContextCreated(c playwright.BrowserContext) error {
	if h.b.budget != nil {
		h.b.budget.TrackContext(c)
	}
	return h.b.launcher.ConfigureContext(c)
}

func (h agentHost) Playwright(ctx context.Context) (*playwright.Playwright, error) {
	return h.b.launcher.Playwright(ctx)
}

func (h agentHost) Explain(err error) error { return h.b.src.Explain(err) }

func (h agentHost) ActionTimeout() float64 { return actionTimeout(&h.b.cfg) }

func (h agentHost) PrepareVideo(ctx context.Context) error { return h.b.launcher.PrepareVideo(ctx) }

func (h agentHost) DeviceDescriptors(ctx context.Context) ([]byte, error) {
	return h.b.launcher.DeviceDescriptors(ctx)
}

// Pause implements jsapi.Debugger: the page source pauses the code when
// it can (an MCP client's session: until browser_resume).
func (h agentHost) Pause(where string) error {
	if d, ok := h.b.src.(jsapi.Debugger); ok {
		return d.Pause(where)
	}
	return nil
}

// BeforeCall implements jsapi.Debugger.
func (h agentHost) BeforeCall(api, where string) error {
	if d, ok := h.b.src.(jsapi.Debugger); ok {
		return d.BeforeCall(api, where)
	}
	return nil
}
