package jsapi

import (
	"time"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"
)

// frameW is a Frame. Page objects share its methods: they act on the
// page's main frame, as in Playwright.
type frameW struct {
	props
	f    playwright.Frame
	page *pageW
}

func (r *Runtime) frameObj(f playwright.Frame) goja.Value {
	if f == nil {
		return goja.Null()
	}
	if o, ok := r.objects[f]; ok {
		return o
	}
	var pg *pageW
	if p := f.Page(); p != nil {
		pg, _ = r.pageObj(p).(*goja.Object).Export().(*pageW)
	}
	o := r.newObject(r.p.get(&r.p.frame, "Frame", r.frameOnlyMethods), &frameW{f: f, page: pg})
	r.objects[f] = o
	return o
}

func (r *Runtime) frames(fs []playwright.Frame) goja.Value {
	items := make([]any, len(fs))
	for i, f := range fs {
		items[i] = r.frameObj(f)
	}
	return r.rt.NewArray(items...)
}

// frameTarget returns the frame a Page or Frame method acts on and the
// prefix of its API name ("page." or "frame.").
func (r *Runtime) frameTarget(c goja.FunctionCall, name string) (playwright.Frame, string) {
	if o, ok := c.This.(*goja.Object); ok {
		switch w := o.Export().(type) {
		case *pageW:
			return w.p.MainFrame(), "page." + name
		case *frameW:
			return w.f, "frame." + name
		}
	}
	panic(r.rt.NewTypeError("%s", name+": called on an object that is not a Page or a Frame"))
}

// frameMethods are the methods Page and Frame share.
func (r *Runtime) frameMethods() []method {
	ms := r.rootMethods("", func(c goja.FunctionCall, api string) (playwright.Frame, string, string) {
		f, _ := r.frameTarget(c, api)
		return f, "", ""
	})
	sel := func(c goja.FunctionCall, name string) (playwright.Frame, string, string) {
		f, api := r.frameTarget(c, name)
		s := c.Argument(0)
		if isNullish(s) {
			panic(r.rt.NewTypeError("%s", api+": expected a selector"))
		}
		return f, api, s.String()
	}
	strict := func(o opts) *bool { return o.b("strict") }
	ms = append(ms, r.selectorActions(func(c goja.FunctionCall, name string) selTarget {
		f, api, s := sel(c, name)
		return selTarget{r: r, f: f, sel: s, api: api, c: c, shift: 1}
	})...)
	return append(ms,
		method{"url", func(c goja.FunctionCall) goja.Value {
			f, _ := r.frameTarget(c, "url")
			return r.rt.ToValue(f.URL())
		}},
		method{"frameLocator", func(c goja.FunctionCall) goja.Value {
			f, _ := r.frameTarget(c, "frameLocator")
			s := c.Argument(0).String()
			return r.newFrameLocator(f, s, "frameLocator("+jsString(s)+")")
		}},
		method{"goto", func(c goja.FunctionCall) goja.Value {
			f, api := r.frameTarget(c, "goto")
			o := r.opts(c.Argument(1))
			var bc playwright.BrowserContext
			base := ""
			if pg := f.Page(); pg != nil {
				bc = pg.Context()
				if pw, ok := r.pageObj(pg).(*goja.Object); ok {
					if w, ok := pw.Export().(*pageW); ok {
						base = w.baseURL()
					}
				}
			}
			u, prepare := r.navigation(api, bc, c.Argument(0).String(), base)
			opt := playwright.FrameGotoOptions{Referer: o.s("referer"), Timeout: r.timeout(o, f.Page()), WaitUntil: o.waitUntil()}
			return async(r, api, func() (playwright.Response, error) {
				if prepare != nil {
					if err := prepare(); err != nil {
						return nil, err
					}
				}
				return f.Goto(u, opt)
			}, r.responseObj)
		}},
		method{"title", func(c goja.FunctionCall) goja.Value {
			f, api := r.frameTarget(c, "title")
			return async(r, api, f.Title, r.strV)
		}},
		method{"content", func(c goja.FunctionCall) goja.Value {
			f, api := r.frameTarget(c, "content")
			return async(r, api, f.Content, r.strV)
		}},
		method{"setContent", func(c goja.FunctionCall) goja.Value {
			f, api := r.frameTarget(c, "setContent")
			html := c.Argument(0).String()
			o := r.opts(c.Argument(1))
			opt := playwright.FrameSetContentOptions{Timeout: r.timeout(o, f.Page()), WaitUntil: o.waitUntil()}
			return asyncErr(r, api, func() error { return f.SetContent(html, opt) })
		}},
		method{"evaluate", func(c goja.FunctionCall) goja.Value {
			f, api := r.frameTarget(c, "evaluate")
			src := r.functionSource(c.Argument(0), api)
			var args []any
			if len(c.Arguments) > 1 {
				args = append(args, r.argOf(c.Argument(1)))
			}
			return async(r, api, func() (any, error) { return f.Evaluate(src, args...) }, r.toJS)
		}},
		method{"evaluateHandle", func(c goja.FunctionCall) goja.Value {
			f, api := r.frameTarget(c, "evaluateHandle")
			src := r.functionSource(c.Argument(0), api)
			var args []any
			if len(c.Arguments) > 1 {
				args = append(args, r.argOf(c.Argument(1)))
			}
			return async(r, api, func() (playwright.JSHandle, error) { return f.EvaluateHandle(src, args...) }, r.jsHandleObj)
		}},
		method{"$eval", func(c goja.FunctionCall) goja.Value {
			f, api, s := sel(c, "$eval")
			src := r.functionSource(c.Argument(1), api)
			arg := r.argOf(c.Argument(2))
			return async(r, api, func() (any, error) { return f.EvalOnSelector(s, src, arg) }, r.toJS)
		}},
		method{"$$eval", func(c goja.FunctionCall) goja.Value {
			f, api, s := sel(c, "$$eval")
			src := r.functionSource(c.Argument(1), api)
			arg := r.argOf(c.Argument(2))
			return async(r, api, func() (any, error) { return f.EvalOnSelectorAll(s, src, arg) }, r.toJS)
		}},
		method{"$", func(c goja.FunctionCall) goja.Value {
			f, api, s := sel(c, "$")
			return async(r, api, func() (playwright.ElementHandle, error) { return f.QuerySelector(s) }, r.elementHandleObj)
		}},
		method{"$$", func(c goja.FunctionCall) goja.Value {
			f, api, s := sel(c, "$$")
			return async(r, api, func() ([]playwright.ElementHandle, error) { return f.QuerySelectorAll(s) }, r.elementHandles)
		}},
		method{"waitForSelector", func(c goja.FunctionCall) goja.Value {
			f, api, s := sel(c, "waitForSelector")
			o := r.opts(c.Argument(1))
			opt := playwright.FrameWaitForSelectorOptions{State: o.state(), Strict: strict(o), Timeout: r.timeout(o, f.Page())}
			return async(r, api, func() (playwright.ElementHandle, error) { return f.WaitForSelector(s, opt) }, r.elementHandleObj)
		}},
		method{"waitForFunction", func(c goja.FunctionCall) goja.Value {
			f, api := r.frameTarget(c, "waitForFunction")
			// playwright-go cannot return an element handle from
			// waitForFunction: an element result is reported as true.
			src := "((arg) => { const el = (x) => (x && typeof x === 'object' && typeof x.nodeType === 'number') ? true : x; let v = (" +
				r.functionSource(c.Argument(0), api) + "); if (typeof v === 'function') v = v(arg); " +
				"return v && typeof v.then === 'function' ? v.then(el) : el(v); })"
			arg := r.argOf(c.Argument(1))
			o := r.opts(c.Argument(2))
			opt := playwright.FrameWaitForFunctionOptions{Timeout: r.timeout(o, f.Page())}
			if p := o.val("polling"); p != nil {
				if s, ok := p.Export().(string); ok {
					opt.Polling = s
				} else {
					opt.Polling = p.ToFloat()
				}
			}
			return async(r, api, func() (playwright.JSHandle, error) { return f.WaitForFunction(src, arg, opt) }, r.jsHandleObj)
		}},
		method{"waitForLoadState", func(c goja.FunctionCall) goja.Value {
			f, api := r.frameTarget(c, "waitForLoadState")
			opt := playwright.FrameWaitForLoadStateOptions{Timeout: r.timeout(r.opts(c.Argument(1)), f.Page())}
			if s := c.Argument(0); !isNullish(s) {
				st := playwright.LoadState(s.String())
				opt.State = &st
			}
			return asyncErr(r, api, func() error { return waitForLoadState(f, opt) })
		}},
		method{"waitForURL", func(c goja.FunctionCall) goja.Value {
			f, api := r.frameTarget(c, "waitForURL")
			o := r.opts(c.Argument(1))
			opt := playwright.FrameWaitForURLOptions{Timeout: r.timeout(o, f.Page()), WaitUntil: o.waitUntil()}
			m := r.urlMatcher(c.Argument(0), "")
			var target any
			switch {
			case m.glob != "":
				target = m.glob // playwright-go resolves it against baseURL
			case m.re != nil:
				target = m.re
			default:
				target = r.loopPredicate(m)
			}
			return asyncErr(r, api, func() error { return f.WaitForURL(target, opt) })
		}},
		method{"waitForTimeout", func(c goja.FunctionCall) goja.Value {
			ms := c.Argument(0).ToFloat()
			p, resolve, _ := r.rt.NewPromise()
			r.loop.SetTimer(time.Duration(ms*float64(time.Millisecond)), false, func() { _ = resolve(goja.Undefined()) })
			return r.rt.ToValue(p)
		}},
		method{"dragAndDrop", func(c goja.FunctionCall) goja.Value {
			f, api, s := sel(c, "dragAndDrop")
			target := c.Argument(1).String()
			o := r.opts(c.Argument(2))
			opt := playwright.FrameDragAndDropOptions{Force: o.b("force"), NoWaitAfter: o.b("noWaitAfter"), SourcePosition: o.position("sourcePosition"),
				TargetPosition: o.position("targetPosition"), Strict: strict(o), Timeout: r.timeout(o, f.Page()), Trial: o.b("trial")}
			return asyncErr(r, api, func() error { return f.DragAndDrop(s, target, opt) })
		}},
	)
}

// frameOnlyMethods are the Frame prototype: the shared methods plus the
// frame tree.
func (r *Runtime) frameOnlyMethods() []method {
	self := func(c goja.FunctionCall, api string) *frameW { return recv[*frameW](r, c, api) }
	return append(r.frameMethods(),
		method{"name", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "frame.name").f.Name()) }},
		method{"page", func(c goja.FunctionCall) goja.Value { return r.pageObj(self(c, "frame.page").f.Page()) }},
		method{"parentFrame", func(c goja.FunctionCall) goja.Value {
			return r.frameObj(self(c, "frame.parentFrame").f.ParentFrame())
		}},
		method{"childFrames", func(c goja.FunctionCall) goja.Value {
			return r.frames(self(c, "frame.childFrames").f.ChildFrames())
		}},
		method{"isDetached", func(c goja.FunctionCall) goja.Value {
			return r.rt.ToValue(self(c, "frame.isDetached").f.IsDetached())
		}},
	)
}

// loopPredicate adapts a matcher that must run JS into a predicate
// playwright-go can call from its own goroutines: the test runs on the
// loop (which is pumping while the caller awaits) and the answer comes
// back on a channel.
func (r *Runtime) loopPredicate(m *urlMatcher) func(string) bool {
	ctx := r.loop.Context()
	return func(u string) bool {
		ch := make(chan bool, 1)
		r.loop.Enqueue(ctx, func() { ch <- m.matches(u) })
		select {
		case ok := <-ch:
			return ok
		case <-time.After(time.Minute):
			return false // the VM stopped pumping: give up
		}
	}
}

// selTarget is what a selector action acts on: a selector in a frame.
// For a Page or Frame the selector is argument 0 (shift 1) and strictness
// is an option; for a Locator it is the locator's own, always strict.
type selTarget struct {
	r      *Runtime
	f      playwright.Frame
	sel    string
	api    string
	c      goja.FunctionCall
	shift  int
	strict bool
}

// arg is the action's argument i, after the selector.
func (t selTarget) arg(i int) goja.Value { return t.c.Argument(i + t.shift) }

func (t selTarget) strictOf(o opts) *bool {
	if t.strict {
		return playwright.Bool(true)
	}
	return o.b("strict")
}

// strictAt is the strictness given by the options in argument i.
func (t selTarget) strictAt(i int) *bool {
	if t.strict {
		return playwright.Bool(true)
	}
	return t.r.opts(t.arg(i)).b("strict")
}

func (t selTarget) timeout(o opts) *float64 { return t.r.timeout(o, t.f.Page()) }

// selectorActions are the actions Page, Frame and Locator share, on the
// target found by target(call, methodName).
func (r *Runtime) selectorActions(target func(c goja.FunctionCall, name string) selTarget) []method {
	return []method{
		{"click", func(c goja.FunctionCall) goja.Value {
			t := target(c, "click")
			o := r.opts(t.arg(0))
			opt := playwright.FrameClickOptions{Button: o.button(), ClickCount: o.i("clickCount"), Delay: o.f("delay"), Force: o.b("force"), Modifiers: o.modifiers(),
				NoWaitAfter: o.b("noWaitAfter"), Position: o.position("position"), Strict: t.strictOf(o), Timeout: t.timeout(o), Trial: o.b("trial")}
			return asyncErr(r, t.api, func() error { return t.f.Click(t.sel, opt) })
		}},
		{"dblclick", func(c goja.FunctionCall) goja.Value {
			t := target(c, "dblclick")
			o := r.opts(t.arg(0))
			opt := playwright.FrameDblclickOptions{Button: o.button(), Delay: o.f("delay"), Force: o.b("force"), Modifiers: o.modifiers(),
				NoWaitAfter: o.b("noWaitAfter"), Position: o.position("position"), Strict: t.strictOf(o), Timeout: t.timeout(o), Trial: o.b("trial")}
			return asyncErr(r, t.api, func() error { return t.f.Dblclick(t.sel, opt) })
		}},
		{"tap", func(c goja.FunctionCall) goja.Value {
			t := target(c, "tap")
			o := r.opts(t.arg(0))
			opt := playwright.FrameTapOptions{Force: o.b("force"), Modifiers: o.modifiers(), NoWaitAfter: o.b("noWaitAfter"),
				Position: o.position("position"), Strict: t.strictOf(o), Timeout: t.timeout(o), Trial: o.b("trial")}
			return asyncErr(r, t.api, func() error { return t.f.Tap(t.sel, opt) })
		}},
		{"fill", func(c goja.FunctionCall) goja.Value {
			t := target(c, "fill")
			value := t.arg(0).String()
			o := r.opts(t.arg(1))
			opt := playwright.FrameFillOptions{Force: o.b("force"), NoWaitAfter: o.b("noWaitAfter"), Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return asyncErr(r, t.api, func() error { return t.f.Fill(t.sel, value, opt) })
		}},
		{"type", func(c goja.FunctionCall) goja.Value {
			t := target(c, "type")
			text := t.arg(0).String()
			o := r.opts(t.arg(1))
			opt := playwright.FrameTypeOptions{Delay: o.f("delay"), NoWaitAfter: o.b("noWaitAfter"), Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return asyncErr(r, t.api, func() error { return t.f.Type(t.sel, text, opt) })
		}},
		{"press", func(c goja.FunctionCall) goja.Value {
			t := target(c, "press")
			key := t.arg(0).String()
			o := r.opts(t.arg(1))
			opt := playwright.FramePressOptions{Delay: o.f("delay"), NoWaitAfter: o.b("noWaitAfter"), Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return asyncErr(r, t.api, func() error { return t.f.Press(t.sel, key, opt) })
		}},
		{"check", func(c goja.FunctionCall) goja.Value {
			t := target(c, "check")
			o := r.opts(t.arg(0))
			opt := playwright.FrameCheckOptions{Force: o.b("force"), NoWaitAfter: o.b("noWaitAfter"), Position: o.position("position"), Strict: t.strictOf(o), Timeout: t.timeout(o), Trial: o.b("trial")}
			return asyncErr(r, t.api, func() error { return t.f.Check(t.sel, opt) })
		}},
		{"uncheck", func(c goja.FunctionCall) goja.Value {
			t := target(c, "uncheck")
			o := r.opts(t.arg(0))
			opt := playwright.FrameUncheckOptions{Force: o.b("force"), NoWaitAfter: o.b("noWaitAfter"), Position: o.position("position"), Strict: t.strictOf(o), Timeout: t.timeout(o), Trial: o.b("trial")}
			return asyncErr(r, t.api, func() error { return t.f.Uncheck(t.sel, opt) })
		}},
		{"setChecked", func(c goja.FunctionCall) goja.Value {
			t := target(c, "setChecked")
			checked := t.arg(0).ToBoolean()
			o := r.opts(t.arg(1))
			opt := playwright.FrameSetCheckedOptions{Force: o.b("force"), NoWaitAfter: o.b("noWaitAfter"), Position: o.position("position"), Strict: t.strictOf(o), Timeout: t.timeout(o), Trial: o.b("trial")}
			return asyncErr(r, t.api, func() error { return t.f.SetChecked(t.sel, checked, opt) })
		}},
		{"hover", func(c goja.FunctionCall) goja.Value {
			t := target(c, "hover")
			o := r.opts(t.arg(0))
			opt := playwright.FrameHoverOptions{Force: o.b("force"), Modifiers: o.modifiers(), NoWaitAfter: o.b("noWaitAfter"), Position: o.position("position"), Strict: t.strictOf(o), Timeout: t.timeout(o), Trial: o.b("trial")}
			return asyncErr(r, t.api, func() error { return t.f.Hover(t.sel, opt) })
		}},
		{"focus", func(c goja.FunctionCall) goja.Value {
			t := target(c, "focus")
			o := r.opts(t.arg(0))
			opt := playwright.FrameFocusOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return asyncErr(r, t.api, func() error { return t.f.Focus(t.sel, opt) })
		}},
		{"selectOption", func(c goja.FunctionCall) goja.Value {
			t := target(c, "selectOption")
			values := r.selectValues(t.arg(0))
			o := r.opts(t.arg(1))
			opt := playwright.FrameSelectOptionOptions{Force: o.b("force"), NoWaitAfter: o.b("noWaitAfter"), Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return async(r, t.api, func() ([]string, error) { return t.f.SelectOption(t.sel, values, opt) }, r.strArray)
		}},
		{"setInputFiles", func(c goja.FunctionCall) goja.Value {
			t := target(c, "setInputFiles")
			files := r.inputFiles(t.api, t.arg(0))
			o := r.opts(t.arg(1))
			opt := playwright.FrameSetInputFilesOptions{NoWaitAfter: o.b("noWaitAfter"), Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return asyncErr(r, t.api, func() error { return t.f.SetInputFiles(t.sel, files, opt) })
		}},
		{"dispatchEvent", func(c goja.FunctionCall) goja.Value {
			t := target(c, "dispatchEvent")
			typ := t.arg(0).String()
			init := r.argOf(t.arg(1))
			o := r.opts(t.arg(2))
			opt := playwright.FrameDispatchEventOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return asyncErr(r, t.api, func() error { return t.f.DispatchEvent(t.sel, typ, init, opt) })
		}},
		{"textContent", func(c goja.FunctionCall) goja.Value {
			t := target(c, "textContent")
			o := r.opts(t.arg(0))
			opt := playwright.FrameTextContentOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return async(r, t.api, func() (string, error) { return t.f.TextContent(t.sel, opt) }, r.strV)
		}},
		{"innerText", func(c goja.FunctionCall) goja.Value {
			t := target(c, "innerText")
			o := r.opts(t.arg(0))
			opt := playwright.FrameInnerTextOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return async(r, t.api, func() (string, error) { return t.f.InnerText(t.sel, opt) }, r.strV)
		}},
		{"innerHTML", func(c goja.FunctionCall) goja.Value {
			t := target(c, "innerHTML")
			o := r.opts(t.arg(0))
			opt := playwright.FrameInnerHTMLOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return async(r, t.api, func() (string, error) { return t.f.InnerHTML(t.sel, opt) }, r.strV)
		}},
		{"inputValue", func(c goja.FunctionCall) goja.Value {
			t := target(c, "inputValue")
			o := r.opts(t.arg(0))
			opt := playwright.FrameInputValueOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return async(r, t.api, func() (string, error) { return t.f.InputValue(t.sel, opt) }, r.strV)
		}},
		{"getAttribute", func(c goja.FunctionCall) goja.Value {
			t := target(c, "getAttribute")
			name := t.arg(0).String()
			o := r.opts(t.arg(1))
			st, timeout := t.strictOf(o), t.timeout(o)
			return async(r, t.api, func() (*string, error) { return getAttribute(t.f, t.sel, name, st, timeout) }, r.strOrNull)
		}},
		{"isVisible", func(c goja.FunctionCall) goja.Value {
			t := target(c, "isVisible")
			opt := playwright.FrameIsVisibleOptions{Strict: t.strictAt(0)}
			return async(r, t.api, func() (bool, error) { return t.f.IsVisible(t.sel, opt) }, r.boolV)
		}},
		{"isHidden", func(c goja.FunctionCall) goja.Value {
			t := target(c, "isHidden")
			opt := playwright.FrameIsHiddenOptions{Strict: t.strictAt(0)}
			return async(r, t.api, func() (bool, error) { return t.f.IsHidden(t.sel, opt) }, r.boolV)
		}},
		{"isEnabled", func(c goja.FunctionCall) goja.Value {
			t := target(c, "isEnabled")
			o := r.opts(t.arg(0))
			opt := playwright.FrameIsEnabledOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return async(r, t.api, func() (bool, error) { return t.f.IsEnabled(t.sel, opt) }, r.boolV)
		}},
		{"isDisabled", func(c goja.FunctionCall) goja.Value {
			t := target(c, "isDisabled")
			o := r.opts(t.arg(0))
			opt := playwright.FrameIsDisabledOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return async(r, t.api, func() (bool, error) { return t.f.IsDisabled(t.sel, opt) }, r.boolV)
		}},
		{"isChecked", func(c goja.FunctionCall) goja.Value {
			t := target(c, "isChecked")
			o := r.opts(t.arg(0))
			opt := playwright.FrameIsCheckedOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return async(r, t.api, func() (bool, error) { return t.f.IsChecked(t.sel, opt) }, r.boolV)
		}},
		{"isEditable", func(c goja.FunctionCall) goja.Value {
			t := target(c, "isEditable")
			o := r.opts(t.arg(0))
			opt := playwright.FrameIsEditableOptions{Strict: t.strictOf(o), Timeout: t.timeout(o)}
			return async(r, t.api, func() (bool, error) { return t.f.IsEditable(t.sel, opt) }, r.boolV)
		}},
	}
}
