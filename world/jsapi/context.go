package jsapi

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// contextW is a BrowserContext.
type contextW struct {
	props
	r       *Runtime
	c       playwright.BrowserContext
	em      emitter
	routes  routeSet
	closed  atomic.Bool
	baseURL string

	request, tracing *goja.Object
}

// closeOwned closes a context JS created and left open.
func (w *contextW) closeOwned() {
	if !w.closed.Load() {
		_ = w.c.Close()
	}
}

func (w *contextW) Get(k string) goja.Value {
	r := w.r
	switch k {
	case "request":
		if w.request == nil {
			w.request = r.apiRequestObj(w.c.Request(), w.baseURL)
		}
		return w.request
	case "tracing":
		if w.tracing == nil {
			w.tracing = r.newObject(r.p.get(&r.p.tracing, "Tracing", r.tracingMethods), &tracingW{t: w.c.Tracing()})
		}
		return w.tracing
	}
	return w.props.Get(k)
}

var contextEvents = map[string]bool{
	"close": true, "console": true, "dialog": true, "page": true, "request": true,
	"requestfailed": true, "requestfinished": true, "response": true,
}

func (r *Runtime) contextObj(c playwright.BrowserContext) goja.Value {
	if c == nil {
		return goja.Null()
	}
	if o, ok := r.objects[c]; ok {
		return o
	}
	return r.wrapContext(c, r.hostBaseURL())
}

func (r *Runtime) wrapContext(c playwright.BrowserContext, baseURL string) *goja.Object {
	w := &contextW{r: r, c: c, baseURL: baseURL}
	var o *goja.Object
	w.em = emitter{r: r, name: "context", self: func() goja.Value { return o }, valid: contextEvents,
		pwOn:           func(event string, h func(any)) { c.On(event, h) },
		dialogs:        func() { r.subscribeDialogs(c) },
		timeoutDefault: func() float64 { return r.contextDefaultTimeout(c) }}
	w.routes = routeSet{target: c}
	c.OnClose(func(playwright.BrowserContext) { w.closed.Store(true) })
	o = r.newObject(r.p.get(&r.p.context, "BrowserContext", r.contextMethods), w)
	r.objects[c] = o
	return o
}

func (r *Runtime) pages(ps []playwright.Page) goja.Value {
	items := make([]any, 0, len(ps))
	for _, p := range ps {
		items = append(items, r.pageObj(p))
	}
	return r.rt.NewArray(items...)
}

func (r *Runtime) contextMethods() []method {
	self := func(c goja.FunctionCall, api string) *contextW { return recv[*contextW](r, c, api) }
	ms := r.eventMethods("browserContext", func(c goja.FunctionCall, api string) *emitter { return &self(c, api).em })
	ms = append(ms, r.routeMethods("browserContext", func(c goja.FunctionCall, api string) *routeSet { return &self(c, api).routes })...)
	ms = append(ms, r.scopeMethods("browserContext", func(c goja.FunctionCall, api string) (scope, *emitter) {
		w := self(c, api)
		return w.c, &w.em
	})...)
	return append(ms,
		method{"newPage", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.newPage")
			return async(r, "browserContext.newPage", w.c.NewPage, r.pageObj)
		}},
		method{"pages", func(c goja.FunctionCall) goja.Value { return r.pages(self(c, "browserContext.pages").c.Pages()) }},
		method{"browser", func(c goja.FunctionCall) goja.Value {
			self(c, "browserContext.browser")
			return r.SharedBrowser()
		}},
		method{"close", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.close")
			reason := r.opts(c.Argument(0)).s("reason")
			return asyncErr(r, "browserContext.close", func() error {
				err := w.c.Close(playwright.BrowserContextCloseOptions{Reason: reason})
				if errors.Is(err, playwright.ErrTargetClosed) {
					return nil
				}
				return err
			})
		}},
		method{"cookies", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.cookies")
			urls := r.strings(c.Argument(0))
			return async(r, "browserContext.cookies", func() ([]playwright.Cookie, error) { return w.c.Cookies(urls...) }, func(cs []playwright.Cookie) goja.Value {
				if cs == nil {
					cs = []playwright.Cookie{}
				}
				return r.jsonOf(cs)
			})
		}},
		method{"addCookies", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.addCookies")
			var cookies []playwright.OptionalCookie
			for _, it := range r.array(c.Argument(0)) {
				o := r.opts(it)
				ck := playwright.OptionalCookie{URL: o.s("url"), Domain: o.s("domain"), Path: o.s("path"), Expires: o.f("expires"),
					HttpOnly: o.b("httpOnly"), Secure: o.b("secure")}
				if n := o.s("name"); n != nil {
					ck.Name = *n
				}
				if v := o.s("value"); v != nil {
					ck.Value = *v
				}
				if s := o.s("sameSite"); s != nil {
					ck.SameSite = (*playwright.SameSiteAttribute)(s)
				}
				cookies = append(cookies, ck)
			}
			return asyncErr(r, "browserContext.addCookies", func() error { return w.c.AddCookies(cookies) })
		}},
		method{"clearCookies", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.clearCookies")
			o := r.opts(c.Argument(0))
			opt := playwright.BrowserContextClearCookiesOptions{}
			if v := o.s("name"); v != nil {
				opt.Name = *v
			}
			if v := o.s("domain"); v != nil {
				opt.Domain = *v
			}
			if v := o.s("path"); v != nil {
				opt.Path = *v
			}
			return asyncErr(r, "browserContext.clearCookies", func() error { return w.c.ClearCookies(opt) })
		}},
		method{"storageState", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.storageState")
			var path []string
			if p := r.path("browserContext.storageState", r.opts(c.Argument(0)).s("path"), capability.FSWrite); p != nil {
				path = append(path, *p)
			}
			return async(r, "browserContext.storageState", func() (any, error) { return saveStorageState(w.c.StorageState, path) }, r.jsonOf)
		}},
		method{"grantPermissions", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.grantPermissions")
			perms := r.strings(c.Argument(0))
			opt := playwright.BrowserContextGrantPermissionsOptions{Origin: r.opts(c.Argument(1)).s("origin")}
			return asyncErr(r, "browserContext.grantPermissions", func() error { return w.c.GrantPermissions(perms, opt) })
		}},
		method{"clearPermissions", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.clearPermissions")
			return asyncErr(r, "browserContext.clearPermissions", w.c.ClearPermissions)
		}},
		method{"setGeolocation", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.setGeolocation")
			var g *playwright.Geolocation
			if o := r.opts(c.Argument(0)); o.o != nil {
				g = &playwright.Geolocation{Accuracy: o.f("accuracy")}
				if v := o.f("latitude"); v != nil {
					g.Latitude = *v
				}
				if v := o.f("longitude"); v != nil {
					g.Longitude = *v
				}
			}
			return asyncErr(r, "browserContext.setGeolocation", func() error { return w.c.SetGeolocation(g) })
		}},
		method{"setOffline", func(c goja.FunctionCall) goja.Value {
			w := self(c, "browserContext.setOffline")
			off := c.Argument(0).ToBoolean()
			return asyncErr(r, "browserContext.setOffline", func() error { return w.c.SetOffline(off) })
		}},
	)
}

// tracingW is context.tracing.
type tracingW struct {
	props
	t playwright.Tracing
}

func (r *Runtime) tracingMethods() []method {
	self := func(c goja.FunctionCall, api string) *tracingW { return recv[*tracingW](r, c, api) }
	return []method{
		{"start", func(c goja.FunctionCall) goja.Value {
			w := self(c, "tracing.start")
			o := r.opts(c.Argument(0))
			opt := playwright.TracingStartOptions{Name: o.s("name"), Title: o.s("title"), Screenshots: o.b("screenshots"), Snapshots: o.b("snapshots"), Sources: o.b("sources")}
			return asyncErr(r, "tracing.start", func() error { return w.t.Start(opt) })
		}},
		{"stop", func(c goja.FunctionCall) goja.Value {
			w := self(c, "tracing.stop")
			var path []string
			if p := r.path("tracing.stop", r.opts(c.Argument(0)).s("path"), capability.FSWrite); p != nil {
				path = append(path, *p)
			}
			return asyncErr(r, "tracing.stop", func() error { return w.t.Stop(path...) })
		}},
	}
}

// browserW is a Browser as JS sees it: the shared browser process, whose
// newContext creates contexts that belong to this object and whose close()
// closes them (never the process, which other workers use).
type browserW struct {
	props
	contexts []*contextW
	closed   bool
}

func (r *Runtime) browserProto() *goja.Object {
	return r.p.get(&r.p.browser, "Browser", r.browserMethods)
}

// contextOptions reads browser.newContext's options over the defaults.
func (r *Runtime) contextOptions(base playwright.BrowserNewContextOptions, v goja.Value) playwright.BrowserNewContextOptions {
	o := r.opts(v)
	if o.o == nil {
		return base
	}
	set := func(dst **bool, name string) {
		if b := o.b(name); b != nil {
			*dst = b
		}
	}
	setS := func(dst **string, name string) {
		if s := o.s(name); s != nil {
			*dst = s
		}
	}
	set(&base.AcceptDownloads, "acceptDownloads")
	setS(&base.BaseURL, "baseURL")
	set(&base.BypassCSP, "bypassCSP")
	set(&base.HasTouch, "hasTouch")
	set(&base.IgnoreHttpsErrors, "ignoreHTTPSErrors")
	set(&base.IsMobile, "isMobile")
	set(&base.JavaScriptEnabled, "javaScriptEnabled")
	set(&base.Offline, "offline")
	set(&base.StrictSelectors, "strictSelectors")
	setS(&base.Locale, "locale")
	setS(&base.TimezoneId, "timezoneId")
	setS(&base.UserAgent, "userAgent")
	if f := o.f("deviceScaleFactor"); f != nil {
		base.DeviceScaleFactor = f
	}
	if s := o.s("colorScheme"); s != nil {
		base.ColorScheme = (*playwright.ColorScheme)(s)
	}
	if s := o.s("reducedMotion"); s != nil {
		base.ReducedMotion = (*playwright.ReducedMotion)(s)
	}
	if h := o.headers("extraHTTPHeaders"); h != nil {
		base.ExtraHttpHeaders = h
	}
	if p := o.strs("permissions"); p != nil {
		base.Permissions = p
	}
	if vp := o.val("viewport"); vp != nil {
		if goja.IsNull(vp) {
			base.Viewport, base.NoViewport = nil, playwright.Bool(true)
		} else {
			vo := opts{r: r, o: vp.ToObject(r.rt)}
			base.Viewport = &playwright.Size{Width: int(derefF(vo.f("width"))), Height: int(derefF(vo.f("height")))}
		}
	}
	if g, ok := o.val("geolocation").(*goja.Object); ok {
		gp := opts{r: r, o: g}
		base.Geolocation = &playwright.Geolocation{Latitude: derefF(gp.f("latitude")), Longitude: derefF(gp.f("longitude")), Accuracy: gp.f("accuracy")}
	}
	if hc, ok := o.val("httpCredentials").(*goja.Object); ok {
		hp := opts{r: r, o: hc}
		base.HttpCredentials = &playwright.HttpCredentials{Username: derefS(hp.s("username")), Password: derefS(hp.s("password")), Origin: hp.s("origin")}
	}
	if rv := r.recordVideoOption(o); rv != nil {
		base.RecordVideo = rv
	}
	if sc, ok := o.val("screen").(*goja.Object); ok {
		so := opts{r: r, o: sc}
		base.Screen = &playwright.Size{Width: int(derefF(so.f("width"))), Height: int(derefF(so.f("height")))}
	}
	if ss := o.val("storageState"); ss != nil {
		if s, ok := ss.Export().(string); ok {
			base.StorageStatePath, base.StorageState = r.path("browser.newContext", &s, capability.FSRead), nil
		} else if !goja.IsNull(ss) {
			text, err := r.vm.JSONString(ss)
			if err != nil {
				panic(r.rt.NewTypeError("%s", "browser.newContext: storageState: "+err.Error()))
			}
			var st playwright.OptionalStorageState
			if err := json.Unmarshal([]byte(text), &st); err != nil {
				panic(r.rt.NewTypeError("%s", "browser.newContext: storageState: "+err.Error()))
			}
			base.StorageState, base.StorageStatePath = &st, nil
		}
	}
	return base
}

func derefF(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

func derefS(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// newContext creates a context in the shared browser from JS options.
func (r *Runtime) newContext(api string, b *browserW, v goja.Value, withPage bool) goja.Value {
	host, err := r.getHost()
	if err != nil {
		r.throwError(api, err)
	}
	defaults, err := host.ContextDefaults()
	if err != nil {
		r.throwError(api, err)
	}
	if g, ok := host.(ContextGate); ok {
		if err := g.AllowContext(); err != nil {
			r.throwError(api, err)
		}
	}
	opt := r.contextOptions(defaults, v)
	type made struct {
		c playwright.BrowserContext
		p playwright.Page
	}
	return async(r, api, func() (made, error) {
		br, err := host.Browser(context.Background())
		if err != nil {
			return made{}, err
		}
		if err := prepareVideo(host, opt); err != nil {
			return made{}, err
		}
		c, err := br.NewContext(opt)
		if err != nil {
			return made{}, err
		}
		if err := host.ContextCreated(c); err != nil {
			_ = c.Close()
			return made{}, err
		}
		if !withPage {
			return made{c: c}, nil
		}
		p, err := c.NewPage()
		if err != nil {
			_ = c.Close()
			return made{}, err
		}
		// browser.newPage's context lives as long as its page.
		p.OnClose(func(playwright.Page) { go func() { _ = c.Close() }() })
		return made{c: c, p: p}, nil
	}, func(m made) goja.Value {
		if opt.RecordVideo != nil {
			r.MarkRecording(m.c)
		}
		o := r.wrapContext(m.c, derefS(opt.BaseURL))
		w := o.Export().(*contextW)
		r.own(w)
		if b != nil {
			b.contexts = append(b.contexts, w)
		}
		if withPage {
			return r.pageObj(m.p)
		}
		return o
	})
}

func (r *Runtime) browserMethods() []method {
	self := func(c goja.FunctionCall, api string) *browserW { return recv[*browserW](r, c, api) }
	return []method{
		{"newContext", func(c goja.FunctionCall) goja.Value {
			return r.newContext("browser.newContext", self(c, "browser.newContext"), c.Argument(0), false)
		}},
		{"newPage", func(c goja.FunctionCall) goja.Value {
			return r.newContext("browser.newPage", self(c, "browser.newPage"), c.Argument(0), true)
		}},
		{"contexts", func(c goja.FunctionCall) goja.Value {
			b := self(c, "browser.contexts")
			items := []any{}
			for _, w := range b.contexts {
				if !w.closed.Load() {
					items = append(items, r.objects[w.c])
				}
			}
			return r.rt.NewArray(items...)
		}},
		{"close", func(c goja.FunctionCall) goja.Value {
			b := self(c, "browser.close")
			b.closed = true
			ctxs := b.contexts
			b.contexts = nil
			return asyncErr(r, "browser.close", func() error {
				for _, w := range ctxs {
					w.closeOwned()
				}
				return nil
			})
		}},
		{"isConnected", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(!self(c, "browser.isConnected").closed) }},
		{"version", func(c goja.FunctionCall) goja.Value {
			self(c, "browser.version")
			host, err := r.getHost()
			if err != nil {
				r.throwError("browser.version", err)
			}
			br, err := host.Browser(context.Background())
			if err != nil {
				r.throwError("browser.version", err)
			}
			return r.rt.ToValue(br.Version())
		}},
		{"browserType", func(c goja.FunctionCall) goja.Value {
			self(c, "browser.browserType")
			return r.browserType("chromium")
		}},
	}
}

// browserTypeW is chromium / firefox / webkit of the playwright modules.
type browserTypeW struct {
	props
	name string
}

func (r *Runtime) browserType(name string) goja.Value {
	return r.newObject(r.p.get(&r.p.browserType, "BrowserType", r.browserTypeMethods), &browserTypeW{name: name})
}

func (r *Runtime) browserTypeMethods() []method {
	self := func(c goja.FunctionCall, api string) *browserTypeW { return recv[*browserTypeW](r, c, api) }
	unsupported := func(name, why string) method {
		return method{name, func(c goja.FunctionCall) goja.Value {
			self(c, "browserType."+name)
			p, _, reject := r.rt.NewPromise()
			_ = reject(r.newError("Error", "browserType."+name+": "+why, r.rt.CaptureCallStack(0, nil)))
			return r.rt.ToValue(p)
		}}
	}
	return []method{
		{"name", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "browserType.name").name) }},
		{"executablePath", func(c goja.FunctionCall) goja.Value { self(c, "browserType.executablePath"); return r.rt.ToValue("") }},
		// launch() returns the browser ferridriver manages ([browser] in
		// ferridriver.toml decides how it runs); launch options are ignored.
		{"launch", func(c goja.FunctionCall) goja.Value {
			self(c, "browserType.launch")
			p, resolve, _ := r.rt.NewPromise()
			_ = resolve(r.SharedBrowser())
			return r.rt.ToValue(p)
		}},
		unsupported("launchPersistentContext", "not supported: ferridriver manages the browser; use browser.newContext({ storageState }) or [browser] storageState"),
		unsupported("connect", "not supported: ferridriver manages the browser"),
		unsupported("connectOverCDP", "not supported: ferridriver manages the browser"),
		unsupported("launchServer", "not supported: ferridriver manages the browser"),
	}
}

// scope is what a Page and a BrowserContext both configure.
type scope interface {
	SetDefaultTimeout(timeout float64)
	SetDefaultNavigationTimeout(timeout float64)
	SetExtraHTTPHeaders(headers map[string]string) error
	AddInitScript(script playwright.Script) error
	ExposeFunction(name string, binding playwright.ExposedFunction) error
}

// scopeMethods are the methods a Page and a BrowserContext share, for the
// scope (and its emitter, which keeps the default timeout) found by self.
func (r *Runtime) scopeMethods(kind string, self func(c goja.FunctionCall, api string) (scope, *emitter)) []method {
	return []method{
		{"addInitScript", func(c goja.FunctionCall) goja.Value {
			api := kind + ".addInitScript"
			s, _ := self(c, api)
			script := r.initScript(c.Argument(0), c.Argument(1), api)
			return asyncErr(r, api, func() error { return s.AddInitScript(script) })
		}},
		{"exposeFunction", func(c goja.FunctionCall) goja.Value {
			api := kind + ".exposeFunction"
			s, _ := self(c, api)
			name := c.Argument(0).String()
			fn := r.exposed(c.Argument(1), api)
			return asyncErr(r, api, func() error { return s.ExposeFunction(name, fn) })
		}},
		{"setExtraHTTPHeaders", func(c goja.FunctionCall) goja.Value {
			api := kind + ".setExtraHTTPHeaders"
			s, _ := self(c, api)
			h := opts{r: r, o: r.rt.NewObject()}
			_ = h.o.Set("h", c.Argument(0))
			headers := h.headers("h")
			return asyncErr(r, api, func() error { return s.SetExtraHTTPHeaders(headers) })
		}},
		{"setDefaultTimeout", func(c goja.FunctionCall) goja.Value {
			s, em := self(c, kind+".setDefaultTimeout")
			ms := c.Argument(0).ToFloat()
			s.SetDefaultTimeout(ms)
			em.defaultTimeout = &ms
			return goja.Undefined()
		}},
		{"setDefaultNavigationTimeout", func(c goja.FunctionCall) goja.Value {
			s, _ := self(c, kind+".setDefaultNavigationTimeout")
			s.SetDefaultNavigationTimeout(c.Argument(0).ToFloat())
			return goja.Undefined()
		}},
	}
}
