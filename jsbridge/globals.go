package jsbridge

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// installTimers defines setTimeout/setInterval/setImmediate and their
// clear functions on the VM's loop. Callbacks keep the async context of the
// code that registered them.
func (vm *VM) installTimers() {
	rt := vm.rt
	schedule := func(repeat bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			fn, ok := goja.AssertFunction(call.Argument(0))
			if !ok {
				panic(rt.NewTypeError("The \"callback\" argument must be of type function"))
			}
			ms := call.Argument(1).ToFloat()
			if ms != ms || ms < 1 { // NaN or < 1, as in Node
				ms = 1
			}
			if !repeat && len(call.Arguments) < 2 {
				ms = 0
			}
			extra := append([]goja.Value(nil), call.Arguments[min(2, len(call.Arguments)):]...)
			id := vm.loop.SetTimer(time.Duration(ms*float64(time.Millisecond)), repeat, func() {
				if _, err := fn(goja.Undefined(), extra...); err != nil {
					vm.reportUncaught(err)
				}
			})
			return rt.ToValue(id)
		}
	}
	clear := func(call goja.FunctionCall) goja.Value {
		if id := call.Argument(0); !goja.IsUndefined(id) && !goja.IsNull(id) {
			vm.loop.ClearTimer(id.ToInteger())
		}
		return goja.Undefined()
	}
	g := rt.GlobalObject()
	g.Set("setTimeout", schedule(false))
	g.Set("setInterval", schedule(true))
	g.Set("clearTimeout", clear)
	g.Set("clearInterval", clear)
	g.Set("setImmediate", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(rt.NewTypeError("The \"callback\" argument must be of type function"))
		}
		extra := append([]goja.Value(nil), call.Arguments[min(1, len(call.Arguments)):]...)
		return rt.ToValue(vm.loop.SetTimer(0, false, func() {
			if _, err := fn(goja.Undefined(), extra...); err != nil {
				vm.reportUncaught(err)
			}
		}))
	})
	g.Set("clearImmediate", clear)
}

// reportUncaught prints an exception thrown by a callback nobody awaits
// (a timer, an event listener), as Node would, without stopping the run.
func (vm *VM) reportUncaught(err error) {
	if _, ok := err.(*goja.InterruptedError); ok {
		return
	}
	err = vm.toJSError(err)
	msg := err.Error()
	if je, ok := err.(*JSError); ok {
		msg = je.Stack
	}
	fmt.Fprintf(vm.opts.Stderr, "Uncaught %s\n", msg)
}

// installConsole defines console.* writing to the VM's stdout/stderr, with
// Node's formatting (util.format, util.inspect from the prelude).
func (vm *VM) installConsole() {
	rt := vm.rt
	console := rt.NewObject()
	counts := map[string]int{}
	timers := map[string]time.Time{}
	group := ""
	write := func(w io.Writer) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			s := vm.format(call.Arguments)
			if group != "" {
				s = group + strings.ReplaceAll(s, "\n", "\n"+group)
			}
			fmt.Fprintln(w, s)
			return goja.Undefined()
		}
	}
	out, errw := vm.opts.Stdout, vm.opts.Stderr
	for _, n := range []string{"log", "info", "debug"} {
		console.Set(n, write(out))
	}
	for _, n := range []string{"error", "warn", "trace"} {
		console.Set(n, write(errw))
	}
	console.Set("dir", write(out))
	console.Set("table", write(out))
	console.Set("assert", func(call goja.FunctionCall) goja.Value {
		if !call.Argument(0).ToBoolean() {
			msg := "Assertion failed"
			if len(call.Arguments) > 1 {
				msg += ": " + vm.format(call.Arguments[1:])
			}
			fmt.Fprintln(errw, msg)
		}
		return goja.Undefined()
	})
	label := func(call goja.FunctionCall) string {
		if l := call.Argument(0); !goja.IsUndefined(l) {
			return l.String()
		}
		return "default"
	}
	console.Set("count", func(call goja.FunctionCall) goja.Value {
		l := label(call)
		counts[l]++
		fmt.Fprintf(out, "%s%s: %d\n", group, l, counts[l])
		return goja.Undefined()
	})
	console.Set("countReset", func(call goja.FunctionCall) goja.Value {
		delete(counts, label(call))
		return goja.Undefined()
	})
	console.Set("time", func(call goja.FunctionCall) goja.Value {
		timers[label(call)] = time.Now()
		return goja.Undefined()
	})
	timeEnd := func(remove bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			l := label(call)
			if start, ok := timers[l]; ok {
				fmt.Fprintf(out, "%s%s: %.3fms\n", group, l, float64(time.Since(start).Microseconds())/1000)
				if remove {
					delete(timers, l)
				}
			}
			return goja.Undefined()
		}
	}
	console.Set("timeEnd", timeEnd(true))
	console.Set("timeLog", timeEnd(false))
	console.Set("group", func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) > 0 {
			fmt.Fprintln(out, group+vm.format(call.Arguments))
		}
		group += "  "
		return goja.Undefined()
	})
	console.Set("groupCollapsed", console.Get("group"))
	console.Set("groupEnd", func(goja.FunctionCall) goja.Value {
		if len(group) >= 2 {
			group = group[2:]
		}
		return goja.Undefined()
	})
	rt.Set("console", console)
}

// format renders console arguments like Node's util.format.
func (vm *VM) format(args []goja.Value) string {
	if vm.prelude == nil {
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = a.String()
		}
		return strings.Join(parts, " ")
	}
	fn, _ := goja.AssertFunction(vm.prelude.Get("format"))
	v, err := fn(goja.Undefined(), args...)
	if err != nil {
		return fmt.Sprint(err)
	}
	return v.String()
}

// callbackLater calls a Node-style callback as a promise job, after the
// current JS task, reporting what it throws as uncaught.
func (vm *VM) callbackLater(cb goja.Callable, args ...goja.Value) {
	vm.queueMicrotask(func() {
		if _, err := cb(goja.Undefined(), args...); err != nil {
			vm.reportUncaught(err)
		}
	})
}

// queueMicrotask runs fn as a promise job, after the current JS task.
func (vm *VM) queueMicrotask(fn func()) {
	p, resolve, _ := vm.rt.NewPromise()
	then, _ := goja.AssertFunction(vm.rt.ToValue(p).ToObject(vm.rt).Get("then"))
	then(vm.rt.ToValue(p), vm.rt.ToValue(func(goja.FunctionCall) goja.Value { fn(); return goja.Undefined() }))
	resolve(goja.Undefined())
}
