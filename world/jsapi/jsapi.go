// Package jsapi binds Playwright's JavaScript API (Browser, BrowserContext,
// Page, Frame, Locator, Keyboard, Mouse, Request, Response, Route, Dialog,
// Download, APIRequestContext...) and Playwright's `expect` into ferridriver's
// goja VMs, over playwright-go.
//
// Names and option objects are Playwright's JS ones. Every call that talks
// to the browser returns a Promise: the blocking playwright-go call runs off
// the VM's event loop and the Promise is settled on it, so
// `await Promise.all([page.waitForResponse(u), locator.click()])` works as in
// Node. Calls that are synchronous in Playwright (page.locator, getBy*,
// page.url, page.keyboard...) are synchronous here too.
//
// The package knows nothing about test cases or configuration: a Host (the
// browser world) gives each VM's Runtime the shared browser and the context
// defaults, and wraps the pages it creates with Runtime.Page.
package jsapi

import (
	"context"
	_ "embed"
	"fmt"
	"sync"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// Host connects the bindings of one VM to the browser layer.
// ContextGate is what a Host implements to bound the browser contexts
// that JS creates (browser.newContext(), browser.newPage()): AllowContext
// refuses one more with an error that JS sees.
type ContextGate interface {
	AllowContext() error
}

type Host interface {
	// Browser returns the browser that `browser.newContext()` and
	// `chromium.launch()` use, launching it if needed.
	Browser(ctx context.Context) (playwright.Browser, error)
	// ContextDefaults are the [browser] options every context created from
	// JS starts from (baseURL, viewport...); the JS options override them.
	ContextDefaults() (playwright.BrowserNewContextOptions, error)
	// ContextCreated is told about every context created from JS, so it
	// gets the configured default timeouts and request filters; an error
	// closes the context and fails the call.
	ContextCreated(c playwright.BrowserContext) error
	// Playwright returns the driver connection (request.newContext()).
	Playwright(ctx context.Context) (*playwright.Playwright, error)
	// Explain rewrites an error caused by a crashed browser into a clear
	// one; other errors are returned unchanged.
	Explain(err error) error
	// ActionTimeout is the default timeout in ms of waits implemented on
	// the JS side (page.waitForEvent...), 0 = Playwright's 30000.
	ActionTimeout() float64
	// PrepareVideo makes sure the driver can record the videos of a
	// context created with recordVideo (ffmpeg where it looks).
	PrepareVideo(ctx context.Context) error
	// DeviceDescriptors returns the JSON of the driver's device
	// descriptors (Playwright's `devices`).
	DeviceDescriptors(ctx context.Context) ([]byte, error)
}

// Runtime is the browser API of one VM. It is used on the VM's loop
// goroutine only, except where a method says otherwise.
type Runtime struct {
	vm   *jsbridge.VM
	rt   *goja.Runtime
	loop *jsbridge.Loop

	hostMu sync.Mutex // Host is read by work goroutines (Explain)
	host   Host

	p protos

	// objects keeps one JS object per Playwright page, context, frame and
	// browser, so `===` and event listeners work as in Playwright.
	objects map[any]*goja.Object
	// owned are contexts and API request contexts created from JS during
	// the current test case: Reset closes those still open. longLived are
	// those created outside of a test case (BeforeAll): Close closes them.
	owned, longLived []closer
	inCase           bool

	// soft are the failures of expect.soft in the running step; uncaught
	// the errors thrown by event and route handlers. Both fail the step
	// when it ends (see stepCheck).
	soft     []goja.Value
	uncaught []goja.Value

	support *goja.Object // exports of playwright.js
	expect  goja.Value
	// sources caches function sources repaired for evaluate.
	sources map[string]string
	// testIDAttribute is the attribute getByTestId matches
	// (selectors.setTestIdAttribute).
	testIDAttribute string
	// dialogSubs are the contexts whose dialogs are subscribed to (see
	// subscribeDialogs).
	dialogSubs map[playwright.BrowserContext]bool
	// snapSettings are the run's visual comparison settings; testCase the
	// running test case (nil outside of one) and snapNames its snapshots
	// so far (see snapshot.go).
	snapSettings SnapshotSettings
	testCase     *TestCase
	snapNames    snapshotNames
	// devicesObj is the `devices` export (see devices.go).
	devicesObj goja.Value
	// recording are the contexts that record videos (see MarkRecording).
	recording map[playwright.BrowserContext]bool
}

type closer interface{ closeOwned() }

type runtimeKey struct{}

// Of returns the browser API of vm, creating it on first use. Loop
// goroutine only.
func Of(vm *jsbridge.VM) *Runtime {
	return vm.Local(runtimeKey{}, func() any { return newRuntime(vm) }).(*Runtime)
}

func newRuntime(vm *jsbridge.VM) *Runtime {
	r := &Runtime{
		vm: vm, rt: vm.Runtime(), loop: vm.Loop(),
		objects:         map[any]*goja.Object{},
		testIDAttribute: "data-testid",
	}
	r.p.init(r)
	return r
}

// SetHost installs the browser layer of this VM (nil removes it: browser
// calls then fail with a clear error).
func (r *Runtime) SetHost(h Host) {
	r.hostMu.Lock()
	r.host = h
	r.hostMu.Unlock()
}

// hostBaseURL is the baseURL of the host's contexts ("" when none). It is
// read when a context is first wrapped (once per test case) and by
// request.newContext: too rarely to be worth caching.
func (r *Runtime) hostBaseURL() string {
	h, err := r.getHost()
	if err != nil {
		return ""
	}
	if d, err := h.ContextDefaults(); err == nil && d.BaseURL != nil {
		return *d.BaseURL
	}
	return ""
}

func (r *Runtime) getHost() (Host, error) {
	r.hostMu.Lock()
	defer r.hostMu.Unlock()
	if r.host == nil {
		return nil, fmt.Errorf("no browser is available in this %s host", r.vm.Host())
	}
	return r.host, nil
}

// explain passes err through the host's crash detection. Any goroutine.
func (r *Runtime) explain(err error) error {
	r.hostMu.Lock()
	h := r.host
	r.hostMu.Unlock()
	if h == nil || err == nil {
		return err
	}
	return h.Explain(err)
}

func (r *Runtime) actionTimeout() float64 {
	r.hostMu.Lock()
	h := r.host
	r.hostMu.Unlock()
	if h != nil {
		if t := h.ActionTimeout(); t > 0 {
			return t
		}
	}
	return 30000
}

// Page returns the JS object of a Playwright page (the same object every
// time for the same page).
func (r *Runtime) Page(p playwright.Page) goja.Value { return r.pageObj(p) }

// Context returns the JS object of a Playwright browser context.
func (r *Runtime) Context(c playwright.BrowserContext) goja.Value { return r.contextObj(c) }

// APIRequest returns the JS object of an API request context.
// Its relative URLs resolve against the host's baseURL, as the context's.
func (r *Runtime) APIRequest(c playwright.APIRequestContext) goja.Value {
	return r.apiRequestObj(c, r.hostBaseURL())
}

func (r *Runtime) apiRequestObj(c playwright.APIRequestContext, baseURL string) *goja.Object {
	return r.newObject(r.p.get(&r.p.apiRequest, "APIRequestContext", r.apiRequestMethods), &apiRequestW{c: c, baseURL: baseURL})
}

// SharedBrowser returns a Browser object over the host's browser: its
// newContext/newPage create contexts owned by this VM, and its close()
// closes those contexts, never the shared browser process.
func (r *Runtime) SharedBrowser() goja.Value {
	return r.newObject(r.browserProto(), &browserW{})
}

// PageOf returns the Playwright page behind a JS Page object.
func (r *Runtime) PageOf(v goja.Value) (playwright.Page, bool) {
	if o, ok := v.(*goja.Object); ok {
		if pw, ok := o.Export().(*pageW); ok {
			return pw.p, true
		}
	}
	return nil, false
}

// own records a context or API request context created from JS, to be
// closed at the end of the test case (or of the VM, outside test cases).
func (r *Runtime) own(c closer) {
	if r.inCase {
		r.owned = append(r.owned, c)
	} else {
		r.longLived = append(r.longLived, c)
	}
}

// BeginTestCase marks the start of a test case: contexts created from JS
// until Reset belong to it; tc names its snapshots.
func (r *Runtime) BeginTestCase(tc TestCase) {
	r.inCase = true
	r.testCase, r.snapNames = &tc, snapshotNames{}
}

// Close closes what JS created outside of test cases (a context made in
// BeforeAll). Call it when the VM's worker stops.
func (r *Runtime) Close() {
	ll := r.longLived
	r.longLived = nil
	for _, c := range ll {
		c.closeOwned()
	}
}

// Reset ends a test case: it closes the contexts and API request contexts
// that JS created during it and left open, and forgets the JS objects of
// closed pages and contexts and of the given contexts (being closed by the
// caller).
func (r *Runtime) Reset(closing ...playwright.BrowserContext) {
	r.inCase, r.testCase = false, nil
	owned := r.owned
	r.owned = nil
	for _, c := range owned {
		c.closeOwned()
	}
	gone := map[playwright.BrowserContext]bool{}
	for _, c := range closing {
		gone[c] = true
	}
	for k, o := range r.objects {
		switch w := o.Export().(type) {
		case *pageW:
			if w.closed.Load() || gone[w.p.Context()] {
				delete(r.objects, k)
			}
			if gone[w.p.Context()] {
				delete(r.dialogSubs, w.p.Context())
			}
		case *frameW:
			if pg := w.page; pg == nil || pg.closed.Load() || gone[pg.p.Context()] {
				delete(r.objects, k)
			}
		case *contextW:
			if w.closed.Load() || gone[w.c] {
				delete(r.objects, k)
				delete(r.dialogSubs, w.c)
				delete(r.recording, w.c)
			}
		}
	}
	for c := range r.recording {
		if gone[c] {
			delete(r.recording, c)
		}
	}
	r.soft, r.uncaught = nil, nil
}
