package jsapi

import (
	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// keyboardW is page.keyboard.
type keyboardW struct {
	props
	k playwright.Keyboard
}

func (r *Runtime) keyboardMethods() []method {
	self := func(c goja.FunctionCall, api string) *keyboardW { return recv[*keyboardW](r, c, api) }
	key := func(name string, do func(k playwright.Keyboard, s string, o opts) error) method {
		return method{name, func(c goja.FunctionCall) goja.Value {
			w := self(c, "keyboard."+name)
			s := c.Argument(0).String()
			o := r.opts(c.Argument(1))
			return asyncErr(r, "keyboard."+name, func() error { return do(w.k, s, o) })
		}}
	}
	return []method{
		key("down", func(k playwright.Keyboard, s string, _ opts) error { return k.Down(s) }),
		key("up", func(k playwright.Keyboard, s string, _ opts) error { return k.Up(s) }),
		key("insertText", func(k playwright.Keyboard, s string, _ opts) error { return k.InsertText(s) }),
		key("press", func(k playwright.Keyboard, s string, o opts) error {
			return k.Press(s, playwright.KeyboardPressOptions{Delay: o.f("delay")})
		}),
		key("type", func(k playwright.Keyboard, s string, o opts) error {
			return k.Type(s, playwright.KeyboardTypeOptions{Delay: o.f("delay")})
		}),
	}
}

// mouseW is page.mouse.
type mouseW struct {
	props
	m playwright.Mouse
}

func (r *Runtime) mouseMethods() []method {
	self := func(c goja.FunctionCall, api string) *mouseW { return recv[*mouseW](r, c, api) }
	return []method{
		{"click", func(c goja.FunctionCall) goja.Value {
			w := self(c, "mouse.click")
			x, y := c.Argument(0).ToFloat(), c.Argument(1).ToFloat()
			o := r.opts(c.Argument(2))
			opt := playwright.MouseClickOptions{Button: o.button(), ClickCount: o.i("clickCount"), Delay: o.f("delay")}
			return asyncErr(r, "mouse.click", func() error { return w.m.Click(x, y, opt) })
		}},
		{"dblclick", func(c goja.FunctionCall) goja.Value {
			w := self(c, "mouse.dblclick")
			x, y := c.Argument(0).ToFloat(), c.Argument(1).ToFloat()
			o := r.opts(c.Argument(2))
			opt := playwright.MouseDblclickOptions{Button: o.button(), Delay: o.f("delay")}
			return asyncErr(r, "mouse.dblclick", func() error { return w.m.Dblclick(x, y, opt) })
		}},
		{"move", func(c goja.FunctionCall) goja.Value {
			w := self(c, "mouse.move")
			x, y := c.Argument(0).ToFloat(), c.Argument(1).ToFloat()
			opt := playwright.MouseMoveOptions{Steps: r.opts(c.Argument(2)).i("steps")}
			return asyncErr(r, "mouse.move", func() error { return w.m.Move(x, y, opt) })
		}},
		{"down", func(c goja.FunctionCall) goja.Value {
			w := self(c, "mouse.down")
			o := r.opts(c.Argument(0))
			opt := playwright.MouseDownOptions{Button: o.button(), ClickCount: o.i("clickCount")}
			return asyncErr(r, "mouse.down", func() error { return w.m.Down(opt) })
		}},
		{"up", func(c goja.FunctionCall) goja.Value {
			w := self(c, "mouse.up")
			o := r.opts(c.Argument(0))
			opt := playwright.MouseUpOptions{Button: o.button(), ClickCount: o.i("clickCount")}
			return asyncErr(r, "mouse.up", func() error { return w.m.Up(opt) })
		}},
		{"wheel", func(c goja.FunctionCall) goja.Value {
			w := self(c, "mouse.wheel")
			dx, dy := c.Argument(0).ToFloat(), c.Argument(1).ToFloat()
			return asyncErr(r, "mouse.wheel", func() error { return w.m.Wheel(dx, dy) })
		}},
	}
}

// touchscreenW is page.touchscreen.
type touchscreenW struct {
	props
	t playwright.Touchscreen
}

func (r *Runtime) touchscreenMethods() []method {
	return []method{{"tap", func(c goja.FunctionCall) goja.Value {
		w := recv[*touchscreenW](r, c, "touchscreen.tap")
		x, y := int(c.Argument(0).ToInteger()), int(c.Argument(1).ToInteger())
		return asyncErr(r, "touchscreen.tap", func() error { return w.t.Tap(x, y) })
	}}}
}

// jsHandleW is a JSHandle (evaluateHandle, waitForFunction, console
// message arguments).
type jsHandleW struct {
	props
	h playwright.JSHandle
}

func (r *Runtime) jsHandleObj(h playwright.JSHandle) goja.Value {
	if h == nil {
		return goja.Null()
	}
	if eh := h.AsElement(); eh != nil {
		return r.elementHandleObj(eh)
	}
	return r.newObject(r.p.get(&r.p.jsHandle, "JSHandle", r.jsHandleMethods), &jsHandleW{h: h})
}

// handleMethods are the JSHandle methods ElementHandle shares.
func (r *Runtime) handleMethods(kind string, handle func(c goja.FunctionCall, api string) playwright.JSHandle) []method {
	return []method{
		{"jsonValue", func(c goja.FunctionCall) goja.Value {
			h := handle(c, kind+".jsonValue")
			return async(r, kind+".jsonValue", h.JSONValue, r.toJS)
		}},
		{"evaluate", func(c goja.FunctionCall) goja.Value {
			api := kind + ".evaluate"
			h := handle(c, api)
			src := r.functionSource(c.Argument(0), api)
			var args []any
			if len(c.Arguments) > 1 {
				args = append(args, r.argOf(c.Argument(1)))
			}
			return async(r, api, func() (any, error) { return h.Evaluate(src, args...) }, r.toJS)
		}},
		{"getProperty", func(c goja.FunctionCall) goja.Value {
			h := handle(c, kind+".getProperty")
			name := c.Argument(0).String()
			return async(r, kind+".getProperty", func() (playwright.JSHandle, error) { return h.GetProperty(name) }, r.jsHandleObj)
		}},
		{"dispose", func(c goja.FunctionCall) goja.Value {
			h := handle(c, kind+".dispose")
			return asyncErr(r, kind+".dispose", h.Dispose)
		}},
		{"asElement", func(c goja.FunctionCall) goja.Value {
			h := handle(c, kind+".asElement")
			if eh := h.AsElement(); eh != nil {
				return r.elementHandleObj(eh)
			}
			return goja.Null()
		}},
	}
}

func (r *Runtime) jsHandleMethods() []method {
	return r.handleMethods("jsHandle", func(c goja.FunctionCall, api string) playwright.JSHandle {
		return recv[*jsHandleW](r, c, api).h
	})
}

// elementHandleW is an ElementHandle ($, waitForSelector...). Locators are
// the recommended API; handles cover the older one.
type elementHandleW struct {
	props
	h playwright.ElementHandle
}

func (r *Runtime) elementHandleObj(h playwright.ElementHandle) goja.Value {
	if h == nil {
		return goja.Null()
	}
	return r.newObject(r.p.get(&r.p.elementHandle, "ElementHandle", r.elementHandleMethods), &elementHandleW{h: h})
}

func (r *Runtime) elementHandles(hs []playwright.ElementHandle) goja.Value {
	items := make([]any, len(hs))
	for i, h := range hs {
		items[i] = r.elementHandleObj(h)
	}
	return r.rt.NewArray(items...)
}

func (r *Runtime) elementHandleMethods() []method {
	self := func(c goja.FunctionCall, api string) playwright.ElementHandle {
		return recv[*elementHandleW](r, c, api).h
	}
	ms := r.handleMethods("elementHandle", func(c goja.FunctionCall, api string) playwright.JSHandle { return self(c, api) })
	str := func(name string, do func(h playwright.ElementHandle) (string, error)) method {
		return method{name, func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle."+name)
			return async(r, "elementHandle."+name, func() (string, error) { return do(h) }, r.strV)
		}}
	}
	boolean := func(name string, do func(h playwright.ElementHandle) (bool, error)) method {
		return method{name, func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle."+name)
			return async(r, "elementHandle."+name, func() (bool, error) { return do(h) }, r.boolV)
		}}
	}
	act := func(name string, do func(h playwright.ElementHandle, c goja.FunctionCall) func() error) method {
		return method{name, func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle."+name)
			return asyncErr(r, "elementHandle."+name, do(h, c))
		}}
	}
	return append(ms,
		str("textContent", func(h playwright.ElementHandle) (string, error) { return h.TextContent() }),
		str("innerText", func(h playwright.ElementHandle) (string, error) { return h.InnerText() }),
		str("innerHTML", func(h playwright.ElementHandle) (string, error) { return h.InnerHTML() }),
		str("inputValue", func(h playwright.ElementHandle) (string, error) { return h.InputValue() }),
		boolean("isVisible", func(h playwright.ElementHandle) (bool, error) { return h.IsVisible() }),
		boolean("isHidden", func(h playwright.ElementHandle) (bool, error) { return h.IsHidden() }),
		boolean("isEnabled", func(h playwright.ElementHandle) (bool, error) { return h.IsEnabled() }),
		boolean("isDisabled", func(h playwright.ElementHandle) (bool, error) { return h.IsDisabled() }),
		boolean("isChecked", func(h playwright.ElementHandle) (bool, error) { return h.IsChecked() }),
		boolean("isEditable", func(h playwright.ElementHandle) (bool, error) { return h.IsEditable() }),
		method{"getAttribute", func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle.getAttribute")
			name := c.Argument(0).String()
			return async(r, "elementHandle.getAttribute", func() (any, error) { return h.Evaluate("(e, n) => e.getAttribute(n)", name) }, r.toJS)
		}},
		act("click", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			o := r.opts(c.Argument(0))
			opt := playwright.ElementHandleClickOptions{Button: o.button(), ClickCount: o.i("clickCount"), Delay: o.f("delay"), Force: o.b("force"),
				Modifiers: o.modifiers(), Position: o.position("position"), Timeout: r.timeout(o, nil), Trial: o.b("trial")}
			return func() error { return h.Click(opt) }
		}),
		act("dblclick", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			o := r.opts(c.Argument(0))
			opt := playwright.ElementHandleDblclickOptions{Button: o.button(), Delay: o.f("delay"), Force: o.b("force"), Timeout: r.timeout(o, nil)}
			return func() error { return h.Dblclick(opt) }
		}),
		act("fill", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			v := c.Argument(0).String()
			o := r.opts(c.Argument(1))
			opt := playwright.ElementHandleFillOptions{Force: o.b("force"), Timeout: r.timeout(o, nil)}
			return func() error { return h.Fill(v, opt) }
		}),
		act("type", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			v := c.Argument(0).String()
			opt := playwright.ElementHandleTypeOptions{Delay: r.opts(c.Argument(1)).f("delay")}
			return func() error { return h.Type(v, opt) }
		}),
		act("press", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			v := c.Argument(0).String()
			opt := playwright.ElementHandlePressOptions{Delay: r.opts(c.Argument(1)).f("delay")}
			return func() error { return h.Press(v, opt) }
		}),
		act("check", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			opt := playwright.ElementHandleCheckOptions{Force: r.opts(c.Argument(0)).b("force")}
			return func() error { return h.Check(opt) }
		}),
		act("uncheck", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			opt := playwright.ElementHandleUncheckOptions{Force: r.opts(c.Argument(0)).b("force")}
			return func() error { return h.Uncheck(opt) }
		}),
		act("hover", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			opt := playwright.ElementHandleHoverOptions{Force: r.opts(c.Argument(0)).b("force")}
			return func() error { return h.Hover(opt) }
		}),
		act("focus", func(h playwright.ElementHandle, c goja.FunctionCall) func() error { return h.Focus }),
		act("scrollIntoViewIfNeeded", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			return func() error { return h.ScrollIntoViewIfNeeded() }
		}),
		act("setInputFiles", func(h playwright.ElementHandle, c goja.FunctionCall) func() error {
			files := r.inputFiles("elementHandle.setInputFiles", c.Argument(0))
			return func() error { return h.SetInputFiles(files) }
		}),
		method{"selectOption", func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle.selectOption")
			values := r.selectValues(c.Argument(0))
			return async(r, "elementHandle.selectOption", func() ([]string, error) { return h.SelectOption(values) }, r.strArray)
		}},
		method{"boundingBox", func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle.boundingBox")
			return async(r, "elementHandle.boundingBox", h.BoundingBox, r.rect)
		}},
		method{"screenshot", func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle.screenshot")
			o := r.opts(c.Argument(0))
			opt := playwright.ElementHandleScreenshotOptions{Path: r.path("elementHandle.screenshot", o.s("path"), capability.FSWrite), Timeout: r.timeout(o, nil)}
			return async(r, "elementHandle.screenshot", func() ([]byte, error) { return h.Screenshot(opt) }, r.buffer)
		}},
		method{"contentFrame", func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle.contentFrame")
			return async(r, "elementHandle.contentFrame", h.ContentFrame, r.frameObj)
		}},
		method{"$", func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle.$")
			s := c.Argument(0).String()
			return async(r, "elementHandle.$", func() (playwright.ElementHandle, error) { return h.QuerySelector(s) }, r.elementHandleObj)
		}},
		method{"$$", func(c goja.FunctionCall) goja.Value {
			h := self(c, "elementHandle.$$")
			s := c.Argument(0).String()
			return async(r, "elementHandle.$$", func() ([]playwright.ElementHandle, error) { return h.QuerySelectorAll(s) }, r.elementHandles)
		}},
	)
}
