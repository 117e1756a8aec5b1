package jsbridge

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// Node's built-in modules (docs/cucumber-compatibility.md lists them).
// Imports of them, with or without "node:", resolve to these; a module
// ferridriver does not have throws a clear error when it is used.

func init() {
	// From the npm polyfills (tools/polyfills), shaped by node/*.js.
	RegisterModule("node:assert", fromPolyfill("assert", ""))
	RegisterModule("node:assert/strict", func(vm *VM) (goja.Value, error) {
		a, err := vm.require("node:assert")
		if err != nil {
			return nil, err
		}
		return a.ToObject(vm.rt).Get("strict"), nil
	})
	RegisterModule("node:buffer", fromPolyfill("buffer", "buffer.js"))
	RegisterModule("node:events", fromPolyfill("events", "events.js"))
	RegisterModule("node:string_decoder", fromPolyfill("string_decoder", ""))
	RegisterModule("node:querystring", fromPolyfill("querystring", "querystring.js"))
	RegisterModule("node:punycode", fromPolyfill("punycode", ""))
	// readable-stream's Stream is Node's module shape: the legacy Stream
	// class carrying Readable, pipeline, promises...
	RegisterModule("node:stream", func(vm *VM) (goja.Value, error) {
		rs, err := vm.polyfill("stream")
		if err != nil {
			return nil, err
		}
		return rs.ToObject(vm.rt).Get("Stream"), nil
	})
	RegisterModule("node:stream/promises", member("node:stream", "promises"))
	RegisterModule("node:stream/consumers", script("stream_consumers.js", nil))
	RegisterModule("node:stream/web", fromPolyfill("webStreams", ""))
	RegisterModule("node:util", func(vm *VM) (goja.Value, error) {
		parts, err := vm.polyfillParts("util", "deepEqual")
		if err != nil {
			return nil, err
		}
		parts.Set("inspect", vm.prelude.Get("inspect"))
		parts.Set("format", vm.prelude.Get("format"))
		return vm.nodeScript("util.js", parts)
	})
	RegisterModule("node:util/types", member("node:util", "types"))
	RegisterModule("node:url", func(vm *VM) (goja.Value, error) {
		legacy, err := vm.polyfill("url")
		if err != nil {
			return nil, err
		}
		parts := vm.rt.NewObject()
		parts.Set("legacy", legacy)
		return vm.nodeScript("url.js", parts)
	})

	// In Go, with their JavaScript halves in node/*.js.
	RegisterModule("node:fs", func(vm *VM) (goja.Value, error) { return vm.nodeScript("fs.js", vm.fsBinding()) })
	RegisterModule("node:fs/promises", member("node:fs", "promises"))
	RegisterModule("node:zlib", func(vm *VM) (goja.Value, error) { return vm.nodeScript("zlib.js", vm.zlibBinding()) })
	RegisterModule("node:child_process", func(vm *VM) (goja.Value, error) {
		return vm.nodeScript("child_process.js", vm.childProcessBinding())
	})
	RegisterModule("node:http", func(vm *VM) (goja.Value, error) { return vm.httpModule("http:") })
	RegisterModule("node:https", func(vm *VM) (goja.Value, error) { return vm.httpModule("https:") })
	RegisterModule("node:path", func(vm *VM) (goja.Value, error) { return vm.pathModule(), nil })
	RegisterModule("node:path/posix", func(vm *VM) (goja.Value, error) { return vm.pathModule(), nil })
	RegisterModule("node:os", func(vm *VM) (goja.Value, error) { return vm.osModule(), nil })
	RegisterModule("node:constants", func(vm *VM) (goja.Value, error) { return vm.constantsModule(), nil })
	RegisterModule("node:crypto", func(vm *VM) (goja.Value, error) { return vm.cryptoModule(), nil })
	RegisterModule("node:net", func(vm *VM) (goja.Value, error) { return vm.netModule(), nil })
	RegisterModule("node:process", func(vm *VM) (goja.Value, error) { return vm.rt.Get("process"), nil })
	RegisterModule("node:console", func(vm *VM) (goja.Value, error) { return vm.rt.Get("console"), nil })
	RegisterModule("node:perf_hooks", func(vm *VM) (goja.Value, error) { return vm.nodeScript("perf_hooks.js", vm.clockBinding()) })
	RegisterModule("node:timers", func(vm *VM) (goja.Value, error) {
		o := vm.rt.NewObject()
		for _, n := range []string{"setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"} {
			o.Set(n, vm.rt.Get(n))
		}
		p, err := vm.require("node:timers/promises")
		if err != nil {
			return nil, err
		}
		o.Set("promises", p)
		return o, nil
	})
	RegisterModule("node:timers/promises", script("timers_promises.js", nil))

	// Small JavaScript modules.
	RegisterModule("node:tty", script("tty.js", nil))
	RegisterModule("node:vm", script("vm.js", nil))
	RegisterModule("node:worker_threads", script("worker_threads.js", nil))
	RegisterModule("node:module", func(vm *VM) (goja.Value, error) {
		return vm.nodeScript("module.js", vm.moduleBinding())
	})
}

// fromPolyfill is a module that is the polyfill package pkg, shaped by
// node/<glue> when glue is not empty.
func fromPolyfill(pkg, glue string) ModuleFactory {
	return func(vm *VM) (goja.Value, error) {
		v, err := vm.polyfill(pkg)
		if err != nil || glue == "" {
			return v, err
		}
		return vm.nodeScript(glue, v)
	}
}

// polyfillParts returns an object holding the named polyfill packages.
func (vm *VM) polyfillParts(names ...string) (*goja.Object, error) {
	o := vm.rt.NewObject()
	for _, n := range names {
		v, err := vm.polyfill(n)
		if err != nil {
			return nil, err
		}
		o.Set(n, v)
	}
	return o, nil
}

// member is a module that is one property of another (fs/promises).
func member(module, key string) ModuleFactory {
	return func(vm *VM) (goja.Value, error) {
		m, err := vm.require(module)
		if err != nil {
			return nil, err
		}
		return m.ToObject(vm.rt).Get(key), nil
	}
}

// script is a module written in node/<file>, given binding.
func script(file string, binding func(vm *VM) goja.Value) ModuleFactory {
	return func(vm *VM) (goja.Value, error) {
		var b goja.Value
		if binding != nil {
			b = binding(vm)
		}
		return vm.nodeScript(file, b)
	}
}

// preludeNatives are Go helpers the JS prelude needs.
func (vm *VM) preludeNatives() *goja.Object {
	rt := vm.rt
	n := rt.NewObject()
	n.Set("utf8Encode", func(call goja.FunctionCall) goja.Value {
		b := []byte(call.Argument(0).String())
		u8, _ := goja.AssertConstructor(rt.Get("Uint8Array"))
		arr, _ := u8(nil, rt.ToValue(rt.NewArrayBuffer(b)))
		return arr
	})
	n.Set("utf8Decode", func(call goja.FunctionCall) goja.Value {
		b, ok := bytesOf(rt, call.Argument(0).ToObject(rt))
		if !ok {
			panic(rt.NewTypeError("TextDecoder.decode: expected a BufferSource"))
		}
		if !utf8.Valid(b) {
			if call.Argument(1).ToBoolean() {
				panic(vm.newError("TypeError", "The encoded data was not valid for encoding utf-8", "ERR_ENCODING_INVALID_ENCODED_DATA"))
			}
			b = []byte(strings.ToValidUTF8(string(b), "\uFFFD"))
		}
		return rt.ToValue(string(b))
	})
	n.Set("matchStep", vm.matchStep)
	return n
}

// resolve makes p absolute against the project directory.
func (vm *VM) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(vm.dir, p)
}

func (vm *VM) pathModule() *goja.Object {
	rt := vm.rt
	m := rt.NewObject()
	strs := func(call goja.FunctionCall) []string {
		out := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			out[i] = a.String()
		}
		return out
	}
	m.Set("sep", "/")
	m.Set("delimiter", ":")
	m.Set("join", func(call goja.FunctionCall) goja.Value {
		j := path.Join(strs(call)...)
		if j == "" {
			j = "."
		}
		return rt.ToValue(j)
	})
	m.Set("resolve", func(call goja.FunctionCall) goja.Value {
		p := vm.dir
		for _, s := range strs(call) {
			if path.IsAbs(s) {
				p = s
			} else if s != "" {
				p = path.Join(p, s)
			}
		}
		return rt.ToValue(path.Clean(p))
	})
	m.Set("normalize", func(p string) string { return path.Clean(p) })
	m.Set("isAbsolute", func(p string) bool { return path.IsAbs(p) })
	m.Set("dirname", func(p string) string { return path.Dir(p) })
	m.Set("extname", func(p string) string {
		b := path.Base(p)
		if strings.HasPrefix(b, ".") && strings.Count(b, ".") == 1 {
			return ""
		}
		return path.Ext(b)
	})
	m.Set("basename", func(call goja.FunctionCall) goja.Value {
		b := path.Base(call.Argument(0).String())
		if ext := call.Argument(1); !goja.IsUndefined(ext) {
			b = strings.TrimSuffix(b, ext.String())
		}
		return rt.ToValue(b)
	})
	m.Set("relative", func(from, to string) string {
		r, err := filepath.Rel(vm.resolve(from), vm.resolve(to))
		if err != nil {
			return to
		}
		if r == "." {
			return ""
		}
		return filepath.ToSlash(r)
	})
	m.Set("parse", func(p string) map[string]any {
		dir, base := path.Split(p)
		ext := path.Ext(base)
		root := ""
		if path.IsAbs(p) {
			root = "/"
		}
		return map[string]any{"root": root, "dir": strings.TrimSuffix(dir, "/"), "base": base, "ext": ext, "name": strings.TrimSuffix(base, ext)}
	})
	m.Set("format", func(call goja.FunctionCall) goja.Value {
		o := call.Argument(0).ToObject(rt)
		get := func(k string) string {
			if v := o.Get(k); v != nil && !goja.IsUndefined(v) {
				return v.String()
			}
			return ""
		}
		base := get("base")
		if base == "" {
			base = get("name") + get("ext")
		}
		dir := get("dir")
		if dir == "" {
			dir = get("root")
		}
		if dir == "" {
			return rt.ToValue(base)
		}
		if strings.HasSuffix(dir, "/") {
			return rt.ToValue(dir + base)
		}
		return rt.ToValue(dir + "/" + base)
	})
	m.Set("posix", m)
	m.Set("default", m)
	return m
}

// missingModule stands for a built-in module that cannot be loaded (one
// ferridriver does not have, or one whose polyfill is not built in), so
// that loading a package that merely mentions it (axios imports http2 and
// tls for features a test rarely uses) does not fail: using any of its
// exports throws cause, naming what was used. For an import statement
// (imported) the module looks empty, as esbuild's interop copies its
// properties; for require() even listing its properties throws, so that
// feature tests such as Object.assign(x, require("stream/web")) in a try
// block see that it is missing.
func (vm *VM) missingModule(name string, cause error, imported bool) goja.Value {
	rt := vm.rt
	short := strings.TrimPrefix(name, "node:")
	fail := func(what string) {
		panic(ErrorValue(rt, fmt.Errorf("%w (used: %s)", cause, what)))
	}
	get := func(_ *goja.Object, prop string, _ goja.Value) goja.Value {
		switch prop {
		case "__esModule", "then", "toJSON", "default", "constructor":
			return goja.Undefined()
		}
		fail(short + "." + prop)
		return nil
	}
	// esbuild's interop makes the namespace of an import an object whose
	// prototype is the module's: this one, so that a named import
	// (import { x } from "http2") throws when read too.
	proto := rt.NewProxy(rt.NewObject(), &goja.ProxyTrapConfig{Get: get})
	return rt.ToValue(rt.NewProxy(rt.NewObject(), &goja.ProxyTrapConfig{
		Get: get,
		OwnKeys: func(*goja.Object) *goja.Object {
			if !imported {
				fail("the exports of " + short)
			}
			return rt.NewArray()
		},
		GetPrototypeOf: func(*goja.Object) *goja.Object { return rt.ToValue(proto).ToObject(rt) },
	}))
}
