package browserenv

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/world"
)

// project bundles src as the step file of a VM, returns the VM with the
// environment's worker attached.
func project(t *testing.T, cfg world.Config, src string) (*Environment, *jsbridge.VM, *worker) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "steps.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := jsbridge.Build(jsbridge.BundleOptions{Dir: dir, Entries: []string{filepath.Join(dir, "steps.js")}})
	if err != nil {
		t.Fatal(err)
	}
	vm, err := jsbridge.NewVM(b, jsbridge.VMOptions{Host: jsbridge.HostBDD, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.OutputDir == "" {
		cfg.OutputDir = t.TempDir()
	}
	env, err := New(cfg, Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	we, err := env.Worker(0, vm)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		we.Close()
		vm.Close()
		if err := env.Close(); err != nil {
			t.Errorf("closing the environment: %v", err)
		}
	})
	return env, vm, we.(*worker)
}

func eval(t *testing.T, vm *jsbridge.VM, this goja.Value, src string) goja.Value {
	t.Helper()
	fn, err := vm.Runtime().RunString("(async function () {" + src + "})")
	if err != nil {
		t.Fatal(err)
	}
	f, _ := goja.AssertFunction(fn)
	v, err := vm.Call(f, this, nil, time.Minute, "test")
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v
}

func TestWorldPropertiesAreLazy(t *testing.T) {
	testenv.NeedBrowser(t)
	env, vm, w := project(t, world.Config{BaseURL: "http://127.0.0.1:9"}, `
const { setWorldConstructor, World } = require('@cucumber/cucumber')
class MyWorld extends World {
  constructor(o) { super(o); this.context = 'mine'; this.browser = undefined }
  get request() { return 'my request' }
}
setWorldConstructor(MyWorld)
`)
	w.BeginTestCase(&messages.Pickle{Name: "lazy"}, 0)
	obj, err := vm.NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	got := eval(t, vm, obj, `return [this.baseURL, this.context, this.request, typeof this.browser.newContext, Object.keys(this).includes('page')].join('|')`)
	if got.String() != "http://127.0.0.1:9|mine|my request|function|false" {
		t.Errorf("got %s", got)
	}
	if env.launcher.Started() {
		t.Fatal("reading the World started a browser")
	}
	// Assigning this.page replaces the accessor, as in cucumber-js suites.
	got = eval(t, vm, obj, `this.page = 42; return this.page`)
	if got.ToInteger() != 42 || w.ownPage {
		t.Errorf("this.page = %v, ownPage %v", got, w.ownPage)
	}
	w.EndTestCase(false)
	if env.launcher.Started() {
		t.Fatal("a test case that never touched the page started a browser")
	}
}

// cucumber's own World gets the accessors on its prototype, once: each
// World reads them, an assignment makes the World's own property, and
// the next World has the accessor again.
func TestDefaultWorldProperties(t *testing.T) {
	testenv.NeedBrowser(t)
	env, vm, w := project(t, world.Config{BaseURL: "http://127.0.0.1:9"}, `// no World constructor`)
	for i := range 2 {
		w.BeginTestCase(&messages.Pickle{Name: "default"}, 0)
		obj, err := vm.NewWorld()
		if err != nil {
			t.Fatal(err)
		}
		if !w.ownPage || w.world != obj {
			t.Fatalf("world %d: ownPage %v, the worker's World is this one: %v", i, w.ownPage, w.world == obj)
		}
		got := eval(t, vm, obj, `return [this.baseURL, typeof this.browser.newContext, Object.keys(this).includes('page'), 'page' in this].join('|')`)
		if got.String() != "http://127.0.0.1:9|function|false|true" {
			t.Errorf("world %d: got %s", i, got)
		}
		got = eval(t, vm, obj, `this.page = 42; return this.page + '|' + Object.keys(this).includes('page')`)
		if got.String() != "42|true" || w.ownPage {
			t.Errorf("world %d: this.page = %v, ownPage %v", i, got, w.ownPage)
		}
		w.EndTestCase(false)
	}
	if env.launcher.Started() {
		t.Fatal("test cases that never touched the page started a browser")
	}
}

func TestPageAndScreenshots(t *testing.T) {
	testenv.NeedBrowser(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, err := demoapp.Serve(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, vm, w := project(t, world.Config{BaseURL: base, Screenshot: world.ModeOn}, `// no steps`)
	for attempt := 0; attempt < 2; attempt++ {
		w.BeginTestCase(&messages.Pickle{Name: "page"}, attempt)
		obj, err := vm.NewWorld()
		if err != nil {
			t.Fatal(err)
		}
		got := eval(t, vm, obj, `await this.page.goto('/todo.html'); return [this.page === this.page, this.page.context() === this.context, await this.page.title()].join('|')`)
		if got.String() != "true|true|Todo list · Demo app" {
			t.Errorf("got %s", got)
		}
		shots := w.StepFailed()
		if len(shots) != 1 || shots[0].MediaType != "image/png" || shots[0].ContentEncoding != messages.AttachmentContentEncodingBase64 {
			t.Fatalf("failure screenshot: %+v", shots)
		}
		end := w.EndTestCase(true)
		if len(end) != 1 || end[0].MediaType != "image/png" {
			t.Fatalf("screenshot = on attaches at the end too: %d attachments", len(end))
		}
	}
}

func TestScriptBrowser(t *testing.T) {
	testenv.NeedBrowser(t)
	sb, err := NewScriptBrowser(world.Config{OutputDir: t.TempDir()}, Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := sb.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	}()
	vm, err := jsbridge.NewVM(nil, jsbridge.VMOptions{Host: jsbridge.HostScript, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	jsbridge.SetBrowserProvider(vm, sb)
	got := eval(t, vm, goja.Undefined(), `
		await page.setContent('<h1>script</h1>');
		const first = page;
		const out = [await page.locator('h1').textContent(), page === first, page.context() === context];
		await page.close();
		out.push(page === first, await page.evaluate(() => 1 + 1));
		return out.join('|');
	`)
	if got.String() != "script|true|true|false|2" {
		t.Errorf("got %s", got)
	}
	if !strings.Contains(sb.launcher.Marker(), "-") {
		t.Errorf("marker %q", sb.launcher.Marker())
	}
}
