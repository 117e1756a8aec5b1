package jsbridge

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/internal/jspack"
)

// Modules are compiled when first required: every module of the pack
// must compile, or a run would only find out when its code used it.
func TestEveryPolyfillModuleCompiles(t *testing.T) {
	p, err := loadedPolyfills()
	if err != nil {
		t.Skip("built without polyfills:", err)
	}
	js := 0
	for id, m := range p.mods {
		if m.Kind != "js" {
			continue
		}
		js++
		if _, err := p.program(id); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
	}
	if js < 100 {
		t.Errorf("only %d JavaScript modules in the pack", js)
	}
}

// loadedModules counts the pack's modules vm evaluated.
func loadedModules(vm *VM) (n int, names []string) {
	st, ok := vm.locals[polyfillsKey{}].(*polyfillState)
	if !ok {
		return 0, nil
	}
	for id, m := range st.modules {
		if m != nil {
			n++
			names = append(names, st.pack.mods[id].Name)
		}
	}
	return n, names
}

// A VM loads no polyfill until its code uses one; then only the modules
// that code requires, and the globals that load on first touch (Buffer,
// the ECMAScript built-ins of core-js) behave as if always there.
func TestPolyfillsLoadOnFirstUse(t *testing.T) {
	if !HasPolyfills() {
		t.Skip("built without polyfills")
	}
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": "export const x = 1"}, VMOptions{})
	if n, names := loadedModules(vm); n > 1 {
		t.Errorf("a new VM loaded %d modules: %v", n, names)
	}
	if got := mustEval(t, vm, `return typeof require('events').once`); got != "function" {
		t.Errorf("events: %s", got)
	}
	n, names := loadedModules(vm)
	if n < 2 || n > 3 {
		t.Errorf("require('events') loaded %d modules: %v", n, names)
	}
	for _, name := range names {
		if strings.Contains(name, "core-js") || strings.Contains(name, "buffer") {
			t.Errorf("require('events') loaded %s", name)
		}
	}
	// The placeholders: a descriptor is there before core-js loads, the
	// real functions after any one of them is touched.
	if got := mustEval(t, vm, `return typeof Object.getOwnPropertyDescriptor(Map, 'groupBy').get`); got != "function" {
		t.Errorf("Map.groupBy before use: a %s getter", got)
	}
	for _, tc := range []struct{ src, want string }{
		{`return JSON.stringify(Object.groupBy([1, 2, 3], (x) => x % 2 ? 'odd' : 'even'))`, `{"odd":[1,3],"even":[2]}`},
		{`return typeof Object.getOwnPropertyDescriptor(Map, 'groupBy').value + Map.groupBy([1], (x) => x).size`, "function1"},
		{`return 'a\uD800'.isWellFormed() + 'a\uD800'.toWellFormed()`, "falsea\uFFFD"},
		{`const { promise, resolve } = Promise.withResolvers(); resolve(7); return await promise`, "7"},
		{`return (await Array.fromAsync([Promise.resolve(1), 2])).join()`, "1,2"},
		{`return Buffer.from('hé').toString('hex') + (Buffer === require('buffer').Buffer) + Object.keys(globalThis).includes('Buffer')`, "68c3a9truefalse"},
	} {
		if got := mustEval(t, vm, tc.src); got != tc.want {
			t.Errorf("%s\n got %q\nwant %q", tc.src, got, tc.want)
		}
	}
	// Assigning a global that has a placeholder replaces it.
	vm2, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	if got := mustEval(t, vm2, `Promise.withResolvers = () => 'mine'; Buffer = 'b'; return Promise.withResolvers() + Buffer`); got != "mineb" {
		t.Errorf("assigned: %s", got)
	}
}

// A module that throws while loading throws at its require, every time,
// with the module's own exception; a module requiring a specifier that is
// not in the pack gets Node's MODULE_NOT_FOUND.
func TestPolyfillRequireErrors(t *testing.T) {
	if !HasPolyfills() {
		t.Skip("built without polyfills")
	}
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	// A pack of our own: 0 requires 1, which throws, and 2, which is absent.
	p := &polyfillPack{}
	data, err := jspack.Write([]jspack.Module{
		{Name: "entry.js", Kind: jspack.KindJS, Source: `exports.bad = () => require('./bad'); exports.missing = () => require('./missing');`, Requires: map[string]int{"./bad": 1}},
		{Name: "bad.js", Kind: jspack.KindJS, Source: `throw new TypeError('broken at load')`},
	})
	if err != nil {
		t.Fatal(err)
	}
	pk, err := jspack.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	p.pack, p.mods, p.programs = pk, pk.Modules, make([]lazyProgram, len(pk.Modules))
	own := &polyfillState{pack: p, modules: make([]*goja.Object, len(p.mods))}
	exp, err := vm.requirePolyfill(own, 0)
	if err != nil {
		t.Fatal(err)
	}
	vm.rt.Set("own", exp)
	for range 2 {
		if got := mustEval(t, vm, `try { own.bad() } catch (e) { return e.name + ': ' + e.message }`); got != "TypeError: broken at load" {
			t.Errorf("bad: %s", got)
		}
	}
	if got := mustEval(t, vm, `try { own.missing() } catch (e) { return e.code + ': ' + e.message }`); !strings.HasPrefix(got, "MODULE_NOT_FOUND: Cannot find module './missing'") {
		t.Errorf("missing: %s", got)
	}
}
