package jsapi

import (
	_ "embed"
	"fmt"
	"sync"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/scaffold"
	"github.com/ferridriver/ferridriver/world/pwerror"
)

//go:embed playwright.js
var supportSource string

// typesSource declares this package's API for TypeScript editors;
// `ferridriver init` writes it to types/playwright.d.ts.
//
//go:embed types/playwright.d.ts
var typesSource string

// supportName starts with "<ferridriver" so error stacks skip its frames.
const supportName = "<ferridriver-playwright.js>"

var (
	supportOnce sync.Once
	supportPrg  *goja.Program
	supportErr  error
)

// The modules existing suites import: @playwright/test (expect and the
// browser types), playwright and playwright-core (chromium...), and the
// expect of ferridriver's own module. Imports resolve to the VM, never to
// node_modules.
var moduleNames = []string{"@playwright/test", "playwright/test", "playwright", "playwright-core", "ferridriver"}

func init() {
	for _, name := range moduleNames {
		jsbridge.RegisterModule(name, func(vm *jsbridge.VM) (goja.Value, error) {
			return Of(vm).module(name)
		})
	}
	jsbridge.RegisterInit(func(vm *jsbridge.VM) error { return Of(vm).install() })
	scaffold.RegisterTypes("types/playwright.d.ts", typesSource)
}

// install evaluates the expect support code and defines the expect global.
func (r *Runtime) install() error {
	supportOnce.Do(func() {
		supportPrg, supportErr = goja.Compile(supportName, supportSource, true)
	})
	if supportErr != nil {
		return fmt.Errorf("ferridriver expect: %w", supportErr)
	}
	v, err := r.rt.RunProgram(supportPrg)
	if err != nil {
		return fmt.Errorf("ferridriver expect: %w", err)
	}
	fn, _ := goja.AssertFunction(v)
	native := r.rt.NewObject()
	_ = native.Set("webFirst", r.webFirst)
	_ = native.Set("webFirstNames", r.strArray(webFirstNames))
	_ = native.Set("toHaveScreenshot", r.toHaveScreenshot)
	_ = native.Set("toMatchSnapshot", r.toMatchSnapshot)
	_ = native.Set("recordSoft", func(c goja.FunctionCall) goja.Value {
		r.soft = append(r.soft, c.Argument(0))
		return goja.Undefined()
	})
	exp, err := fn(goja.Undefined(), native)
	if err != nil {
		return fmt.Errorf("ferridriver expect: %w", err)
	}
	r.support = exp.ToObject(r.rt)
	r.expect = r.support.Get("expect")
	if err := r.rt.GlobalObject().Set("expect", r.expect); err != nil {
		return err
	}
	r.vm.AddStepCheck(r.stepCheck)
	return nil
}

// explainFailure is explainFailure(message, target?, action?) of module
// "ferridriver": the message of a failed browser call as ferridriver words
// it (pwerror.Format), naming the target and the action as the user wrote
// them. The built-in steps use it for their targets and waits.
func (r *Runtime) explainFailure(c goja.FunctionCall) goja.Value {
	str := func(i int) string {
		if v := c.Argument(i); !goja.IsUndefined(v) && !goja.IsNull(v) {
			return v.String()
		}
		return ""
	}
	return r.rt.ToValue(pwerror.Format(pwerror.Failure{Message: str(0), Target: str(1), Action: str(2)}))
}

// module builds the exports of one of moduleNames.
func (r *Runtime) module(name string) (goja.Value, error) {
	exp := r.rt.NewObject()
	set := func(k string, v any) { _ = exp.Set(k, v) }
	if name != "playwright" && name != "playwright-core" {
		set("expect", r.expect)
	}
	if name == "ferridriver" {
		set("explainFailure", r.explainFailure)
		return exp, nil
	}
	for _, b := range []string{"chromium", "firefox", "webkit"} {
		set(b, r.browserType(b))
	}
	req := r.rt.NewObject()
	_ = req.Set("newContext", r.newAPIRequestContext)
	set("request", req)
	set("devices", r.devices())
	errs := r.rt.NewObject()
	_ = errs.Set("TimeoutError", r.support.Get("TimeoutError"))
	set("errors", errs)
	sel := r.rt.NewObject()
	_ = sel.Set("setTestIdAttribute", func(c goja.FunctionCall) goja.Value {
		r.testIDAttribute = c.Argument(0).String()
		return goja.Undefined()
	})
	_ = sel.Set("register", func(goja.FunctionCall) goja.Value {
		panic(r.rt.NewTypeError("%s", "selectors.register is not supported by ferridriver"))
	})
	set("selectors", sel)
	return exp, nil
}
