package jsapi

import (
	"errors"
	"fmt"
	"time"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// emitter implements on/once/off/waitForEvent for a Page or a
// BrowserContext. One Go handler per event is registered with
// playwright-go, on first use; it hands the event to the loop, where the
// JS listeners run in order, each in the async context (the running tool's
// capabilities) that was current when it was added.
type emitter struct {
	r     *Runtime
	name  string // "page" or "context", for messages
	self  func() goja.Value
	pwOn  func(event string, handler func(any))
	valid map[string]bool

	listeners  map[string][]*listener
	subscribed map[string]bool
	// dialogs subscribes to the dialogs of the owner's context instead of
	// registering a handler of its own (see Runtime.subscribeDialogs).
	dialogs func()
	// defaultTimeout is set by setDefaultTimeout (nil: unset; 0: no
	// timeout, as in Playwright).
	defaultTimeout *float64
	// timeoutDefault is the default timeout of waits: the owner's
	// defaultTimeout, else its context's, else the host's.
	timeoutDefault func() float64
}

type listener struct {
	fn     goja.Value // identity for off()
	call   goja.Callable
	native func(arg goja.Value)
	once   bool
	ctx    any
}

func (e *emitter) subscribe(event string) {
	if e.subscribed == nil {
		e.subscribed = map[string]bool{}
	}
	if e.subscribed[event] {
		return
	}
	e.subscribed[event] = true
	if event == "dialog" && e.dialogs != nil {
		e.dialogs()
		return
	}
	loop := e.r.loop
	e.pwOn(event, func(payload any) {
		loop.Enqueue(nil, func() { e.dispatch(event, payload) })
	})
}

func (e *emitter) add(event string, l *listener) {
	if e.listeners == nil {
		e.listeners = map[string][]*listener{}
	}
	e.listeners[event] = append(e.listeners[event], l)
	e.subscribe(event)
}

func (e *emitter) remove(event string, l *listener) {
	ls := e.listeners[event]
	for i, x := range ls {
		if x == l {
			e.listeners[event] = append(ls[:i:i], ls[i+1:]...)
			return
		}
	}
}

// dispatch calls the listeners of event and reports whether there were
// any.
func (e *emitter) dispatch(event string, payload any) bool {
	ls := e.listeners[event]
	if len(ls) == 0 {
		return false
	}
	arg := e.r.payload(payload)
	for _, l := range append([]*listener(nil), ls...) {
		if l.once {
			e.remove(event, l)
		}
		if l.native != nil {
			l.native(arg)
			continue
		}
		e.r.loop.RunIn(l.ctx, func() {
			e.r.callHandler(func() string { return e.name + ".on('" + event + "') handler" }, l.call, e.self(), arg)
		})
	}
	return true
}

// callHandler calls a user callback; a throw or a rejected promise is
// recorded and fails the running step (as an uncaught exception fails a
// Playwright test). what names the callback in the error (made only then).
func (r *Runtime) callHandler(what func() string, fn goja.Callable, this goja.Value, args ...goja.Value) {
	v, err := fn(this, args...)
	if err != nil {
		r.recordUncaught(what(), exceptionValue(r, err))
		return
	}
	r.whenSettled(v, func(_ goja.Value, rejected goja.Value) {
		if rejected != nil {
			r.recordUncaught(what(), rejected)
		}
	})
}

func exceptionValue(r *Runtime, err error) goja.Value {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return ex.Value()
	}
	return r.rt.NewGoError(err)
}

// whenSettled calls fn with v's value once v (a thenable or a plain value)
// settles; rejected is the reason when it was rejected.
func (r *Runtime) whenSettled(v goja.Value, fn func(value, rejected goja.Value)) {
	o, ok := v.(*goja.Object)
	if ok {
		if then, ok := goja.AssertFunction(o.Get("then")); ok {
			onOK := r.rt.ToValue(func(c goja.FunctionCall) goja.Value { fn(c.Argument(0), nil); return goja.Undefined() })
			onErr := r.rt.ToValue(func(c goja.FunctionCall) goja.Value {
				reason := c.Argument(0)
				if isNullish(reason) {
					reason = r.rt.ToValue("rejected with " + reason.String())
				}
				fn(nil, reason)
				return goja.Undefined()
			})
			if _, err := then(o, onOK, onErr); err != nil {
				fn(nil, exceptionValue(r, err))
			}
			return
		}
	}
	fn(v, nil)
}

func (r *Runtime) recordUncaught(what string, v goja.Value) {
	if o, ok := v.(*goja.Object); ok {
		if m := o.Get("message"); m != nil && !goja.IsUndefined(m) {
			_ = o.Set("message", "Error in "+what+": "+m.String())
			if s := o.Get("stack"); s != nil && !goja.IsUndefined(s) {
				_ = o.Set("stack", "Error in "+what+": "+s.String())
			}
		}
	}
	r.uncaught = append(r.uncaught, v)
}

// eventMethods are on/once/off/... and waitForEvent for an emitter found
// by em(call).
func (r *Runtime) eventMethods(kind string, em func(c goja.FunctionCall, api string) *emitter) []method {
	on := func(once bool, api string) func(c goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			e := em(c, api)
			event := c.Argument(0).String()
			if !e.valid[event] {
				panic(r.rt.NewTypeError("%s: event %q is not supported by ferridriver", api, event))
			}
			fn, ok := goja.AssertFunction(c.Argument(1))
			if !ok {
				panic(r.rt.NewTypeError("%s", api+": expected a listener function"))
			}
			e.add(event, &listener{fn: c.Argument(1), call: fn, once: once, ctx: r.loop.Context()})
			return c.This
		}
	}
	off := func(api string) func(c goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			e := em(c, api)
			event := c.Argument(0).String()
			for _, l := range e.listeners[event] {
				if l.fn != nil && l.fn.StrictEquals(c.Argument(1)) {
					e.remove(event, l)
					break
				}
			}
			return c.This
		}
	}
	return []method{
		{"on", on(false, kind+".on")},
		{"addListener", on(false, kind+".addListener")},
		{"once", on(true, kind+".once")},
		{"off", off(kind + ".off")},
		{"removeListener", off(kind + ".removeListener")},
		{"removeAllListeners", func(c goja.FunctionCall) goja.Value {
			e := em(c, kind+".removeAllListeners")
			if ev := c.Argument(0); !isNullish(ev) {
				e.dropJS(ev.String())
			} else {
				for event := range e.listeners {
					e.dropJS(event)
				}
			}
			p, resolve, _ := r.rt.NewPromise()
			_ = resolve(goja.Undefined())
			return r.rt.ToValue(p)
		}},
		{"listenerCount", func(c goja.FunctionCall) goja.Value {
			e := em(c, kind+".listenerCount")
			n := 0
			for _, l := range e.listeners[c.Argument(0).String()] {
				if l.native == nil {
					n++
				}
			}
			return r.rt.ToValue(n)
		}},
		{"waitForEvent", func(c goja.FunctionCall) goja.Value {
			api := kind + ".waitForEvent"
			e := em(c, api)
			event := c.Argument(0).String()
			if !e.valid[event] {
				panic(r.rt.NewTypeError("%s: event %q is not supported by ferridriver", api, event))
			}
			var pred goja.Callable
			var timeout *float64
			if f, ok := goja.AssertFunction(c.Argument(1)); ok {
				pred = f
			} else {
				o := r.opts(c.Argument(1))
				if f, ok := goja.AssertFunction(o.val("predicate")); ok {
					pred = f
				}
				timeout = o.f("timeout")
			}
			var test func(goja.Value) (goja.Value, error)
			if pred != nil {
				test = func(arg goja.Value) (goja.Value, error) { return pred(goja.Undefined(), arg) }
			}
			return e.waitFor(api, event, test, timeout)
		}},
	}
}

// dropJS removes the JS listeners of event (waiters stay).
func (e *emitter) dropJS(event string) {
	var keep []*listener
	for _, l := range e.listeners[event] {
		if l.native != nil {
			keep = append(keep, l)
		}
	}
	e.listeners[event] = keep
}

// waitFor returns a Promise of the next event (whose payload passes test,
// when given), rejected on timeout or when the page/context closes.
func (e *emitter) waitFor(api, event string, test func(goja.Value) (goja.Value, error), timeout *float64) goja.Value {
	r := e.r
	stack := r.rt.CaptureCallStack(0, nil)
	p, resolve, reject := r.rt.NewPromise()
	t, _ := r.timeoutMs(timeout, e.timeoutDefault())
	done := false
	var timer int64
	var l, closeL *listener
	finish := func() {
		done = true
		e.remove(event, l)
		if closeL != nil {
			e.remove("close", closeL)
		}
		if timer != 0 {
			r.loop.ClearTimer(timer)
		}
	}
	l = &listener{native: func(arg goja.Value) {
		if done {
			return
		}
		if test == nil {
			finish()
			_ = resolve(arg)
			return
		}
		v, err := test(arg)
		if err != nil {
			finish()
			_ = reject(exceptionValue(r, err))
			return
		}
		r.whenSettled(v, func(ok, rejected goja.Value) {
			if done {
				return
			}
			switch {
			case rejected != nil:
				finish()
				_ = reject(rejected)
			case ok != nil && ok.ToBoolean():
				finish()
				_ = resolve(arg)
			}
		})
	}}
	if event != "close" {
		closeL = &listener{native: func(goja.Value) {
			if !done {
				finish()
				_ = reject(r.newError("Error", api+": Target page, context or browser has been closed", stack))
			}
		}}
		e.add("close", closeL)
	}
	e.add(event, l)
	if t > 0 {
		timer = r.loop.SetTimer(time.Duration(t*float64(time.Millisecond)), false, func() {
			if !done {
				finish()
				_ = reject(r.newError("TimeoutError", fmt.Sprintf("%s: Timeout %vms exceeded while waiting for event %q", api, t, event), stack))
			}
		})
	}
	return r.rt.ToValue(p)
}

// payload converts an event payload from playwright-go into its JS object.
func (r *Runtime) payload(x any) goja.Value {
	switch v := x.(type) {
	case nil:
		return goja.Undefined()
	case playwright.Page:
		return r.pageObj(v)
	case playwright.BrowserContext:
		return r.contextObj(v)
	case playwright.Frame:
		return r.frameObj(v)
	case playwright.Dialog:
		return r.newObject(r.p.get(&r.p.dialog, "Dialog", r.dialogMethods), &dialogW{d: v})
	case playwright.ConsoleMessage:
		return r.newObject(r.p.get(&r.p.console, "ConsoleMessage", r.consoleMethods), &consoleW{m: v})
	case playwright.Download:
		return r.newObject(r.p.get(&r.p.download, "Download", r.downloadMethods), &downloadW{d: v})
	case playwright.Request:
		return r.requestObj(v)
	case playwright.Response:
		return r.responseObj(v)
	case error:
		name := "Error"
		msg := v.Error()
		var pe *playwright.Error
		if errors.As(v, &pe) {
			msg = pe.Message
			if pe.Name != "" {
				name = pe.Name
			}
		}
		o := r.newError(name, msg, nil).(*goja.Object)
		if pe != nil && pe.Stack != "" {
			_ = o.Set("stack", pe.Stack)
		}
		if name != "Error" {
			_ = o.Set("name", name)
		}
		return o
	}
	return r.rt.ToValue(x)
}

// dialogW is a Dialog (alert, confirm, prompt, beforeunload).
type dialogW struct {
	props
	d playwright.Dialog
}

func (r *Runtime) dialogMethods() []method {
	self := func(c goja.FunctionCall, api string) *dialogW { return recv[*dialogW](r, c, api) }
	return []method{
		{"accept", func(c goja.FunctionCall) goja.Value {
			d := self(c, "dialog.accept")
			var text []string
			if t := c.Argument(0); !isNullish(t) {
				text = append(text, t.String())
			}
			return asyncErr(r, "dialog.accept", func() error { return d.d.Accept(text...) })
		}},
		{"dismiss", func(c goja.FunctionCall) goja.Value {
			d := self(c, "dialog.dismiss")
			return asyncErr(r, "dialog.dismiss", d.d.Dismiss)
		}},
		{"message", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "dialog.message").d.Message()) }},
		{"type", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "dialog.type").d.Type()) }},
		{"defaultValue", func(c goja.FunctionCall) goja.Value {
			return r.rt.ToValue(self(c, "dialog.defaultValue").d.DefaultValue())
		}},
		{"page", func(c goja.FunctionCall) goja.Value {
			p := self(c, "dialog.page").d.Page()
			if p == nil {
				return goja.Null()
			}
			return r.pageObj(p)
		}},
	}
}

// consoleW is a ConsoleMessage.
type consoleW struct {
	props
	m playwright.ConsoleMessage
}

func (r *Runtime) consoleMethods() []method {
	self := func(c goja.FunctionCall, api string) *consoleW { return recv[*consoleW](r, c, api) }
	return []method{
		{"type", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "consoleMessage.type").m.Type()) }},
		{"text", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "consoleMessage.text").m.Text()) }},
		{"toString", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "consoleMessage.toString").m.Text()) }},
		{"args", func(c goja.FunctionCall) goja.Value {
			hs := self(c, "consoleMessage.args").m.Args()
			items := make([]any, len(hs))
			for i, h := range hs {
				items[i] = r.jsHandleObj(h)
			}
			return r.rt.NewArray(items...)
		}},
		{"location", func(c goja.FunctionCall) goja.Value {
			loc := self(c, "consoleMessage.location").m.Location()
			o := r.rt.NewObject()
			if loc != nil {
				_ = o.Set("url", loc.URL)
				_ = o.Set("lineNumber", loc.LineNumber)
				_ = o.Set("columnNumber", loc.ColumnNumber)
			}
			return o
		}},
		{"page", func(c goja.FunctionCall) goja.Value {
			p := self(c, "consoleMessage.page").m.Page()
			if p == nil {
				return goja.Null()
			}
			return r.pageObj(p)
		}},
	}
}

// downloadW is a Download.
type downloadW struct {
	props
	d playwright.Download
}

func (r *Runtime) downloadMethods() []method {
	self := func(c goja.FunctionCall, api string) *downloadW { return recv[*downloadW](r, c, api) }
	return []method{
		{"url", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "download.url").d.URL()) }},
		{"suggestedFilename", func(c goja.FunctionCall) goja.Value {
			return r.rt.ToValue(self(c, "download.suggestedFilename").d.SuggestedFilename())
		}},
		{"page", func(c goja.FunctionCall) goja.Value { return r.pageObj(self(c, "download.page").d.Page()) }},
		{"path", func(c goja.FunctionCall) goja.Value {
			d := self(c, "download.path")
			return async(r, "download.path", d.d.Path, r.strV)
		}},
		{"saveAs", func(c goja.FunctionCall) goja.Value {
			d := self(c, "download.saveAs")
			p := r.path("download.saveAs", playwright.String(c.Argument(0).String()), capability.FSWrite)
			return asyncErr(r, "download.saveAs", func() error { return d.d.SaveAs(*p) })
		}},
		{"failure", func(c goja.FunctionCall) goja.Value {
			d := self(c, "download.failure")
			return async(r, "download.failure", func() (string, error) {
				if err := d.d.Failure(); err != nil {
					return err.Error(), nil
				}
				return "", nil
			}, func(s string) goja.Value {
				if s == "" {
					return goja.Null()
				}
				return r.rt.ToValue(s)
			})
		}},
		{"cancel", func(c goja.FunctionCall) goja.Value {
			d := self(c, "download.cancel")
			return asyncErr(r, "download.cancel", d.d.Cancel)
		}},
		{"delete", func(c goja.FunctionCall) goja.Value {
			d := self(c, "download.delete")
			return asyncErr(r, "download.delete", d.d.Delete)
		}},
	}
}
