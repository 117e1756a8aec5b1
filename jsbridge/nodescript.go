package jsbridge

import (
	"embed"
	"fmt"
	"sync"

	"github.com/dop251/goja"
)

// node/*.js are the JavaScript halves of Node built-ins: each file is one
// function expression, (function (binding, require) { ... return exports; }),
// called with the module's Go binding (or undefined) and the VM's builtin
// require.
//
//go:embed node/*.js
var nodeScripts embed.FS

var nodePrograms sync.Map // file name -> *compiledScript

type compiledScript struct {
	once sync.Once
	prg  *goja.Program
	err  error
}

// nodeScript evaluates node/<file> in vm and returns what its function
// returns for binding.
func (vm *VM) nodeScript(file string, binding goja.Value) (goja.Value, error) {
	c, _ := nodePrograms.LoadOrStore(file, &compiledScript{})
	cs := c.(*compiledScript)
	cs.once.Do(func() {
		src, err := nodeScripts.ReadFile("node/" + file)
		if err != nil {
			cs.err = err
			return
		}
		cs.prg, cs.err = goja.Compile("<ferridriver>/node/"+file, string(src), false)
	})
	if cs.err != nil {
		return nil, fmt.Errorf("node/%s: %w", file, cs.err)
	}
	v, err := vm.rt.RunProgram(cs.prg)
	if err != nil {
		return nil, fmt.Errorf("node/%s: %w", file, vm.toJSError(err))
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return nil, fmt.Errorf("node/%s: not a function", file)
	}
	if binding == nil {
		binding = goja.Undefined()
	}
	out, err := fn(goja.Undefined(), binding, vm.rt.ToValue(vm.strictRequire))
	if err != nil {
		return nil, vm.toJSError(err)
	}
	return out, nil
}

// strictRequire is the require node/*.js files get: a module that cannot
// load throws at once.
func (vm *VM) strictRequire(call goja.FunctionCall) goja.Value {
	v, err := vm.require(call.Argument(0).String())
	if err != nil {
		vm.Throw(err)
	}
	return v
}
