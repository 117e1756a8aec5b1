package jsbridge

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/dop251/goja"
)

// Node built-ins come from three places (docs/architecture.md): npm
// polyfills bundled at build time (streams, events, util, assert, buffer,
// string_decoder, querystring, legacy url), Go for what touches the OS (fs,
// zlib, child_process, the http client, os, crypto), and small JavaScript
// glue in node/*.js that gives both Node's module shapes.

//go:generate go run ../tools/polyfills/gen.go -src ../tools/polyfills -out polyfills/polyfills.js

// polyfillFS holds polyfills/polyfills.js when the build generated it (make
// polyfills); the directory always holds its committed README, so a plain
// `go build` compiles.
//
//go:embed polyfills
var polyfillFS embed.FS

const polyfillsName = "<ferridriver>/polyfills.js"

// errNoPolyfills is what a module needing a polyfill throws in a binary
// built without them.
var errNoPolyfills = errors.New("this ferridriver was built without its Node polyfills (jsbridge/polyfills/polyfills.js, generated from tools/polyfills); build it with `make build`")

var (
	polyfillOnce sync.Once
	polyfillPrg  *goja.Program
	polyfillErr  error
)

func compilePolyfills() (*goja.Program, error) {
	polyfillOnce.Do(func() { polyfillPrg, polyfillErr = loadPolyfills(polyfillFS) })
	return polyfillPrg, polyfillErr
}

// loadPolyfills compiles polyfills/polyfills.js of fsys; errNoPolyfills
// when it is not there.
func loadPolyfills(fsys fs.FS) (*goja.Program, error) {
	src, err := fs.ReadFile(fsys, "polyfills/polyfills.js")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoPolyfills
	}
	if err != nil {
		return nil, err
	}
	prg, err := goja.Compile(polyfillsName, string(src), false)
	if err != nil {
		return nil, fmt.Errorf("ferridriver's Node polyfills: %w", err)
	}
	return prg, nil
}

// HasPolyfills reports whether this binary embeds its Node polyfills.
func HasPolyfills() bool {
	_, err := compilePolyfills()
	return err == nil
}

type polyfillsKey struct{}

// polyfillState is a VM's instance of the polyfill bundle, or why it has
// none.
type polyfillState struct {
	exports *goja.Object
	err     error
}

// polyfills returns the VM's instance of the polyfill bundle's exports (an
// object of getters, one per package, each loading its package on first
// use), evaluating the bundle on first call.
func (vm *VM) polyfills() (*goja.Object, error) {
	st := vm.Local(polyfillsKey{}, func() any {
		prg, err := compilePolyfills()
		if err != nil {
			return &polyfillState{err: err}
		}
		v, err := vm.rt.RunProgram(prg)
		if err != nil {
			return &polyfillState{err: fmt.Errorf("ferridriver's Node polyfills: %w", vm.toJSError(err))}
		}
		fn, ok := goja.AssertFunction(v)
		if !ok {
			return &polyfillState{err: errors.New("ferridriver's Node polyfills: not a function")}
		}
		exp, err := fn(goja.Undefined())
		if err != nil {
			return &polyfillState{err: fmt.Errorf("ferridriver's Node polyfills: %w", vm.toJSError(err))}
		}
		return &polyfillState{exports: exp.ToObject(vm.rt)}
	}).(*polyfillState)
	return st.exports, st.err
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
