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
	polyfillOnce.Do(func() {
		src, err := polyfillFS.ReadFile("polyfills/polyfills.js")
		if errors.Is(err, fs.ErrNotExist) {
			polyfillErr = errNoPolyfills
			return
		}
		if err != nil {
			polyfillErr = err
			return
		}
		polyfillPrg, polyfillErr = goja.Compile(polyfillsName, string(src), false)
		if polyfillErr != nil {
			polyfillErr = fmt.Errorf("ferridriver's Node polyfills: %w", polyfillErr)
		}
	})
	return polyfillPrg, polyfillErr
}

// HasPolyfills reports whether this binary embeds its Node polyfills.
func HasPolyfills() bool {
	_, err := compilePolyfills()
	return err == nil
}

type polyfillsKey struct{}

// polyfills returns the VM's instance of the polyfill bundle's exports (an
// object of getters, one per package, each loading its package on first
// use), evaluating the bundle on first call.
func (vm *VM) polyfills() (*goja.Object, error) {
	type state struct {
		exports *goja.Object
		err     error
	}
	st := vm.Local(polyfillsKey{}, func() any {
		prg, err := compilePolyfills()
		if err != nil {
			return &state{err: err}
		}
		v, err := vm.rt.RunProgram(prg)
		if err != nil {
			return &state{err: fmt.Errorf("ferridriver's Node polyfills: %w", vm.toJSError(err))}
		}
		fn, ok := goja.AssertFunction(v)
		if !ok {
			return &state{err: errors.New("ferridriver's Node polyfills: not a function")}
		}
		exp, err := fn(goja.Undefined())
		if err != nil {
			return &state{err: fmt.Errorf("ferridriver's Node polyfills: %w", vm.toJSError(err))}
		}
		return &state{exports: exp.ToObject(vm.rt)}
	}).(*state)
	return st.exports, st.err
}

// polyfill returns the exports of one polyfill package ("stream",
// "events"...), as named in tools/polyfills/entry.js.
func (vm *VM) polyfill(name string) (goja.Value, error) {
	p, err := vm.polyfills()
	if err != nil {
		return nil, err
	}
	return p.Get(name), nil
}
