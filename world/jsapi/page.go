package jsapi

import (
	"errors"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// pageW is a Page.
type pageW struct {
	props
	r      *Runtime
	p      playwright.Page
	em     emitter
	routes routeSet
	closed atomic.Bool

	keyboard, mouse, touchscreen, request *goja.Object
	video                                 goja.Value // page.video(), once asked
}

// Get serves Playwright's page.keyboard, page.mouse, page.touchscreen and
// page.request properties; anything else is the user's or the prototype's.
func (w *pageW) Get(k string) goja.Value {
	r := w.r
	switch k {
	case "keyboard":
		if w.keyboard == nil {
			w.keyboard = r.newObject(r.p.get(&r.p.keyboard, "Keyboard", r.keyboardMethods), &keyboardW{k: w.p.Keyboard()})
		}
		return w.keyboard
	case "mouse":
		if w.mouse == nil {
			w.mouse = r.newObject(r.p.get(&r.p.mouse, "Mouse", r.mouseMethods), &mouseW{m: w.p.Mouse()})
		}
		return w.mouse
	case "touchscreen":
		if w.touchscreen == nil {
			w.touchscreen = r.newObject(r.p.get(&r.p.touchscreen, "Touchscreen", r.touchscreenMethods), &touchscreenW{t: w.p.Touchscreen()})
		}
		return w.touchscreen
	case "request":
		if w.request == nil {
			w.request = r.apiRequestObj(w.p.Context().Request(), w.baseURL())
		}
		return w.request
	}
	return w.props.Get(k)
}

var pageEvents = map[string]bool{
	"close": true, "console": true, "crash": true, "dialog": true, "domcontentloaded": true, "download": true,
	"frameattached": true, "framedetached": true, "framenavigated": true, "load": true, "pageerror": true,
	"popup": true, "request": true, "requestfailed": true, "requestfinished": true, "response": true,
}

func (r *Runtime) pageObj(p playwright.Page) goja.Value {
	if p == nil {
		return goja.Null()
	}
	if o, ok := r.objects[p]; ok {
		return o
	}
	w := &pageW{r: r, p: p}
	var o *goja.Object
	w.em = emitter{r: r, name: "page", self: func() goja.Value { return o }, valid: pageEvents,
		pwOn:           func(event string, h func(any)) { p.On(event, h) },
		dialogs:        func() { r.subscribeDialogs(p.Context()) },
		timeoutDefault: func() float64 { return r.defaultTimeout(p) }}
	w.routes = routeSet{target: p}
	p.OnClose(func(playwright.Page) { w.closed.Store(true) })
	o = r.newObject(r.pageProto(), w)
	r.objects[p] = o
	return o
}

// subscribeDialogs registers, once per context, the one Go handler of the
// dialogs of c's pages: it calls the JS listeners of the context, then
// those of the page, and when there were none dismisses the dialog
// (accepting beforeunload), as Playwright does, so the page does not hang.
// (playwright-go only dismisses when no Go handler is registered, and
// ours stays registered once subscribed.)
func (r *Runtime) subscribeDialogs(c playwright.BrowserContext) {
	if r.dialogSubs[c] {
		return
	}
	if r.dialogSubs == nil {
		r.dialogSubs = map[playwright.BrowserContext]bool{}
	}
	r.dialogSubs[c] = true
	loop := r.loop
	c.On("dialog", func(payload any) {
		d, ok := payload.(playwright.Dialog)
		if !ok {
			return
		}
		loop.Enqueue(nil, func() { r.dispatchDialog(c, d) })
	})
}

func (r *Runtime) dispatchDialog(c playwright.BrowserContext, d playwright.Dialog) {
	handled := false
	if o, ok := r.objects[c]; ok {
		if w, ok := o.Export().(*contextW); ok && w.em.dispatch("dialog", d) {
			handled = true
		}
	}
	if p := d.Page(); p != nil {
		if o, ok := r.objects[p]; ok {
			if w, ok := o.Export().(*pageW); ok && w.em.dispatch("dialog", d) {
				handled = true
			}
		}
	}
	if handled {
		return
	}
	go func() {
		if d.Type() == "beforeunload" {
			_ = d.Accept()
		} else {
			_ = d.Dismiss()
		}
	}()
}

func (r *Runtime) pageProto() *goja.Object {
	return r.p.get(&r.p.page, "Page", r.pageMethods)
}

func (r *Runtime) pageMethods() []method {
	self := func(c goja.FunctionCall, api string) *pageW { return recv[*pageW](r, c, api) }
	ms := r.frameMethods()
	ms = append(ms, r.eventMethods("page", func(c goja.FunctionCall, api string) *emitter { return &self(c, api).em })...)
	ms = append(ms, r.routeMethods("page", func(c goja.FunctionCall, api string) *routeSet { return &self(c, api).routes })...)
	ms = append(ms, r.scopeMethods("page", func(c goja.FunctionCall, api string) (scope, *emitter) {
		w := self(c, api)
		return w.p, &w.em
	})...)
	// do gets its options and its timeout, which is worked out on the
	// loop (it reads the running step's deadline).
	nav := func(name string, do func(p playwright.Page, o opts, timeout *float64) (playwright.Response, error)) method {
		return method{name, func(c goja.FunctionCall) goja.Value {
			w := self(c, "page."+name)
			o := r.opts(c.Argument(0))
			timeout := r.timeout(o, w.p)
			return async(r, "page."+name, func() (playwright.Response, error) { return do(w.p, o, timeout) }, r.responseObj)
		}}
	}
	return append(ms,
		method{"context", func(c goja.FunctionCall) goja.Value { return r.contextObj(self(c, "page.context").p.Context()) }},
		method{"mainFrame", func(c goja.FunctionCall) goja.Value { return r.frameObj(self(c, "page.mainFrame").p.MainFrame()) }},
		method{"frames", func(c goja.FunctionCall) goja.Value { return r.frames(self(c, "page.frames").p.Frames()) }},
		method{"frame", func(c goja.FunctionCall) goja.Value {
			w := self(c, "page.frame")
			arg := c.Argument(0)
			var name *string
			var u *urlMatcher
			if s, ok := arg.Export().(string); ok {
				name = &s
			} else {
				o := r.opts(arg)
				name = o.s("name")
				if v := o.val("url"); !isNullish(v) {
					u = r.urlMatcher(v, w.baseURL())
				}
			}
			for _, f := range w.p.Frames() {
				if (name == nil || f.Name() == *name) && (u == nil || u.matches(f.URL())) {
					return r.frameObj(f)
				}
			}
			return goja.Null()
		}},
		method{"isClosed", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "page.isClosed").closed.Load()) }},
		method{"viewportSize", func(c goja.FunctionCall) goja.Value {
			s := self(c, "page.viewportSize").p.ViewportSize()
			if s == nil {
				return goja.Null()
			}
			o := r.rt.NewObject()
			_ = o.Set("width", s.Width)
			_ = o.Set("height", s.Height)
			return o
		}},
		method{"setViewportSize", func(c goja.FunctionCall) goja.Value {
			w := self(c, "page.setViewportSize")
			o := r.opts(c.Argument(0))
			width, height := o.i("width"), o.i("height")
			if width == nil || height == nil {
				panic(r.rt.NewTypeError("%s", "page.setViewportSize: expected { width, height }"))
			}
			return asyncErr(r, "page.setViewportSize", func() error { return w.p.SetViewportSize(*width, *height) })
		}},
		nav("reload", func(p playwright.Page, o opts, timeout *float64) (playwright.Response, error) {
			return p.Reload(playwright.PageReloadOptions{Timeout: timeout, WaitUntil: o.waitUntil()})
		}),
		nav("goBack", func(p playwright.Page, o opts, timeout *float64) (playwright.Response, error) {
			return p.GoBack(playwright.PageGoBackOptions{Timeout: timeout, WaitUntil: o.waitUntil()})
		}),
		nav("goForward", func(p playwright.Page, o opts, timeout *float64) (playwright.Response, error) {
			return p.GoForward(playwright.PageGoForwardOptions{Timeout: timeout, WaitUntil: o.waitUntil()})
		}),
		method{"screenshot", func(c goja.FunctionCall) goja.Value {
			w := self(c, "page.screenshot")
			o := r.opts(c.Argument(0))
			var s shooter
			r.screenshotOptions(o, &s, false)
			opt := s.page0
			opt.Path, opt.Quality, opt.Timeout, opt.Type = r.path("page.screenshot", o.s("path"), capability.FSWrite), o.i("quality"), r.timeout(o, w.p), nil
			if t := o.s("type"); t != nil {
				opt.Type = (*playwright.ScreenshotType)(t)
			}
			return async(r, "page.screenshot", func() ([]byte, error) { return w.p.Screenshot(opt) }, r.buffer)
		}},
		method{"close", func(c goja.FunctionCall) goja.Value {
			w := self(c, "page.close")
			o := r.opts(c.Argument(0))
			opt := playwright.PageCloseOptions{RunBeforeUnload: o.b("runBeforeUnload"), Reason: o.s("reason")}
			return asyncErr(r, "page.close", func() error {
				err := w.p.Close(opt)
				if errors.Is(err, playwright.ErrTargetClosed) {
					return nil // already closed: Playwright resolves
				}
				return err
			})
		}},
		method{"bringToFront", func(c goja.FunctionCall) goja.Value {
			w := self(c, "page.bringToFront")
			return asyncErr(r, "page.bringToFront", w.p.BringToFront)
		}},
		method{"emulateMedia", func(c goja.FunctionCall) goja.Value {
			w := self(c, "page.emulateMedia")
			o := r.opts(c.Argument(0))
			opt := playwright.PageEmulateMediaOptions{}
			if s := o.s("colorScheme"); s != nil {
				opt.ColorScheme = (*playwright.ColorScheme)(s)
			}
			if s := o.s("media"); s != nil {
				opt.Media = (*playwright.Media)(s)
			}
			if s := o.s("reducedMotion"); s != nil {
				opt.ReducedMotion = (*playwright.ReducedMotion)(s)
			}
			if s := o.s("forcedColors"); s != nil {
				opt.ForcedColors = (*playwright.ForcedColors)(s)
			}
			return asyncErr(r, "page.emulateMedia", func() error { return w.p.EmulateMedia(opt) })
		}},
		method{"opener", func(c goja.FunctionCall) goja.Value {
			w := self(c, "page.opener")
			return async(r, "page.opener", w.p.Opener, r.pageObj)
		}},
		method{"waitForRequest", func(c goja.FunctionCall) goja.Value {
			w := self(c, "page.waitForRequest")
			return r.waitForNetwork(&w.em, "page.waitForRequest", "request", c, w.baseURL())
		}},
		method{"waitForResponse", func(c goja.FunctionCall) goja.Value {
			w := self(c, "page.waitForResponse")
			return r.waitForNetwork(&w.em, "page.waitForResponse", "response", c, w.baseURL())
		}},
		method{"waitForNavigation", func(c goja.FunctionCall) goja.Value {
			// Deprecated in Playwright, still common in older suites:
			// waits for the main frame to navigate (to url, when given),
			// then for its load state.
			w := self(c, "page.waitForNavigation")
			o := r.opts(c.Argument(0))
			m := r.urlMatcher(o.val("url"), w.baseURL())
			main := w.p.MainFrame()
			state := playwright.LoadStateLoad
			if s := o.s("waitUntil"); s != nil && *s != "commit" {
				state = (*playwright.LoadState)(s)
			}
			timeout := r.timeout(o, w.p)
			nav := w.em.waitFor("page.waitForNavigation", "framenavigated", func(v goja.Value) (goja.Value, error) {
				fw, ok := v.(*goja.Object).Export().(*frameW)
				return r.rt.ToValue(ok && fw.f == main && m.matches(fw.f.URL())), nil
			}, timeout)
			then, _ := goja.AssertFunction(nav.ToObject(r.rt).Get("then"))
			out, err := then(nav, r.rt.ToValue(func(goja.FunctionCall) goja.Value {
				return async(r, "page.waitForNavigation", func() (struct{}, error) {
					return struct{}{}, waitForLoadState(main, playwright.FrameWaitForLoadStateOptions{State: state, Timeout: timeout})
				}, func(struct{}) goja.Value { return goja.Null() })
			}))
			if err != nil {
				panic(err)
			}
			return out
		}},
		method{"pause", func(c goja.FunctionCall) goja.Value {
			d := r.debugger()
			if d == nil {
				p, resolve, _ := r.rt.NewPromise()
				_ = resolve(goja.Undefined()) // no inspector in ferridriver
				return r.rt.ToValue(p)
			}
			where := callerWhere(r.rt.CaptureCallStack(0, nil))
			return asyncErr(r, "page.pause", func() error { return d.Pause(where) })
		}},
		method{"video", func(c goja.FunctionCall) goja.Value { return r.video(self(c, "page.video")) }},
	)
}

// baseURL of the page's context, for URL patterns.
func (w *pageW) baseURL() string {
	if co, ok := w.r.contextObj(w.p.Context()).(*goja.Object); ok {
		if cw, ok := co.Export().(*contextW); ok {
			return cw.baseURL
		}
	}
	return ""
}

// waitForNetwork implements waitForRequest/waitForResponse(urlOrPredicate,
// {timeout}).
func (r *Runtime) waitForNetwork(e *emitter, api, event string, c goja.FunctionCall, baseURL string) goja.Value {
	arg := c.Argument(0)
	timeout := r.opts(c.Argument(1)).f("timeout") // waitFor applies the defaults
	var test func(goja.Value) (goja.Value, error)
	if f, ok := goja.AssertFunction(arg); ok {
		test = func(v goja.Value) (goja.Value, error) { return f(goja.Undefined(), v) }
	} else {
		m := r.urlMatcher(arg, baseURL)
		test = func(v goja.Value) (goja.Value, error) {
			var u string
			switch w := v.(*goja.Object).Export().(type) {
			case *requestW:
				u = w.q.URL()
			case *responseW:
				u = w.s.URL()
			}
			return r.rt.ToValue(m.matches(u)), nil
		}
	}
	return e.waitFor(api, event, test, timeout)
}

// initScript converts addInitScript's arguments: a function (called with
// arg in the page), a string, or {path} / {content}.
func (r *Runtime) initScript(v, arg goja.Value, api string) playwright.Script {
	if _, ok := goja.AssertFunction(v); ok {
		a := "undefined"
		if !goja.IsUndefined(arg) {
			s, err := r.vm.JSONString(arg)
			if err != nil {
				panic(r.rt.NewTypeError("%s", api+": "+err.Error()))
			}
			a = s
		}
		src := "(" + r.functionSource(v, api) + ")(" + a + ")"
		return playwright.Script{Content: &src}
	}
	if s, ok := v.Export().(string); ok {
		return playwright.Script{Content: &s}
	}
	o := r.opts(v)
	return playwright.Script{Path: r.path(api, o.s("path"), capability.FSRead), Content: o.s("content")}
}

// exposed adapts a JS function for exposeFunction: the page calls it on a
// playwright-go goroutine, so the call is handed to the loop (which pumps
// while a step awaits) and the result comes back on a channel.
func (r *Runtime) exposed(v goja.Value, api string) playwright.ExposedFunction {
	fn, ok := goja.AssertFunction(v)
	if !ok {
		panic(r.rt.NewTypeError("%s", api+": expected a function"))
	}
	ctx := r.loop.Context()
	type result struct {
		v   any
		err error
	}
	return func(args ...any) any {
		ch := make(chan result, 1)
		r.loop.Enqueue(ctx, func() {
			jsArgs := make([]goja.Value, len(args))
			for i, a := range args {
				jsArgs[i] = r.toJS(a)
			}
			v, err := fn(goja.Undefined(), jsArgs...)
			if err != nil {
				ch <- result{err: err}
				return
			}
			r.whenSettled(v, func(val, rejected goja.Value) {
				if rejected != nil {
					ch <- result{err: errors.New(rejected.String())}
					return
				}
				ch <- result{v: r.argOf(val)}
			})
		})
		select {
		case res := <-ch:
			if res.err != nil {
				panic(res.err) // playwright-go rejects the page's promise
			}
			return res.v
		case <-time.After(2 * time.Minute):
			panic(errors.New(api + ": the step that could run the function is no longer running"))
		}
	}
}
