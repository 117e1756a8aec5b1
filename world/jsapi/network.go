package jsapi

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/sandbox"
)

// requestW is a network Request.
type requestW struct {
	props
	q playwright.Request
}

func (r *Runtime) requestObj(q playwright.Request) goja.Value {
	if q == nil {
		return goja.Null()
	}
	return r.newObject(r.p.get(&r.p.request, "Request", r.requestMethods), &requestW{q: q})
}

func (r *Runtime) requestMethods() []method {
	self := func(c goja.FunctionCall, api string) *requestW { return recv[*requestW](r, c, api) }
	return []method{
		{"url", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "request.url").q.URL()) }},
		{"method", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "request.method").q.Method()) }},
		{"resourceType", func(c goja.FunctionCall) goja.Value {
			return r.rt.ToValue(self(c, "request.resourceType").q.ResourceType())
		}},
		{"isNavigationRequest", func(c goja.FunctionCall) goja.Value {
			return r.rt.ToValue(self(c, "request.isNavigationRequest").q.IsNavigationRequest())
		}},
		{"headers", func(c goja.FunctionCall) goja.Value { return r.headersOf(self(c, "request.headers").q.Headers()) }},
		{"allHeaders", func(c goja.FunctionCall) goja.Value {
			q := self(c, "request.allHeaders").q
			return async(r, "request.allHeaders", q.AllHeaders, r.headersOf)
		}},
		{"headerValue", func(c goja.FunctionCall) goja.Value {
			q := self(c, "request.headerValue").q
			name := c.Argument(0).String()
			return async(r, "request.headerValue", func() (*string, error) { return headerValue(q.AllHeaders, name) }, r.strOrNull)
		}},
		{"postData", func(c goja.FunctionCall) goja.Value {
			q := self(c, "request.postData").q
			b, err := q.PostDataBuffer()
			if err != nil || b == nil {
				return goja.Null()
			}
			return r.rt.ToValue(string(b))
		}},
		{"postDataBuffer", func(c goja.FunctionCall) goja.Value {
			b, err := self(c, "request.postDataBuffer").q.PostDataBuffer()
			if err != nil || b == nil {
				return goja.Null()
			}
			return r.buffer(b)
		}},
		{"postDataJSON", func(c goja.FunctionCall) goja.Value {
			b, err := self(c, "request.postDataJSON").q.PostDataBuffer()
			if err != nil || b == nil {
				return goja.Null()
			}
			return r.mustJSON(string(b))
		}},
		{"frame", func(c goja.FunctionCall) goja.Value { return r.frameObj(self(c, "request.frame").q.Frame()) }},
		{"redirectedFrom", func(c goja.FunctionCall) goja.Value {
			return r.requestObj(self(c, "request.redirectedFrom").q.RedirectedFrom())
		}},
		{"redirectedTo", func(c goja.FunctionCall) goja.Value {
			return r.requestObj(self(c, "request.redirectedTo").q.RedirectedTo())
		}},
		{"failure", func(c goja.FunctionCall) goja.Value {
			err := self(c, "request.failure").q.Failure()
			if err == nil {
				return goja.Null()
			}
			o := r.rt.NewObject()
			_ = o.Set("errorText", err.Error())
			return o
		}},
		{"response", func(c goja.FunctionCall) goja.Value {
			q := self(c, "request.response").q
			return async(r, "request.response", q.Response, r.responseObj)
		}},
		{"timing", func(c goja.FunctionCall) goja.Value {
			return r.jsonOf(self(c, "request.timing").q.Timing())
		}},
	}
}

// headerValue looks a header up case-insensitively (nil: absent).
func headerValue(all func() (map[string]string, error), name string) (*string, error) {
	h, err := all()
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		if strings.EqualFold(k, name) {
			return &v, nil
		}
	}
	return nil, nil
}

func (r *Runtime) strOrNull(s *string) goja.Value {
	if s == nil {
		return goja.Null()
	}
	return r.rt.ToValue(*s)
}

// responseW is a network Response.
type responseW struct {
	props
	s playwright.Response
}

func (r *Runtime) responseObj(s playwright.Response) goja.Value {
	if s == nil {
		return goja.Null()
	}
	return r.newObject(r.p.get(&r.p.response, "Response", r.responseMethods), &responseW{s: s})
}

func (r *Runtime) responseMethods() []method {
	self := func(c goja.FunctionCall, api string) *responseW { return recv[*responseW](r, c, api) }
	return []method{
		{"url", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "response.url").s.URL()) }},
		{"status", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "response.status").s.Status()) }},
		{"statusText", func(c goja.FunctionCall) goja.Value {
			return r.rt.ToValue(self(c, "response.statusText").s.StatusText())
		}},
		{"ok", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "response.ok").s.Ok()) }},
		{"headers", func(c goja.FunctionCall) goja.Value { return r.headersOf(self(c, "response.headers").s.Headers()) }},
		{"allHeaders", func(c goja.FunctionCall) goja.Value {
			s := self(c, "response.allHeaders").s
			return async(r, "response.allHeaders", s.AllHeaders, r.headersOf)
		}},
		{"headerValue", func(c goja.FunctionCall) goja.Value {
			s := self(c, "response.headerValue").s
			name := c.Argument(0).String()
			return async(r, "response.headerValue", func() (*string, error) { return headerValue(s.AllHeaders, name) }, r.strOrNull)
		}},
		{"text", func(c goja.FunctionCall) goja.Value {
			s := self(c, "response.text").s
			return async(r, "response.text", s.Text, r.strV)
		}},
		{"body", func(c goja.FunctionCall) goja.Value {
			s := self(c, "response.body").s
			return async(r, "response.body", s.Body, r.buffer)
		}},
		{"json", func(c goja.FunctionCall) goja.Value {
			s := self(c, "response.json").s
			return async(r, "response.json", s.Text, r.mustJSON)
		}},
		{"finished", func(c goja.FunctionCall) goja.Value {
			s := self(c, "response.finished").s
			return async(r, "response.finished", func() (struct{}, error) { return struct{}{}, s.Finished() }, func(struct{}) goja.Value { return goja.Null() })
		}},
		{"request", func(c goja.FunctionCall) goja.Value { return r.requestObj(self(c, "response.request").s.Request()) }},
		{"frame", func(c goja.FunctionCall) goja.Value { return r.frameObj(self(c, "response.frame").s.Frame()) }},
		{"fromServiceWorker", func(c goja.FunctionCall) goja.Value {
			return r.rt.ToValue(self(c, "response.fromServiceWorker").s.FromServiceWorker())
		}},
	}
}

// mustJSON parses a JSON body, throwing a SyntaxError on bad JSON (as
// JSON.parse does, also on an empty body, which FromJSON reads as
// undefined).
func (r *Runtime) mustJSON(text string) goja.Value {
	if text == "" {
		text = " "
	}
	return r.vm.FromJSON(text)
}

// routeTarget is what page.route and context.route register on
// (playwright.Page and playwright.BrowserContext both are).
type routeTarget interface {
	Route(url interface{}, handler func(playwright.Route), times ...int) error
	Unroute(url interface{}, handler ...func(playwright.Route)) error
}

var (
	_ routeTarget = playwright.Page(nil)
	_ routeTarget = playwright.BrowserContext(nil)
)

// routeSet keeps a page's or context's route registrations, so unroute can
// target one handler (playwright-go tells handlers apart by code pointer,
// which all of ours share).
type routeSet struct {
	target routeTarget
	regs   []*routeReg
}

type routeReg struct {
	raw     goja.Value // the url argument, for unroute
	pwURL   any        // what playwright-go got
	handler goja.Value
	times   int
	goFn    func(playwright.Route)
}

var routeSeq atomic.Int64

func (r *Runtime) routeMethods(kind string, set func(c goja.FunctionCall, api string) *routeSet) []method {
	return []method{
		{"route", func(c goja.FunctionCall) goja.Value {
			api := kind + ".route"
			s := set(c, api)
			fn, ok := goja.AssertFunction(c.Argument(1))
			if !ok {
				panic(r.rt.NewTypeError("%s", api+": expected a handler function (route, request) => ..."))
			}
			times := 0
			if t := r.opts(c.Argument(2)).i("times"); t != nil {
				times = *t
			}
			m := r.urlMatcher(c.Argument(0), "")
			var pwURL any
			jsCheck := false
			switch {
			case m.all:
				pwURL = "**/*"
			case m.glob != "":
				pwURL = m.glob
			case m.re != nil && !m.fn:
				pwURL = m.re
			default:
				// A predicate, or a RegExp RE2 cannot compile: intercept
				// everything this registration could match and let the
				// handler test the URL in JS, falling back otherwise. The
				// pattern is unique so unroute can find it again.
				pwURL = regexp.MustCompile(fmt.Sprintf("(?:ferridriver-route-%d){0}", routeSeq.Add(1)))
				jsCheck = true
			}
			ctx := r.loop.Context()
			t := s.target
			reg := &routeReg{raw: c.Argument(0), pwURL: pwURL, handler: c.Argument(1), times: times}
			reg.goFn = func(rt playwright.Route) {
				r.loop.Enqueue(ctx, func() {
					if jsCheck && !m.matches(rt.Request().URL()) {
						go func() { _ = rt.Fallback() }()
						return
					}
					ro := r.newObject(r.p.get(&r.p.route, "Route", r.routeObjMethods), &routeW{rt: rt, bc: contextOf(t)})
					v, err := fn(goja.Undefined(), ro, r.requestObj(rt.Request()))
					failed := func(reason goja.Value) {
						r.recordUncaught(api+" handler", reason)
						go func() { _ = rt.Fallback() }()
					}
					if err != nil {
						failed(exceptionValue(r, err))
						return
					}
					r.whenSettled(v, func(_ goja.Value, rejected goja.Value) {
						if rejected != nil {
							failed(rejected)
						}
					})
				})
			}
			s.regs = append(s.regs, reg)
			var tm []int
			if times > 0 {
				tm = []int{times}
			}
			return asyncErr(r, api, func() error { return t.Route(pwURL, reg.goFn, tm...) })
		}},
		{"unroute", func(c goja.FunctionCall) goja.Value {
			api := kind + ".unroute"
			s := set(c, api)
			url, handler := c.Argument(0), c.Argument(1)
			var drop, keep []*routeReg
			for _, reg := range s.regs {
				sameURL := reg.raw.StrictEquals(url) || sameRegexp(reg.raw, url)
				if sameURL && (isNullish(handler) || reg.handler.StrictEquals(handler)) {
					drop = append(drop, reg)
				} else {
					keep = append(keep, reg)
				}
			}
			s.regs = keep
			t := s.target
			return asyncErr(r, api, func() error {
				seen := map[any]bool{}
				for _, reg := range drop {
					if seen[reg.pwURL] {
						continue
					}
					seen[reg.pwURL] = true
					if err := t.Unroute(reg.pwURL); err != nil {
						return err
					}
					// Unroute removed every registration with this URL:
					// put back the ones that stay.
					for _, k := range keep {
						if k.pwURL == reg.pwURL {
							var tm []int
							if k.times > 0 {
								tm = []int{k.times}
							}
							if err := t.Route(k.pwURL, k.goFn, tm...); err != nil {
								return err
							}
						}
					}
				}
				return nil
			})
		}},
		{"unrouteAll", func(c goja.FunctionCall) goja.Value {
			api := kind + ".unrouteAll"
			s := set(c, api)
			s.regs = nil
			var behavior *playwright.UnrouteBehavior
			if b := r.opts(c.Argument(0)).s("behavior"); b != nil {
				behavior = (*playwright.UnrouteBehavior)(b)
			}
			target := s.target
			return asyncErr(r, api, func() error {
				switch t := target.(type) {
				case playwright.Page:
					return t.UnrouteAll(playwright.PageUnrouteAllOptions{Behavior: behavior})
				case playwright.BrowserContext:
					if err := t.UnrouteAll(playwright.BrowserContextUnrouteAllOptions{Behavior: behavior}); err != nil {
						return err
					}
					// The sandbox's own file route stays.
					return sandbox.Restore(t)
				}
				return nil
			})
		}},
	}
}

func sameRegexp(a, b goja.Value) bool {
	as, af, ok1 := regexpOf(a)
	bs, bf, ok2 := regexpOf(b)
	return ok1 && ok2 && as == bs && af == bf
}

// routeW is a Route given to a route handler.
type routeW struct {
	props
	rt playwright.Route
	bc playwright.BrowserContext // the context of the route's page
}

func (r *Runtime) routeObjMethods() []method {
	self := func(c goja.FunctionCall, api string) *routeW { return recv[*routeW](r, c, api) }
	overrides := func(o opts) (headers map[string]string, method, url *string, post any) {
		if v := o.val("postData"); v != nil {
			if b, ok := r.bytesOf(v); ok {
				post = b
			} else {
				s, _ := r.vm.JSONString(v)
				post = s
			}
		}
		return o.headers("headers"), o.s("method"), o.s("url"), post
	}
	return []method{
		{"request", func(c goja.FunctionCall) goja.Value { return r.requestObj(self(c, "route.request").rt.Request()) }},
		{"fulfill", func(c goja.FunctionCall) goja.Value {
			w := self(c, "route.fulfill")
			o := r.opts(c.Argument(0))
			opt := playwright.RouteFulfillOptions{Status: o.i("status"), Headers: o.headers("headers"), ContentType: o.s("contentType"), Path: r.path("route.fulfill", o.s("path"), capability.FSRead)}
			if b := o.val("body"); b != nil {
				if bs, ok := r.bytesOf(b); ok {
					opt.Body = bs
				} else {
					opt.Body = b.String()
				}
			}
			if j := o.val("json"); j != nil {
				s, err := r.vm.JSONString(j)
				if err != nil {
					panic(r.rt.NewTypeError("%s", "route.fulfill: json: "+err.Error()))
				}
				opt.Body = s
				if opt.ContentType == nil {
					opt.ContentType = playwright.String("application/json")
				}
			}
			if resp, ok := o.val("response").(*goja.Object); ok {
				if ar, ok := resp.Export().(*apiResponseW); ok {
					opt.Response = ar.s
					if opt.Body != nil || opt.Path != nil {
						// The response gives the status and headers, the
						// options the body: its content-length must go.
						if opt.Status == nil {
							st := ar.s.Status()
							opt.Status = &st
						}
						if opt.Headers == nil {
							opt.Headers = map[string]string{}
							for k, v := range ar.s.Headers() {
								if !strings.EqualFold(k, "content-length") {
									opt.Headers[k] = v
								}
							}
						}
						opt.Response = nil
					}
				}
			}
			return asyncErr(r, "route.fulfill", func() error { return w.rt.Fulfill(opt) })
		}},
		{"continue", func(c goja.FunctionCall) goja.Value {
			w := self(c, "route.continue")
			h, m, u, post := overrides(r.opts(c.Argument(0)))
			r.checkRouteOn(w, "route.continue", u)
			opt := playwright.RouteContinueOptions{Headers: h, Method: m, URL: u, PostData: post}
			return asyncErr(r, "route.continue", func() error { return w.rt.Continue(opt) })
		}},
		{"fallback", func(c goja.FunctionCall) goja.Value {
			w := self(c, "route.fallback")
			h, m, u, post := overrides(r.opts(c.Argument(0)))
			r.checkRouteOn(w, "route.fallback", u)
			opt := playwright.RouteFallbackOptions{Headers: h, Method: m, URL: u, PostData: post}
			return asyncErr(r, "route.fallback", func() error { return w.rt.Fallback(opt) })
		}},
		{"abort", func(c goja.FunctionCall) goja.Value {
			w := self(c, "route.abort")
			var code []string
			if v := c.Argument(0); !isNullish(v) {
				code = append(code, v.String())
			}
			return asyncErr(r, "route.abort", func() error { return w.rt.Abort(code...) })
		}},
		{"fetch", func(c goja.FunctionCall) goja.Value {
			w := self(c, "route.fetch")
			o := r.opts(c.Argument(0))
			h, m, u, post := overrides(o)
			opt := playwright.RouteFetchOptions{Headers: h, Method: m, URL: u, PostData: post, Timeout: r.timeout(o, nil)}
			return async(r, "route.fetch", r.routeFetchChecked(w, opt, o.i("maxRedirects")), r.apiResponseObj)
		}},
	}
}

// apiRequestW is an APIRequestContext (this.request, page.request,
// request.newContext()).
type apiRequestW struct {
	props
	c playwright.APIRequestContext
	// baseURL and maxRedirects are the context's defaults (request.newContext
	// options, or the browser context's baseURL): the sandbox resolves and
	// follows requests itself (see fetchChecked).
	baseURL      string
	maxRedirects *int
}

func (w *apiRequestW) closeOwned() { _ = w.c.Dispose() }

func (r *Runtime) apiRequestMethods() []method {
	self := func(c goja.FunctionCall, api string) *apiRequestW { return recv[*apiRequestW](r, c, api) }
	verb := func(name, httpMethod string) method {
		return method{name, func(c goja.FunctionCall) goja.Value {
			api := "apiRequestContext." + name
			w := self(c, api)
			u := c.Argument(0)
			o := r.fetchOptions(r.opts(c.Argument(1)))
			if httpMethod != "" {
				o.Method = &httpMethod
			}
			var target any
			if obj, ok := u.(*goja.Object); ok {
				if q, ok := obj.Export().(*requestW); ok {
					target = q.q
				}
			}
			if target == nil {
				target = u.String()
			}
			return async(r, api, r.fetchChecked(api, w, target, o), r.apiResponseObj)
		}}
	}
	return []method{
		verb("fetch", ""), verb("get", "GET"), verb("post", "POST"), verb("put", "PUT"),
		verb("patch", "PATCH"), verb("delete", "DELETE"), verb("head", "HEAD"),
		{"dispose", func(c goja.FunctionCall) goja.Value {
			w := self(c, "apiRequestContext.dispose")
			return asyncErr(r, "apiRequestContext.dispose", func() error { return w.c.Dispose() })
		}},
		{"storageState", func(c goja.FunctionCall) goja.Value {
			w := self(c, "apiRequestContext.storageState")
			var path []string
			if p := r.path("apiRequestContext.storageState", r.opts(c.Argument(0)).s("path"), capability.FSWrite); p != nil {
				path = append(path, *p)
			}
			return async(r, "apiRequestContext.storageState", func() (any, error) { return saveStorageState(w.c.StorageState, path) }, r.jsonOf)
		}},
	}
}

// fetchOptions reads {data, form, multipart, headers, params, method,
// timeout, failOnStatusCode, ignoreHTTPSErrors, maxRedirects, maxRetries}.
func (r *Runtime) fetchOptions(o opts) playwright.APIRequestContextFetchOptions {
	out := playwright.APIRequestContextFetchOptions{Headers: o.headers("headers"), Method: o.s("method"), Timeout: r.timeout(o, nil),
		FailOnStatusCode: o.b("failOnStatusCode"), IgnoreHttpsErrors: o.b("ignoreHTTPSErrors"), MaxRedirects: o.i("maxRedirects"), MaxRetries: o.i("maxRetries")}
	if d := o.val("data"); d != nil {
		if s, ok := d.Export().(string); ok {
			out.Data = s
		} else if b, ok := r.bytesOf(d); ok {
			out.Data = b
		} else {
			out.Data = r.argOf(d)
		}
	}
	if f, ok := o.val("form").(*goja.Object); ok {
		m := map[string]any{}
		for _, k := range f.Keys() {
			m[k] = f.Get(k).String()
		}
		out.Form = m
	}
	if f, ok := o.val("multipart").(*goja.Object); ok {
		m := map[string]any{}
		for _, k := range f.Keys() {
			v := f.Get(k)
			if fo, ok := v.(*goja.Object); ok && fo.ClassName() == "Object" && fo.Get("buffer") != nil && !goja.IsUndefined(fo.Get("buffer")) {
				fp := opts{r: r, o: fo}
				b, _ := r.bytesOf(fo.Get("buffer"))
				file := playwright.InputFile{Buffer: b}
				if n := fp.s("name"); n != nil {
					file.Name = *n
				}
				if mt := fp.s("mimeType"); mt != nil {
					file.MimeType = *mt
				}
				m[k] = file
				continue
			}
			m[k] = v.String()
		}
		out.Multipart = m
	}
	if p, ok := o.val("params").(*goja.Object); ok {
		m := map[string]any{}
		for _, k := range p.Keys() {
			m[k] = p.Get(k).String()
		}
		out.Params = m
	}
	return out
}

// jsonOf converts a Go value through JSON (storage state, timing...).
func (r *Runtime) jsonOf(v any) goja.Value {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return r.vm.FromJSON(string(b))
}

// apiResponseW is an APIResponse.
type apiResponseW struct {
	props
	s playwright.APIResponse
}

func (r *Runtime) apiResponseObj(s playwright.APIResponse) goja.Value {
	return r.newObject(r.p.get(&r.p.apiResponse, "APIResponse", r.apiResponseMethods), &apiResponseW{s: s})
}

func (r *Runtime) apiResponseMethods() []method {
	self := func(c goja.FunctionCall, api string) *apiResponseW { return recv[*apiResponseW](r, c, api) }
	return []method{
		{"url", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "apiResponse.url").s.URL()) }},
		{"status", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "apiResponse.status").s.Status()) }},
		{"statusText", func(c goja.FunctionCall) goja.Value {
			return r.rt.ToValue(self(c, "apiResponse.statusText").s.StatusText())
		}},
		{"ok", func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(self(c, "apiResponse.ok").s.Ok()) }},
		{"headers", func(c goja.FunctionCall) goja.Value { return r.headersOf(self(c, "apiResponse.headers").s.Headers()) }},
		{"headersArray", func(c goja.FunctionCall) goja.Value {
			return r.jsonOf(self(c, "apiResponse.headersArray").s.HeadersArray())
		}},
		{"text", func(c goja.FunctionCall) goja.Value {
			s := self(c, "apiResponse.text").s
			return async(r, "apiResponse.text", s.Text, r.strV)
		}},
		{"body", func(c goja.FunctionCall) goja.Value {
			s := self(c, "apiResponse.body").s
			return async(r, "apiResponse.body", s.Body, r.buffer)
		}},
		{"json", func(c goja.FunctionCall) goja.Value {
			s := self(c, "apiResponse.json").s
			return async(r, "apiResponse.json", s.Text, r.mustJSON)
		}},
		{"dispose", func(c goja.FunctionCall) goja.Value {
			s := self(c, "apiResponse.dispose").s
			return asyncErr(r, "apiResponse.dispose", s.Dispose)
		}},
	}
}

// newAPIRequestContext implements request.newContext(options) of
// @playwright/test.
func (r *Runtime) newAPIRequestContext(c goja.FunctionCall) goja.Value {
	o := r.opts(c.Argument(0))
	opt := playwright.APIRequestNewContextOptions{BaseURL: o.s("baseURL"), ExtraHttpHeaders: o.headers("extraHTTPHeaders"),
		IgnoreHttpsErrors: o.b("ignoreHTTPSErrors"), StorageStatePath: r.path("request.newContext", o.s("storageState"), capability.FSRead), Timeout: o.f("timeout"),
		UserAgent: o.s("userAgent"), FailOnStatusCode: o.b("failOnStatusCode"), MaxRedirects: o.i("maxRedirects")}
	if hc, ok := o.val("httpCredentials").(*goja.Object); ok {
		hp := opts{r: r, o: hc}
		cred := &playwright.HttpCredentials{Origin: hp.s("origin")}
		if u := hp.s("username"); u != nil {
			cred.Username = *u
		}
		if p := hp.s("password"); p != nil {
			cred.Password = *p
		}
		opt.HttpCredentials = cred
	}
	host, err := r.getHost()
	if err != nil {
		r.throwError("request.newContext", err)
	}
	if opt.BaseURL == nil {
		if base := r.hostBaseURL(); base != "" {
			opt.BaseURL = &base
		}
	}
	return async(r, "request.newContext", func() (playwright.APIRequestContext, error) {
		pw, err := host.Playwright(context.Background())
		if err != nil {
			return nil, err
		}
		return pw.Request.NewContext(opt)
	}, func(ac playwright.APIRequestContext) goja.Value {
		w := &apiRequestW{c: ac, maxRedirects: opt.MaxRedirects}
		if opt.BaseURL != nil {
			w.baseURL = *opt.BaseURL
		}
		r.own(w)
		return r.newObject(r.p.get(&r.p.apiRequest, "APIRequestContext", r.apiRequestMethods), w)
	})
}
