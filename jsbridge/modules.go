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

var (
	modulesMu       sync.RWMutex
	moduleFactories = map[string]ModuleFactory{}
)

// RegisterModule makes name importable from step files, extensions and
// scripts ("@playwright/test", "ferridriver", ...). Packages that add to the
// JS API (the browser world, the MCP host) register their modules from init,
// like image.RegisterFormat; the bundler then resolves those imports to the
// VM instead of node_modules. Node core names use the "node:" prefix.
func RegisterModule(name string, f ModuleFactory) {
	modulesMu.Lock()
	defer modulesMu.Unlock()
	if _, dup := moduleFactories[name]; dup {
		panic("jsbridge: module registered twice: " + name)
	}
	moduleFactories[name] = f
}

// require returns the exports of a builtin module, building them once.
func (vm *VM) require(name string) (goja.Value, error) {
	if v, ok := vm.modules[name]; ok {
		return v, nil
	}
	modulesMu.RLock()
	f, ok := moduleFactories[name]
	modulesMu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("module %q is not available in ferridriver (available: %s)", name, availableModules())
	}
	v, err := f(vm)
	if err != nil {
		return nil, fmt.Errorf("module %q: %w", name, err)
	}
	vm.modules[name] = v
	return v, nil
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
