package jsapi

import (
	"os"
	"path/filepath"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// locatorW is a Locator: a selector in a frame. The playwright-go locator
// is made once, with the object (it costs no round trip).
type locatorW struct {
	props
	r     *Runtime
	frame playwright.Frame
	sel   string
	desc  string
	pw    playwright.Locator
}

func (r *Runtime) newLocator(frame playwright.Frame, sel, desc string) *goja.Object {
	return r.newObject(r.locatorProto(), &locatorW{r: r, frame: frame, sel: sel, desc: desc, pw: frame.Locator(sel)})
}

// child makes a locator below l: its selector extended by suffix, its
// description by ".part".
func (l *locatorW) child(suffix, part string) *goja.Object {
	return l.r.newLocator(l.frame, l.sel+suffix, l.desc+"."+part)
}

// locatorCall implements locator(selectorOrLocator, {hasText, has...}) on
// a root whose selector is prefix ("" for a page or frame) and whose
// description is desc ("" for a page or frame).
func (r *Runtime) locatorCall(frame playwright.Frame, prefix, desc string, call goja.FunctionCall, api string) *goja.Object {
	arg := call.Argument(0)
	var sel, part string
	if o, ok := arg.(*goja.Object); ok {
		if other, ok := o.Export().(*locatorW); ok {
			if prefix == "" {
				sel, part = other.sel, other.desc
			} else {
				sel, part = "internal:chain="+quoteJSON(other.sel), "locator("+other.desc+")"
			}
		}
	}
	if sel == "" {
		if isNullish(arg) {
			panic(r.rt.NewTypeError("%s", api+": expected a selector string or a Locator"))
		}
		sel, part = arg.String(), "locator("+jsString(arg.String())+")"
	}
	fsel, fdesc := r.filterSuffix(call.Argument(1), api)
	if fdesc != "" {
		part = part[:len(part)-1] + ", " + fdesc + ")"
	}
	if prefix != "" {
		sel = prefix + " >> " + sel
	}
	if desc != "" {
		part = desc + "." + part
	}
	return r.newLocator(frame, sel+fsel, part)
}

// getByCall implements getBy<kind> on a root.
func (r *Runtime) getByCall(kind string, frame playwright.Frame, prefix, desc string, call goja.FunctionCall) *goja.Object {
	sel, part := r.getBy(kind, call)
	if prefix != "" {
		sel = prefix + " >> " + sel
	}
	if desc != "" {
		part = desc + "." + part
	}
	return r.newLocator(frame, sel, part)
}

var getByKinds = []string{"Text", "Role", "Label", "Placeholder", "AltText", "Title", "TestId"}

// rootMethods are locator() and getBy*() for a root found by root(call).
func (r *Runtime) rootMethods(prefix string, root func(call goja.FunctionCall, api string) (frame playwright.Frame, sel, desc string)) []method {
	ms := []method{{"locator", func(c goja.FunctionCall) goja.Value {
		f, sel, desc := root(c, prefix+"locator")
		return r.locatorCall(f, sel, desc, c, prefix+"locator")
	}}}
	for _, kind := range getByKinds {
		ms = append(ms, method{"getBy" + kind, func(c goja.FunctionCall) goja.Value {
			f, sel, desc := root(c, prefix+"getBy"+kind)
			return r.getByCall(kind, f, sel, desc, c)
		}})
	}
	return ms
}

func (r *Runtime) locatorProto() *goja.Object {
	return r.p.get(&r.p.locator, "Locator", r.locatorMethods)
}

func (r *Runtime) locatorMethods() []method {
	self := func(c goja.FunctionCall, api string) *locatorW { return recv[*locatorW](r, c, api) }
	ms := r.rootMethods("locator.", func(c goja.FunctionCall, api string) (playwright.Frame, string, string) {
		l := self(c, api)
		return l.frame, l.sel, l.desc
	})
	ms = append(ms, r.selectorActions(func(c goja.FunctionCall, name string) selTarget {
		l := self(c, "locator."+name)
		return selTarget{r: r, f: l.frame, sel: l.sel, api: "locator." + name, c: c, strict: true}
	})...)
	ms = append(ms,
		method{"filter", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.filter")
			sel, desc := r.filterSuffix(c.Argument(0), "locator.filter")
			return l.child(sel, "filter("+desc+")")
		}},
		method{"nth", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.nth")
			n := itoa(int(c.Argument(0).ToInteger()))
			return l.child(" >> nth="+n, "nth("+n+")")
		}},
		method{"first", func(c goja.FunctionCall) goja.Value {
			return self(c, "locator.first").child(" >> nth=0", "first()")
		}},
		method{"last", func(c goja.FunctionCall) goja.Value {
			return self(c, "locator.last").child(" >> nth=-1", "last()")
		}},
		method{"and", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.and")
			o := r.locatorArg(c.Argument(0), "locator.and")
			return l.child(" >> internal:and="+quoteJSON(o.sel), "and("+o.desc+")")
		}},
		method{"or", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.or")
			o := r.locatorArg(c.Argument(0), "locator.or")
			return l.child(" >> internal:or="+quoteJSON(o.sel), "or("+o.desc+")")
		}},
		method{"frameLocator", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.frameLocator")
			s := c.Argument(0).String()
			return r.newFrameLocator(l.frame, l.sel+" >> "+s, l.desc+".frameLocator("+jsString(s)+")")
		}},
		method{"contentFrame", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.contentFrame")
			return r.newFrameLocator(l.frame, l.sel, l.desc+".contentFrame()")
		}},
		method{"page", func(c goja.FunctionCall) goja.Value {
			return r.pageObj(self(c, "locator.page").frame.Page())
		}},
		method{"toString", func(c goja.FunctionCall) goja.Value {
			return r.rt.ToValue(self(c, "locator.toString").desc)
		}},
		method{"count", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.count")
			return async(r, "locator.count", l.pw.Count, r.intV)
		}},
		method{"all", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.all")
			return async(r, "locator.all", l.pw.Count, func(n int) goja.Value {
				items := make([]any, n)
				for i := range items {
					items[i] = l.child(" >> nth="+itoa(i), "nth("+itoa(i)+")")
				}
				return r.rt.NewArray(items...)
			})
		}},
		method{"clear", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.clear")
			o := r.opts(c.Argument(0))
			opt := playwright.LocatorClearOptions{Force: o.b("force"), NoWaitAfter: o.b("noWaitAfter"), Timeout: r.timeout(o, l.frame.Page())}
			return asyncErr(r, "locator.clear", func() error { return l.pw.Clear(opt) })
		}},
		method{"pressSequentially", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.pressSequentially")
			text := c.Argument(0).String()
			o := r.opts(c.Argument(1))
			opt := playwright.LocatorPressSequentiallyOptions{Delay: o.f("delay"), NoWaitAfter: o.b("noWaitAfter"), Timeout: r.timeout(o, l.frame.Page())}
			return asyncErr(r, "locator.pressSequentially", func() error { return l.pw.PressSequentially(text, opt) })
		}},
		method{"blur", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.blur")
			opt := playwright.LocatorBlurOptions{Timeout: r.timeout(r.opts(c.Argument(0)), l.frame.Page())}
			return asyncErr(r, "locator.blur", func() error { return l.pw.Blur(opt) })
		}},
		method{"dragTo", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.dragTo")
			target := r.locatorArg(c.Argument(0), "locator.dragTo")
			o := r.opts(c.Argument(1))
			opt := playwright.LocatorDragToOptions{Force: o.b("force"), NoWaitAfter: o.b("noWaitAfter"), SourcePosition: o.position("sourcePosition"),
				TargetPosition: o.position("targetPosition"), Timeout: r.timeout(o, l.frame.Page()), Trial: o.b("trial")}
			return asyncErr(r, "locator.dragTo", func() error { return l.pw.DragTo(target.pw, opt) })
		}},
		method{"scrollIntoViewIfNeeded", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.scrollIntoViewIfNeeded")
			opt := playwright.LocatorScrollIntoViewIfNeededOptions{Timeout: r.timeout(r.opts(c.Argument(0)), l.frame.Page())}
			return asyncErr(r, "locator.scrollIntoViewIfNeeded", func() error { return l.pw.ScrollIntoViewIfNeeded(opt) })
		}},
		method{"selectText", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.selectText")
			o := r.opts(c.Argument(0))
			opt := playwright.LocatorSelectTextOptions{Force: o.b("force"), Timeout: r.timeout(o, l.frame.Page())}
			return asyncErr(r, "locator.selectText", func() error { return l.pw.SelectText(opt) })
		}},
		method{"highlight", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.highlight")
			return asyncErr(r, "locator.highlight", l.pw.Highlight)
		}},
		method{"allTextContents", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.allTextContents")
			return async(r, "locator.allTextContents", l.pw.AllTextContents, r.strArray)
		}},
		method{"allInnerTexts", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.allInnerTexts")
			return async(r, "locator.allInnerTexts", l.pw.AllInnerTexts, r.strArray)
		}},
		method{"waitFor", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.waitFor")
			o := r.opts(c.Argument(0))
			opt := playwright.LocatorWaitForOptions{State: o.state(), Timeout: r.timeout(o, l.frame.Page())}
			return asyncErr(r, "locator.waitFor", func() error { return l.pw.WaitFor(opt) })
		}},
		method{"evaluate", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.evaluate")
			src := r.functionSource(c.Argument(0), "locator.evaluate")
			arg := r.argOf(c.Argument(1))
			timeout := r.timeout(r.opts(c.Argument(2)), l.frame.Page())
			return async(r, "locator.evaluate", func() (any, error) {
				// As Playwright does: wait for the one element (strict),
				// evaluate on it, release it.
				h, err := l.frame.WaitForSelector(l.sel, playwright.FrameWaitForSelectorOptions{
					Strict: playwright.Bool(true), State: playwright.WaitForSelectorStateAttached, Timeout: timeout})
				if err != nil {
					return nil, err
				}
				defer func() { go func() { _ = h.Dispose() }() }()
				return h.Evaluate(src, arg)
			}, r.toJS)
		}},
		method{"evaluateAll", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.evaluateAll")
			src := r.functionSource(c.Argument(0), "locator.evaluateAll")
			arg := r.argOf(c.Argument(1))
			return async(r, "locator.evaluateAll", func() (any, error) { return l.pw.EvaluateAll(src, arg) }, r.toJS)
		}},
		method{"screenshot", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.screenshot")
			o := r.opts(c.Argument(0))
			var s shooter
			r.screenshotOptions(o, &s, false)
			opt := s.loc0
			opt.Path, opt.Quality, opt.Timeout, opt.Type = r.path("locator.screenshot", o.s("path"), capability.FSWrite), o.i("quality"), r.timeout(o, l.frame.Page()), nil
			if t := o.s("type"); t != nil {
				opt.Type = (*playwright.ScreenshotType)(t)
			}
			return async(r, "locator.screenshot", func() ([]byte, error) { return l.pw.Screenshot(opt) }, r.buffer)
		}},
		method{"boundingBox", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.boundingBox")
			opt := playwright.LocatorBoundingBoxOptions{Timeout: r.timeout(r.opts(c.Argument(0)), l.frame.Page())}
			return async(r, "locator.boundingBox", func() (*playwright.Rect, error) { return l.pw.BoundingBox(opt) }, r.rect)
		}},
		method{"elementHandle", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.elementHandle")
			opt := playwright.LocatorElementHandleOptions{Timeout: r.timeout(r.opts(c.Argument(0)), l.frame.Page())}
			return async(r, "locator.elementHandle", func() (playwright.ElementHandle, error) { return l.pw.ElementHandle(opt) }, r.elementHandleObj)
		}},
		method{"elementHandles", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.elementHandles")
			return async(r, "locator.elementHandles", l.pw.ElementHandles, r.elementHandles)
		}},
		method{"ariaSnapshot", func(c goja.FunctionCall) goja.Value {
			l := self(c, "locator.ariaSnapshot")
			opt := playwright.LocatorAriaSnapshotOptions{Timeout: r.timeout(r.opts(c.Argument(0)), l.frame.Page())}
			return async(r, "locator.ariaSnapshot", func() (string, error) { return l.pw.AriaSnapshot(opt) }, r.strV)
		}},
	)
	return ms
}

// frameLocatorW is a FrameLocator: the iframe(s) matched by sel.
type frameLocatorW struct {
	props
	frame playwright.Frame
	sel   string
	desc  string
}

func (r *Runtime) newFrameLocator(frame playwright.Frame, sel, desc string) *goja.Object {
	return r.newObject(r.p.get(&r.p.frameLocator, "FrameLocator", r.frameLocatorMethods), &frameLocatorW{frame: frame, sel: sel, desc: desc})
}

func (r *Runtime) frameLocatorMethods() []method {
	self := func(c goja.FunctionCall, api string) *frameLocatorW { return recv[*frameLocatorW](r, c, api) }
	ms := r.rootMethods("frameLocator.", func(c goja.FunctionCall, api string) (playwright.Frame, string, string) {
		f := self(c, api)
		return f.frame, f.sel + " >> internal:control=enter-frame", f.desc
	})
	sub := func(f *frameLocatorW, suffix, part string) goja.Value {
		return r.newFrameLocator(f.frame, f.sel+suffix, f.desc+"."+part)
	}
	return append(ms,
		method{"frameLocator", func(c goja.FunctionCall) goja.Value {
			f := self(c, "frameLocator.frameLocator")
			s := c.Argument(0).String()
			return sub(f, " >> internal:control=enter-frame >> "+s, "frameLocator("+jsString(s)+")")
		}},
		method{"first", func(c goja.FunctionCall) goja.Value {
			return sub(self(c, "frameLocator.first"), " >> nth=0", "first()")
		}},
		method{"last", func(c goja.FunctionCall) goja.Value {
			return sub(self(c, "frameLocator.last"), " >> nth=-1", "last()")
		}},
		method{"nth", func(c goja.FunctionCall) goja.Value {
			n := itoa(int(c.Argument(0).ToInteger()))
			return sub(self(c, "frameLocator.nth"), " >> nth="+n, "nth("+n+")")
		}},
		method{"owner", func(c goja.FunctionCall) goja.Value {
			f := self(c, "frameLocator.owner")
			return r.newLocator(f.frame, f.sel, f.desc+".owner()")
		}},
	)
}

// saveStorageState reads a context's storage state with save, writing it
// to path when given (at most one): as Playwright, the file's directory is
// created first.
func saveStorageState(save func(path ...string) (*playwright.StorageState, error), path []string) (*playwright.StorageState, error) {
	if len(path) == 1 {
		if err := os.MkdirAll(filepath.Dir(path[0]), 0o755); err != nil {
			return nil, err
		}
	}
	return save(path...)
}

func (r *Runtime) strV(s string) goja.Value { return r.rt.ToValue(s) }
func (r *Runtime) intV(n int) goja.Value    { return r.rt.ToValue(n) }
func (r *Runtime) boolV(b bool) goja.Value  { return r.rt.ToValue(b) }

// getAttribute reads an attribute with auto-waiting: one round trip,
// plus one more when the value is empty, to tell an empty attribute from
// a missing one (null), which playwright-go reports alike.
func getAttribute(f playwright.Frame, sel, name string, strict *bool, timeout *float64) (*string, error) {
	v, err := f.GetAttribute(sel, name, playwright.FrameGetAttributeOptions{Strict: strict, Timeout: timeout})
	if err != nil {
		return nil, err
	}
	if v != "" {
		return &v, nil
	}
	raw, err := f.EvalOnSelector(sel, "(e, n) => e.getAttribute(n)", name, playwright.FrameEvalOnSelectorOptions{Strict: strict})
	if err != nil {
		return nil, err
	}
	if s, ok := raw.(string); ok {
		return &s, nil
	}
	return nil, nil
}
