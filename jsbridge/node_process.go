package jsbridge

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// NodeVersion is what process.version claims: the Node.js release whose
// built-in modules ferridriver's VM follows (cucumber-js 13 runs on 22).
const NodeVersion = "22.12.0"

// ExitError is what process.exit(code) becomes: the failure of the step or
// hook that called it (ferridriver never exits from user code).
type ExitError struct{ Code int64 }

func (e *ExitError) Error() string {
	return fmt.Sprintf("process.exit(%d) was called: ferridriver fails the running step instead of exiting", e.Code)
}

// installProcess defines a Node-like process object. env is exactly the
// allowed environment ([scripting] allowEnv); in the bdd host step code
// may add to it (dotenv does), in the other hosts it is frozen. exit
// fails the running step (see ExitError).
func (vm *VM) installProcess() {
	rt := vm.rt
	p := rt.NewObject()
	p.Set("env", vm.processEnv())
	p.Set("platform", runtime.GOOS)
	p.Set("arch", nodeArch())
	p.Set("pid", os.Getpid())
	p.Set("ppid", os.Getppid())
	p.Set("title", "ferridriver")
	exe, _ := os.Executable()
	p.Set("execPath", exe)
	p.Set("execArgv", []any{})
	p.Set("argv", []any{exe, vm.opts.Host})
	p.Set("argv0", "ferridriver")
	p.Set("version", "v"+NodeVersion)
	versions := rt.NewObject()
	versions.Set("node", NodeVersion)
	versions.Set("ferridriver", Version)
	p.Set("versions", versions)
	p.Set("release", map[string]any{"name": "node"})
	p.Set("features", map[string]any{"inspector": false, "ipv6": true, "tls": true, "typescript": false})
	p.Set("config", map[string]any{"variables": map[string]any{}})
	p.Set("exitCode", goja.Undefined())
	p.Set("cwd", func() string { return vm.dir })
	p.Set("chdir", func(goja.FunctionCall) goja.Value {
		panic(vm.newError("Error", "process.chdir is not supported in ferridriver: relative paths resolve against the project directory", "ERR_FEATURE_UNAVAILABLE_ON_PLATFORM"))
	})
	p.Set("umask", func() int { return 0o022 })
	p.Set("uptime", func() float64 { return time.Since(startTime).Seconds() })
	p.Set("getuid", os.Getuid)
	p.Set("geteuid", os.Geteuid)
	p.Set("getgid", os.Getgid)
	p.Set("getegid", os.Getegid)
	p.Set("exit", func(call goja.FunctionCall) goja.Value {
		code := int64(0)
		if c := call.Argument(0); !goja.IsUndefined(c) && !goja.IsNull(c) {
			code = c.ToInteger()
		} else if c := p.Get("exitCode"); c != nil && !goja.IsUndefined(c) && !goja.IsNull(c) {
			code = c.ToInteger()
		}
		err := &ExitError{Code: code}
		if st := vm.stepState(); st.watchRejections && st.exit == nil {
			st.exit = err
		}
		panic(vm.newError("Error", err.Error(), "ERR_PROCESS_EXIT"))
	})
	p.Set("abort", p.Get("exit"))
	// hrtime counts from the process start (Node's origin is arbitrary too).
	since := func() int64 { return time.Since(startTime).Nanoseconds() + int64(time.Second) }
	p.Set("hrtime", func(call goja.FunctionCall) goja.Value {
		now := since()
		if prev, ok := call.Argument(0).(*goja.Object); ok {
			now -= prev.Get("0").ToInteger()*1e9 + prev.Get("1").ToInteger()
		}
		return rt.NewArray(now/1e9, now%1e9)
	})
	p.Get("hrtime").ToObject(rt).Set("bigint", func(goja.FunctionCall) goja.Value {
		return rt.ToValue(big.NewInt(since()))
	})
	memory := func() map[string]any {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return map[string]any{"rss": m.Sys, "heapTotal": m.HeapSys, "heapUsed": m.HeapAlloc, "external": 0, "arrayBuffers": 0}
	}
	p.Set("memoryUsage", memory)
	p.Get("memoryUsage").ToObject(rt).Set("rss", func() uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.Sys
	})
	p.Set("cpuUsage", func() map[string]any { return map[string]any{"user": 0, "system": 0} })
	p.Set("resourceUsage", func() map[string]any { return map[string]any{"maxRSS": memory()["rss"]} })
	p.Set("nextTick", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(vm.newError("TypeError", "The \"callback\" argument must be of type function. Received "+call.Argument(0).String(), "ERR_INVALID_ARG_TYPE"))
		}
		vm.callbackLater(fn, append([]goja.Value(nil), call.Arguments[1:]...)...)
		return goja.Undefined()
	})
	p.Set("emitWarning", func(call goja.FunctionCall) goja.Value {
		w := call.Argument(0)
		if o, ok := w.(*goja.Object); ok && o.Get("message") != nil {
			w = o.Get("message")
		}
		fmt.Fprintln(vm.opts.Stderr, "Warning:", w.String())
		return goja.Undefined()
	})
	p.Set("stdout", vm.stdStream(1))
	p.Set("stderr", vm.stdStream(2))
	stdin := rt.NewObject()
	stdin.Set("fd", 0)
	stdin.Set("isTTY", false)
	p.Set("stdin", stdin)
	// process is not an EventEmitter here: listeners are accepted and
	// never called (there is no exit or signal to report).
	self := func(goja.FunctionCall) goja.Value { return p }
	for _, n := range []string{"on", "once", "off", "addListener", "removeListener", "removeAllListeners", "prependListener", "prependOnceListener", "setMaxListeners", "setUncaughtExceptionCaptureCallback"} {
		p.Set(n, self)
	}
	p.Set("emit", func() bool { return false })
	p.Set("listeners", func() []any { return []any{} })
	p.Set("rawListeners", func() []any { return []any{} })
	p.Set("listenerCount", func() int { return 0 })
	p.Set("getMaxListeners", func() int { return 10 })
	p.Set("hasUncaughtExceptionCaptureCallback", func() bool { return false })
	flags, _ := rt.RunString("new Set()")
	p.Set("allowedNodeEnvironmentFlags", flags)
	// Object.prototype.toString(process) is "[object process]", Node's
	// test for running on Node (axios picks its http adapter by it).
	p.DefineDataPropertySymbol(goja.SymToStringTag, rt.ToValue("process"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	p.Set("getBuiltinModule", func(call goja.FunctionCall) goja.Value {
		v, err := vm.require(builtinName(call.Argument(0).String()))
		if err != nil {
			return goja.Undefined()
		}
		return v
	})
	rt.Set("process", p)
}

// processEnv is process.env: frozen outside the bdd host; in it, values
// assigned are stored as strings, as Node stores them.
func (vm *VM) processEnv() goja.Value {
	rt := vm.rt
	env := rt.NewObject()
	for _, k := range sortedKeys(vm.opts.Env) {
		env.Set(k, vm.opts.Env[k])
	}
	traps := &goja.ProxyTrapConfig{}
	if vm.opts.OnHiddenEnv != nil {
		traps.Get = func(target *goja.Object, property string, _ goja.Value) goja.Value {
			v := target.Get(property)
			if v == nil {
				if src := vm.callerSource(); !src.IsLibrary() && !strings.Contains(src.URI, "node_modules/") {
					vm.opts.OnHiddenEnv(property)
				}
				return goja.Undefined()
			}
			return v
		}
	}
	if vm.opts.Host != HostBDD {
		freeze, _ := goja.AssertFunction(rt.Get("Object").ToObject(rt).Get("freeze"))
		freeze(goja.Undefined(), env)
		if traps.Get == nil {
			return env
		}
		return rt.ToValue(rt.NewProxy(env, traps))
	}
	traps.Set = func(target *goja.Object, property string, value, _ goja.Value) bool {
		return target.Set(property, value.String()) == nil
	}
	return rt.ToValue(rt.NewProxy(env, traps))
}

// stdStream is process.stdout (fd 1) or process.stderr (fd 2): a writer
// to the VM's output with the properties packages test.
func (vm *VM) stdStream(fd int) *goja.Object {
	rt := vm.rt
	w := vm.opts.Stdout
	if fd == 2 {
		w = vm.opts.Stderr
	}
	s := rt.NewObject()
	s.Set("fd", fd)
	s.Set("isTTY", false)
	s.Set("writable", true)
	s.Set("columns", 80)
	s.Set("write", func(call goja.FunctionCall) goja.Value {
		data := call.Argument(0)
		if o, ok := data.(*goja.Object); ok {
			if b, ok := bytesOf(rt, o); ok {
				w.Write(b)
			} else {
				fmt.Fprint(w, data.String())
			}
		} else {
			fmt.Fprint(w, data.String())
		}
		for _, a := range call.Arguments[1:] {
			if cb, ok := goja.AssertFunction(a); ok {
				vm.callbackLater(cb)
			}
		}
		return rt.ToValue(true)
	})
	self := func(goja.FunctionCall) goja.Value { return s }
	for _, n := range []string{"on", "once", "off", "removeListener", "end", "cork", "uncork", "setDefaultEncoding"} {
		s.Set(n, self)
	}
	s.Set("emit", func() bool { return false })
	s.Set("listenerCount", func() int { return 0 })
	s.Set("hasColors", func() bool { return false })
	s.Set("getColorDepth", func() int { return 1 })
	s.Set("getWindowSize", func() []int { return []int{80, 24} })
	return s
}

// installNodeGlobals defines the globals Node has beyond the ones the
// prelude defines: global, Buffer (the npm polyfill when built in, so that
// it is the one node:buffer exports), URL and URLSearchParams, the web
// streams, performance and crypto (loaded on first use), atob and btoa.
func (vm *VM) installNodeGlobals() {
	rt := vm.rt
	g := rt.GlobalObject()
	g.Set("global", g)
	lazy := func(name string, get func() goja.Value) {
		g.DefineAccessorProperty(name, rt.ToValue(func(goja.FunctionCall) goja.Value {
			v := get()
			g.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			return v
		}), rt.ToValue(func(call goja.FunctionCall) goja.Value {
			g.DefineDataProperty(name, call.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			return goja.Undefined()
		}), goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	if HasPolyfills() {
		// Loaded on first use, as the others below: most runs never
		// touch them, and loading costs start-up time in every VM.
		lazy("Buffer", func() goja.Value {
			b, err := vm.polyfill("buffer")
			if err != nil {
				vm.Throw(err)
			}
			return b.ToObject(rt).Get("Buffer")
		})
		vm.installESBuiltins()
	}
	lazy("performance", func() goja.Value {
		m, err := vm.require("node:perf_hooks")
		if err != nil {
			vm.Throw(err)
		}
		return m.ToObject(rt).Get("performance")
	})
	if HasPolyfills() {
		// whatwg-url, not goja_nodejs's URL: its brand checks see through
		// proxies, as Node's do (node-fetch's Headers is a proxied
		// URLSearchParams subclass).
		for _, name := range []string{"URL", "URLSearchParams"} {
			lazy(name, func() goja.Value {
				m, err := vm.polyfill("whatwgURL")
				if err != nil {
					vm.Throw(err)
				}
				return m.ToObject(rt).Get(name)
			})
		}
		for _, name := range []string{"ReadableStream", "WritableStream", "TransformStream", "ByteLengthQueuingStrategy", "CountQueuingStrategy", "ReadableStreamDefaultReader", "WritableStreamDefaultWriter"} {
			lazy(name, func() goja.Value {
				m, err := vm.require("node:stream/web")
				if err != nil {
					vm.Throw(err)
				}
				return m.ToObject(rt).Get(name)
			})
		}
	}
	lazy("crypto", func() goja.Value {
		m, err := vm.require("node:crypto")
		if err != nil {
			vm.Throw(err)
		}
		return m.ToObject(rt).Get("webcrypto")
	})
	g.Set("btoa", func(call goja.FunctionCall) goja.Value {
		s := call.Argument(0).String()
		b := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 0xff {
				panic(vm.newError("InvalidCharacterError", "Invalid character", "ERR_INVALID_CHARACTER"))
			}
			b = append(b, byte(r))
		}
		return rt.ToValue(base64.StdEncoding.EncodeToString(b))
	})
	g.Set("atob", func(call goja.FunctionCall) goja.Value {
		s := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
				return -1
			}
			return r
		}, call.Argument(0).String())
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
		}
		if err != nil {
			panic(vm.newError("InvalidCharacterError", "The string to be decoded is not correctly encoded.", "ERR_INVALID_CHARACTER"))
		}
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return rt.ToValue(string(r))
	})
}

// exitRequested returns the ExitError of a process.exit called by the
// running step, and forgets it.
func (vm *VM) exitRequested() error {
	st := vm.stepState()
	err := st.exit
	st.exit = nil
	if err == nil {
		return nil
	}
	return err
}

// installESBuiltins puts a placeholder under each ECMAScript built-in that
// goja lacks and core-js provides (tools/polyfills/entry.js,
// esBuiltinNames): touching any of them removes every placeholder and
// loads core-js, which installs the real ones. Failures are bugs of the
// build: they are printed, and the names stay undefined.
func (vm *VM) installESBuiltins() {
	rt := vm.rt
	p, err := vm.polyfills()
	if err != nil {
		return
	}
	type slot struct {
		target *goja.Object
		name   string
	}
	var slots []slot
	var names []string
	if err := rt.ExportTo(p.Get("esBuiltinNames"), &names); err != nil {
		fmt.Fprintln(vm.opts.Stderr, "ferridriver: esBuiltinNames:", err)
		return
	}
	for _, path := range names {
		i := strings.LastIndexByte(path, '.')
		target := rt.GlobalObject()
		for _, part := range strings.Split(path[:i], ".") {
			if target = target.Get(part).ToObject(rt); target == nil {
				break
			}
		}
		name := path[i+1:]
		if target == nil || (target.Get(name) != nil && !goja.IsUndefined(target.Get(name))) {
			continue
		}
		slots = append(slots, slot{target, name})
	}
	loaded := false
	load := func() {
		if loaded {
			return
		}
		loaded = true
		for _, s := range slots {
			s.target.Delete(s.name)
		}
		if _, err := vm.polyfill("esBuiltins"); err != nil {
			fmt.Fprintln(vm.opts.Stderr, "ferridriver:", err)
		}
	}
	for _, s := range slots {
		s.target.DefineAccessorProperty(s.name, rt.ToValue(func(goja.FunctionCall) goja.Value {
			load()
			return s.target.Get(s.name)
		}), rt.ToValue(func(call goja.FunctionCall) goja.Value {
			load()
			s.target.Set(s.name, call.Argument(0))
			return goja.Undefined()
		}), goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}
