package jsbridge

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/internal/jspack"
)

// Node built-ins come from three places (docs/architecture.md): npm
// polyfills packed at build time (streams, events, util, assert, buffer,
// string_decoder, querystring, legacy url), Go for what touches the OS (fs,
// zlib, child_process, the http client, os, crypto), and small JavaScript
// glue in node/*.js that gives both Node's module shapes.
//
// The polyfills are a pack of CommonJS modules (internal/jspack), one per
// file of the npm packages. A module is compiled the first time a VM
// requires it (once per process, shared by the VMs) and evaluated once per
// VM, so a run pays only for the modules its code uses: compiling all of
// them took longer than the rest of a small suite's start-up.

//go:generate go run ../tools/polyfills/gen.go -src ../tools/polyfills -out polyfills/polyfills.pack

// polyfillFS holds polyfills/polyfills.pack when the build generated it
// (make polyfills); the directory always holds its committed README, so a
// plain `go build` compiles.
//
//go:embed polyfills
var polyfillFS embed.FS

// polyfillsPrefix names the modules' sources in stack traces.
const polyfillsPrefix = "<ferridriver>/polyfills/"

// errNoPolyfills is what a module needing a polyfill throws in a binary
// built without them.
var errNoPolyfills = errors.New("this ferridriver was built without its Node polyfills (jsbridge/polyfills/polyfills.pack, generated from tools/polyfills); build it with `make build`")

// polyfillPack is the pack of one process: its index, and each module's
// program, compiled on first use from its source, read then.
type polyfillPack struct {
	pack     *jspack.Pack
	mods     []jspack.Module
	byName   map[string]int
	programs []lazyProgram
}

type lazyProgram struct {
	once sync.Once
	prg  *goja.Program
	err  error
}

var (
	polyfillOnce sync.Once
	polyfillsP   *polyfillPack
	polyfillErr  error
)

func loadedPolyfills() (*polyfillPack, error) {
	polyfillOnce.Do(func() { polyfillsP, polyfillErr = loadPolyfills(polyfillFS) })
	return polyfillsP, polyfillErr
}

// loadPolyfills reads the index of polyfills/polyfills.pack of fsys (the
// sources are read when compiled); errNoPolyfills when it is not there.
func loadPolyfills(fsys fs.FS) (*polyfillPack, error) {
	f, err := fsys.Open("polyfills/polyfills.pack")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoPolyfills
	}
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r, ok := f.(io.ReaderAt)
	if !ok {
		// An embed.FS file reads at offsets; another FS may not.
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(data)
	}
	p, err := jspack.Open(r, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("ferridriver's Node polyfills: %w", err)
	}
	byName := make(map[string]int, len(p.Modules))
	for id, m := range p.Modules {
		byName[m.Name] = id
	}
	return &polyfillPack{pack: p, mods: p.Modules, byName: byName, programs: make([]lazyProgram, len(p.Modules))}, nil
}

// precompilePolyfills compiles the named modules of the pack, in order
// (a VM that requires one meanwhile waits for it, or compiles it first).
func precompilePolyfills(names []string) {
	p, err := loadedPolyfills()
	if err != nil {
		return
	}
	for _, n := range names {
		if id, ok := p.byName[n]; ok && p.mods[id].Kind == jspack.KindJS {
			_, _ = p.program(id)
		}
	}
}

// source reads module id's source.
func (p *polyfillPack) source(id int) (string, error) { return p.pack.Source(id) }

// program returns module id's compiled function expression,
// (function (exports, require, module) {...}), compiling it on first use.
func (p *polyfillPack) program(id int) (*goja.Program, error) {
	lp := &p.programs[id]
	lp.once.Do(func() {
		src, err := p.source(id)
		if err != nil {
			lp.err = err
			return
		}
		lp.prg, lp.err = goja.Compile(polyfillsPrefix+p.mods[id].Name, "(function (exports, require, module) {"+src+"\n})", false)
	})
	return lp.prg, lp.err
}

// HasPolyfills reports whether this binary embeds its Node polyfills.
func HasPolyfills() bool {
	_, err := loadedPolyfills()
	return err == nil
}

type polyfillsKey struct{}

// polyfillState is a VM's instance of the pack: the module objects
// required so far, by id.
type polyfillState struct {
	pack    *polyfillPack
	modules []*goja.Object
	order   []int // the modules, in the order they were first required
	err     error
}

// polyfillsLoaded names the pack's modules the VM required, in order.
func (vm *VM) polyfillsLoaded() []string {
	st, ok := vm.locals[polyfillsKey{}].(*polyfillState)
	if !ok || st.pack == nil {
		return nil
	}
	names := make([]string, len(st.order))
	for i, id := range st.order {
		names[i] = st.pack.mods[id].Name
	}
	return names
}

// polyfills returns the VM's instance of the pack's entry (an object of
// getters, one per package, each requiring its package on first use).
func (vm *VM) polyfills() (*goja.Object, error) {
	st := vm.Local(polyfillsKey{}, func() any {
		p, err := loadedPolyfills()
		if err != nil {
			return &polyfillState{err: err}
		}
		return &polyfillState{pack: p, modules: make([]*goja.Object, len(p.mods))}
	}).(*polyfillState)
	if st.err != nil {
		return nil, st.err
	}
	exp, err := vm.requirePolyfill(st, 0)
	if err != nil {
		return nil, fmt.Errorf("ferridriver's Node polyfills: %w", err)
	}
	return exp.ToObject(vm.rt), nil
}

// requirePolyfill returns the exports of module id, evaluating it on first
// use, as Node's require does (a module in a cycle sees the exports of
// one still loading).
func (vm *VM) requirePolyfill(st *polyfillState, id int) (goja.Value, error) {
	if m := st.modules[id]; m != nil {
		return m.Get("exports"), nil
	}
	st.order = append(st.order, id)
	rt := vm.rt
	if mod := st.pack.mods[id]; mod.Kind == jspack.KindJSON {
		src, err := st.pack.source(id)
		if err != nil {
			return nil, err
		}
		parse, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
		v, err := parse(goja.Undefined(), rt.ToValue(src))
		if err != nil {
			return nil, err
		}
		module := rt.NewObject()
		module.Set("exports", v)
		st.modules[id] = module
		return v, nil
	}
	prg, err := st.pack.program(id)
	if err != nil {
		return nil, err
	}
	module := rt.NewObject()
	exports := rt.NewObject()
	module.Set("exports", exports)
	st.modules[id] = module
	fail := func(err error) (goja.Value, error) {
		st.modules[id] = nil
		return nil, err
	}
	fn, err := rt.RunProgram(prg)
	if err != nil {
		return fail(err)
	}
	call, ok := goja.AssertFunction(fn)
	if !ok {
		return fail(fmt.Errorf("%s: not a function", st.pack.mods[id].Name))
	}
	requires := st.pack.mods[id].Requires
	require := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		spec := c.Argument(0).String()
		to, ok := requires[spec]
		if !ok && strings.HasPrefix(spec, "node:") {
			// Node's built-ins are the VM's, as for step code (gen.go
			// leaves them out of the pack).
			v, err := vm.require(spec)
			if err != nil {
				throwError(rt, err)
			}
			return v
		}
		if !ok {
			panic(vm.newError("Error", fmt.Sprintf("Cannot find module '%s' (ferridriver's Node polyfills)", spec), "MODULE_NOT_FOUND"))
		}
		v, err := vm.requirePolyfill(st, to)
		if err != nil {
			throwError(rt, err)
		}
		return v
	})
	if _, err := call(exports, exports, require, module); err != nil {
		return fail(err)
	}
	return module.Get("exports"), nil
}

// polyfill returns the exports of one polyfill package ("stream",
// "events"...), as named in tools/polyfills/entry.js.
func (vm *VM) polyfill(name string) (goja.Value, error) {
	p, err := vm.polyfills()
	if err != nil {
		return nil, err
	}
	// The getter loads the package: what its top level throws is an error.
	var v goja.Value
	if ex := vm.rt.Try(func() { v = p.Get(name) }); ex != nil {
		return nil, fmt.Errorf("ferridriver's Node polyfills: %s: %w", name, vm.toJSError(ex))
	}
	return v, nil
}

// throwError throws err from a native function: an exception or an
// interrupt from JavaScript goes on as it is, anything else as an Error.
func throwError(rt *goja.Runtime, err error) {
	var exc *goja.Exception
	if errors.As(err, &exc) {
		panic(exc)
	}
	var intr *goja.InterruptedError
	if errors.As(err, &intr) {
		panic(intr)
	}
	panic(ErrorValue(rt, err))
}
