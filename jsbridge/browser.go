package jsbridge

import (
	"github.com/dop251/goja"
)

// BrowserProvider gives JS code the live browser: the `page` and `context`
// of tool handler contexts and, in the script and mcp hosts, the `page`
// and `context` globals. The browser layer sets one per VM with
// SetBrowserProvider (typically from a RegisterInit function, or when a
// host attaches a browser session to its VM). Without a provider these
// values are undefined.
//
// Methods run on the VM's loop goroutine, when code first reads the value
// (a handler context asks once per call, lazily). They must not block the
// loop for long: return objects whose methods launch the browser on first
// use and return promises, as the other browser bindings do. frame is the
// running tool's frame (nil for steps and scripts), so a provider can pick
// the page of the caller (a BDD step's World) or of the session.
type BrowserProvider interface {
	Page(vm *VM, frame *ToolFrame) (goja.Value, error)
	Context(vm *VM, frame *ToolFrame) (goja.Value, error)
}

// SetBrowserProvider installs p as the VM's browser (nil removes it).
// Loop goroutine only.
func SetBrowserProvider(vm *VM, p BrowserProvider) {
	vm.toolsOf().browser = p
}

// browserValue asks the provider for the page or the context.
func (vm *VM) browserValue(which string, f *ToolFrame) goja.Value {
	p := vm.toolsOf().browser
	if p == nil {
		return goja.Undefined()
	}
	var v goja.Value
	var err error
	if which == "page" {
		v, err = p.Page(vm, f)
	} else {
		v, err = p.Context(vm, f)
	}
	if err != nil {
		vm.Throw(err)
	}
	if v == nil {
		return goja.Undefined()
	}
	return v
}

// defineBrowserAccessors defines lazy, cached page and context properties
// on a handler context.
func (vm *VM) defineBrowserAccessors(o *goja.Object, f *ToolFrame) {
	for _, name := range []string{"page", "context"} {
		var cached goja.Value
		which := name
		o.DefineAccessorProperty(name, vm.rt.ToValue(func(goja.FunctionCall) goja.Value {
			if cached == nil {
				cached = vm.browserValue(which, f)
			}
			return cached
		}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
}

// installBrowserGlobals defines the page and context globals of the script
// and mcp hosts. They are configurable, so a browser binding may also
// replace them outright.
func (vm *VM) installBrowserGlobals() {
	g := vm.rt.GlobalObject()
	for _, name := range []string{"page", "context"} {
		which := name
		g.DefineAccessorProperty(name, vm.rt.ToValue(func(goja.FunctionCall) goja.Value {
			return vm.browserValue(which, CurrentFrame(vm))
		}), nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
}
