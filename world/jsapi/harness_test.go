package jsapi_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/jsapi"
)

// The tests share one Launcher (one browser) and one demo app; each test
// gets its own context and page.
var (
	shared struct {
		once     sync.Once
		launcher *world.Launcher
		demo     string
		err      error
	}
)

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.launcher != nil {
		if err := shared.launcher.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "closing the launcher:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// requireBrowser fails loudly when the browser is missing, unless
// FERRIDRIVER_SKIP_BROWSER=1.
func requireBrowser(t testing.TB) (*world.Launcher, string) {
	t.Helper()
	testenv.NeedBrowser(t)
	shared.once.Do(func() {
		shared.demo, shared.err = demoapp.Serve(context.Background(), "127.0.0.1:0")
		if shared.err != nil {
			return
		}
		shared.launcher, shared.err = world.NewLauncher(world.Config{OutputDir: os.TempDir(), BaseURL: shared.demo}, world.Options{})
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.launcher, shared.demo
}

// testHost is the jsapi.Host of a test VM.
type testHost struct {
	l *world.Launcher
	s *world.Session
}

func (h testHost) Browser(ctx context.Context) (playwright.Browser, error) {
	return h.l.Browser(ctx, 0)
}
func (h testHost) ContextDefaults() (playwright.BrowserNewContextOptions, error) {
	return h.l.ContextOptions()
}
func (h testHost) ContextCreated(playwright.BrowserContext) error { return nil }
func (h testHost) Playwright(ctx context.Context) (*playwright.Playwright, error) {
	return h.l.Playwright(ctx)
}
func (h testHost) Explain(err error) error { return h.s.Explain(err) }
func (h testHost) ActionTimeout() float64  { return 0 }
func (h testHost) PrepareVideo(ctx context.Context) error {
	return h.l.PrepareVideo(ctx)
}
func (h testHost) DeviceDescriptors(ctx context.Context) ([]byte, error) {
	return h.l.DeviceDescriptors(ctx)
}

// testProvider gives the page and context globals of an mcp or script
// host's VM.
type testProvider struct {
	api *jsapi.Runtime
	p   playwright.Page
}

func (tp testProvider) Page(*jsbridge.VM, *jsbridge.ToolFrame) (goja.Value, error) {
	return tp.api.Page(tp.p), nil
}
func (tp testProvider) Context(*jsbridge.VM, *jsbridge.ToolFrame) (goja.Value, error) {
	return tp.api.Context(tp.p.Context()), nil
}

// env is a VM with `page`, `context`, `expect` and the modules, on a
// fresh page.
type env struct {
	t   testing.TB
	vm  *jsbridge.VM
	api *jsapi.Runtime
	s   *world.Session
	url string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvWith(t, nil)
}

// newEnvWith is newEnv with the step definitions of bundle b loaded.
func newEnvWith(t testing.TB, b *jsbridge.Bundle) *env {
	t.Helper()
	return newEnvIn(t, b, jsbridge.HostBDD, t.TempDir())
}

// newEnvIn is newEnvWith for a VM of host whose project directory is dir.
func newEnvIn(t testing.TB, b *jsbridge.Bundle, host, dir string) *env {
	t.Helper()
	l, demo := requireBrowser(t)
	vm, err := jsbridge.NewVM(b, jsbridge.VMOptions{Host: host, Dir: dir, Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	s := l.NewSession(0, t.Name())
	api := jsapi.Of(vm)
	api.SetHost(testHost{l: l, s: s})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := s.Page(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rt := vm.Runtime()
	if host == jsbridge.HostBDD {
		must(t, rt.Set("page", api.Page(p)))
		must(t, rt.Set("context", api.Context(p.Context())))
	} else {
		// The mcp and script hosts' page and context globals come from
		// their browser provider.
		jsbridge.SetBrowserProvider(vm, testProvider{api: api, p: p})
	}
	must(t, rt.Set("baseURL", demo))
	t.Cleanup(func() {
		c := p.Context()
		api.Reset(c)
		if _, err := s.Close(false); err != nil {
			t.Errorf("closing the session: %v", err)
		}
		vm.Close()
	})
	return &env{t: t, vm: vm, api: api, s: s, url: demo}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// run evaluates src as the body of an async function and awaits it.
func (e *env) run(src string) (goja.Value, error) {
	e.t.Helper()
	v, err := e.vm.Runtime().RunScript(e.t.Name()+".js", "(async () => {\n"+src+"\n})()")
	if err != nil {
		return nil, err
	}
	return e.vm.Await(v, 30*time.Second, "test script")
}

// ok runs src and fails the test on an error.
func (e *env) ok(src string) goja.Value {
	e.t.Helper()
	v, err := e.run(src)
	if err != nil {
		var je *jsbridge.JSError
		if errors.As(err, &je) {
			e.t.Fatalf("script failed: %s", je.Stack)
		}
		e.t.Fatalf("script failed: %v", err)
	}
	return v
}

// fails runs src, expects an error and returns its JSError.
func (e *env) fails(src string) *jsbridge.JSError {
	e.t.Helper()
	_, err := e.run(src)
	if err == nil {
		e.t.Fatalf("script succeeded, want an error:\n%s", src)
	}
	var je *jsbridge.JSError
	if !errors.As(err, &je) {
		e.t.Fatalf("error is %T (%v), want a JS error", err, err)
	}
	return je
}

func wantContains(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("want %q in:\n%s", w, got)
		}
	}
}
