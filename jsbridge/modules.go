package jsbridge

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// ModuleFactory builds the exports of a builtin module in one VM. It runs on
// the VM's loop goroutine the first time the module is imported.
type ModuleFactory func(vm *VM) (goja.Value, error)

// InitFunc prepares a new VM (globals, per-VM state) before user code runs.
type InitFunc func(vm *VM) error

var (
	modulesMu       sync.RWMutex
	moduleFactories = map[string][]ModuleFactory{}
	initFuncs       []InitFunc
)

// RegisterModule makes name importable from step files, extensions and
// scripts ("@playwright/test", "ferridriver", ...). Packages that add to the
// JS API (the browser world, extension tools) register from init, like
// image.RegisterFormat; the bundler then resolves those imports to the VM
// instead of node_modules. Several packages may contribute to one module:
// their exports are merged. Node core names use the "node:" prefix.
func RegisterModule(name string, f ModuleFactory) {
	modulesMu.Lock()
	defer modulesMu.Unlock()
	moduleFactories[name] = append(moduleFactories[name], f)
}

// RegisterInit adds a function run for every new VM after the builtin
// globals are installed and before the bundle is evaluated.
func RegisterInit(f InitFunc) {
	modulesMu.Lock()
	defer modulesMu.Unlock()
	initFuncs = append(initFuncs, f)
}

func (vm *VM) runInits() error {
	modulesMu.RLock()
	fs := append([]InitFunc(nil), initFuncs...)
	modulesMu.RUnlock()
	for _, f := range fs {
		if err := f(vm); err != nil {
			return err
		}
	}
	return nil
}

// require returns the exports of a builtin module, building them once.
func (vm *VM) require(name string) (goja.Value, error) {
	if v, ok := vm.modules[name]; ok {
		return v, nil
	}
	modulesMu.RLock()
	fs := append([]ModuleFactory(nil), moduleFactories[name]...)
	modulesMu.RUnlock()
	if len(fs) == 0 {
		return nil, fmt.Errorf("module %q is not available in ferridriver (available: %s)", name, availableModules())
	}
	var v goja.Value
	for i, f := range fs {
		part, err := f(vm)
		if err != nil {
			return nil, fmt.Errorf("module %q: %w", name, err)
		}
		if i == 0 {
			v = part
			if len(fs) > 1 {
				merged := vm.rt.NewObject()
				copyProps(vm.rt, merged, part)
				v = merged
			}
			continue
		}
		copyProps(vm.rt, v.(*goja.Object), part)
	}
	vm.modules[name] = v
	return v, nil
}

// builtinName maps Node's bare name of a core module ("fs") to the
// "node:" name ferridriver registers it under; other names are unchanged.
func builtinName(name string) string {
	if strings.HasPrefix(name, "node:") {
		return name
	}
	modulesMu.RLock()
	defer modulesMu.RUnlock()
	if _, ok := moduleFactories["node:"+name]; ok {
		return "node:" + name
	}
	return name
}

func copyProps(rt *goja.Runtime, dst *goja.Object, src goja.Value) {
	o, ok := src.(*goja.Object)
	if !ok {
		return
	}
	for _, k := range o.Keys() {
		dst.Set(k, o.Get(k))
	}
}

func availableModules() string {
	modulesMu.RLock()
	defer modulesMu.RUnlock()
	names := make([]string, 0, len(moduleFactories))
	for n := range moduleFactories {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// Local returns the value stored in this VM under key, creating it with
// init on first use. Packages keep their per-VM state here (the browser
// world's session, the tools' policy). Loop goroutine only.
func (vm *VM) Local(key any, init func() any) any {
	if v, ok := vm.locals[key]; ok {
		return v
	}
	v := init()
	vm.locals[key] = v
	return v
}
