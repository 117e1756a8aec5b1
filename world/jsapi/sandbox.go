package jsapi

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/sandbox"
)

// The browser API reaches files and the network on behalf of the code
// that calls it, so it asks the same checks as node:fs and fetch
// (jsbridge/sandbox.go), never rules of its own:
//
//   - every path option (route.fulfill, setInputFiles, screenshots,
//     storage state, traces, downloads, scripts added from a file,
//     recordVideo's dir, video.saveAs, the snapshot matchers' baselines
//     and outputs) goes through VM.CheckPath;
//   - page.goto and frame.goto refuse cloud metadata endpoints, and treat
//     a file: URL as a read of its path; a file: page opened by code whose
//     grant is limited keeps its context's other file: loads to that grant
//     (world/sandbox);
//   - the requests the code issues through the browser (APIRequestContext
//     calls: page.request, context.request, request.newContext(); and
//     route.fetch, route.continue/fallback({url})) are checked against
//     VM.RequestPolicy (the running tool's allow.net, cloud metadata
//     endpoints refused for everyone), on every redirect hop.

// path applies the filesystem check to the path option p of api (nil:
// none) and returns the path to give Playwright: absolute and, when a
// grant restricts the code running, with its symlinks resolved. A denial
// throws ERR_ACCESS_DENIED. Loop goroutine only.
func (r *Runtime) path(api string, p *string, access capability.FSAccess) *string {
	if p == nil {
		return nil
	}
	resolved, err := r.vm.CheckPath(*p, access)
	if err != nil {
		panic(r.vm.AccessDenied(api, err))
	}
	return &resolved
}

// navigation checks a URL that code sends a page to (sandbox.Navigation,
// under the running code's filesystem grant) and returns the URL to
// navigate to and the work to do before navigating (nil for none; it
// makes a playwright call, so it runs off the loop). A denial throws
// ERR_ACCESS_DENIED. Loop goroutine only.
func (r *Runtime) navigation(api string, bc playwright.BrowserContext, rawURL, baseURL string) (string, func() error) {
	files, _ := r.vm.FilePolicy()
	target, limit, err := sandbox.Navigation(rawURL, baseURL, r.vm.Dir(), files)
	if err != nil {
		panic(r.vm.AccessDenied(api, err))
	}
	if limit == nil {
		return target, nil
	}
	return target, func() error {
		if bc == nil {
			return errors.New("the page has no browser context")
		}
		return sandbox.Limit(bc, limit)
	}
}

// requestCheck returns the check that every hop of a request the code
// running now issues through the browser must pass (see
// VM.RequestPolicy). Loop goroutine only; the check may run anywhere.
func (r *Runtime) requestCheck() func(rawURL string) error {
	policy, owner := r.vm.RequestPolicy()
	return func(rawURL string) error {
		if err := policy.Check(rawURL); err != nil {
			if owner != "" {
				return fmt.Errorf("%s: %w", owner, err)
			}
			return err
		}
		return nil
	}
}

// requestURL resolves the URL of an APIRequestContext call against the
// context's baseURL, as Playwright does, and checks it. It returns the
// URL to send: the one checked, in canonical form, so that the driver
// cannot read the string otherwise. A relative URL without a base is left
// to the driver (which refuses it). Loop goroutine only.
func (r *Runtime) requestURL(api, rawURL, baseURL string, check func(string) error) string {
	u, err := url.Parse(rawURL)
	if err == nil && !u.IsAbs() {
		if baseURL == "" {
			return rawURL
		}
		b, berr := url.Parse(baseURL)
		if berr != nil {
			return rawURL
		}
		u = b.ResolveReference(u)
	}
	target := rawURL
	if u != nil {
		target = u.String()
	}
	if err := check(target); err != nil {
		panic(r.vm.AccessDenied(api, err))
	}
	return target
}

// redirectStatus are the statuses Playwright's request client follows.
func isRedirect(status int) bool {
	switch status {
	case 301, 302, 303, 307, 308:
		return true
	}
	return false
}

// hop is one request of a redirect chain.
type hop struct {
	url     string
	method  string
	headers map[string]string
	// dropBody: the redirect turned the request into a GET without body.
	dropBody bool
}

// errMaxRedirects is Playwright's message when a chain is too long.
var errMaxRedirects = errors.New("Max redirect count exceeded")

// followChecked issues first and follows its redirects itself (send must
// not follow them: maxRedirects 0), checking every hop with check before
// it is sent, so that a redirect cannot take a request where its first
// URL could not go. It applies Playwright's redirect rules: at most max
// hops (0: return the redirect response), POST after 301/302 and anything
// but GET/HEAD after 303 become a bodiless GET, the cookie header is not
// carried over (the context's cookie jar applies).
func followChecked(first hop, max int, check func(string) error, send func(hop) (playwright.APIResponse, error)) (playwright.APIResponse, error) {
	h := first
	for n := 0; ; n++ {
		resp, err := send(h)
		if err != nil || !isRedirect(resp.Status()) || max == 0 {
			return resp, err
		}
		loc := resp.Headers()["location"]
		if loc == "" {
			return resp, nil
		}
		if n >= max {
			_ = resp.Dispose()
			return nil, errMaxRedirects
		}
		base, err := url.Parse(resp.URL())
		if err != nil {
			base, _ = url.Parse(h.url)
		}
		next, err := url.Parse(loc)
		if err != nil || base == nil {
			_ = resp.Dispose()
			return nil, fmt.Errorf("uri requested responds with an invalid redirect URL: %s", loc)
		}
		nextURL := base.ResolveReference(next).String()
		if err := check(nextURL); err != nil {
			_ = resp.Dispose()
			return nil, fmt.Errorf("redirect to %s refused: %w", nextURL, err)
		}
		status := resp.Status()
		_ = resp.Dispose()
		method := strings.ToUpper(h.method)
		if method == "" {
			method = "GET"
		}
		headers := map[string]string{}
		for k, v := range h.headers {
			if !strings.EqualFold(k, "cookie") {
				headers[k] = v
			}
		}
		if (status == 301 || status == 302) && method == "POST" || status == 303 && method != "GET" && method != "HEAD" {
			method = "GET"
			h.dropBody = true
			for k := range headers {
				switch strings.ToLower(k) {
				case "content-encoding", "content-language", "content-length", "content-location", "content-type":
					delete(headers, k)
				}
			}
		}
		if _, ok := headers["host"]; ok {
			if nu, err := url.Parse(nextURL); err == nil {
				headers["host"] = nu.Host
			}
		}
		h = hop{url: nextURL, method: method, headers: headers, dropBody: h.dropBody}
	}
}

// fetchChecked is an APIRequestContext call (request.get(url), fetch(url
// or Request)) made through followChecked. Loop goroutine only for the
// first check; the returned work runs off the loop.
func (r *Runtime) fetchChecked(api string, w *apiRequestW, target any, o playwright.APIRequestContextFetchOptions) func() (playwright.APIResponse, error) {
	check := r.requestCheck()
	var first string
	switch t := target.(type) {
	case playwright.Request:
		first = t.URL()
		if o.Method == nil {
			m := t.Method()
			o.Method = &m
		}
		if o.Headers == nil {
			o.Headers = t.Headers()
		}
		if o.Data == nil && o.Form == nil && o.Multipart == nil {
			if b, err := t.PostDataBuffer(); err == nil && len(b) > 0 {
				o.Data = b
			}
		}
	default:
		first = fmt.Sprint(target)
	}
	first = r.requestURL(api, first, w.baseURL, check)
	max := 20
	if w.maxRedirects != nil {
		max = *w.maxRedirects
	}
	if o.MaxRedirects != nil {
		max = *o.MaxRedirects
	}
	method := "GET"
	if o.Method != nil {
		method = *o.Method
	}
	return func() (playwright.APIResponse, error) {
		zero := 0
		return followChecked(hop{url: first, method: method, headers: o.Headers}, max, check, func(h hop) (playwright.APIResponse, error) {
			opt := o
			opt.MaxRedirects = &zero
			opt.Method = &h.method
			opt.Headers = h.headers
			if h.dropBody {
				opt.Data, opt.Form, opt.Multipart = nil, nil, nil
			}
			return w.c.Fetch(h.url, opt)
		})
	}
}

// contextOf is the browser context of a route target (page or context).
func contextOf(t routeTarget) playwright.BrowserContext {
	switch v := t.(type) {
	case playwright.BrowserContext:
		return v
	case playwright.Page:
		return v.Context()
	}
	return nil
}

// checkRouteOn applies to route.continue and route.fallback: a URL override
// is a request the code issues (checked as route.fetch's), and a file:
// load let through must pass the file checks of its context, since the
// code's own route runs before the one fileroute put on the context.
// Loop goroutine only.
func (r *Runtime) checkRouteOn(w *routeW, api string, override *string) {
	if override != nil {
		if err := r.requestCheck()(*override); err != nil {
			panic(r.vm.AccessDenied(api, err))
		}
	}
	target := w.rt.Request().URL()
	if override != nil {
		target = *override
	}
	if w.bc != nil && !sandbox.Allows(w.bc, target) {
		panic(r.vm.AccessDenied(api, fmt.Errorf("loading %s is not allowed: the file is outside the folders the filesystem grant that opened this page allows", target)))
	}
}

// routeFetchChecked is route.fetch through followChecked: the request's
// URL (or the override) and every redirect hop pass the code's request
// check. Loop goroutine only; the work runs off the loop.
func (r *Runtime) routeFetchChecked(w *routeW, opt playwright.RouteFetchOptions, maxRedirects *int) func() (playwright.APIResponse, error) {
	check := r.requestCheck()
	first := w.rt.Request().URL()
	if opt.Headers == nil {
		// What route.fetch sends without headers, kept on every hop.
		opt.Headers = w.rt.Request().Headers()
	}
	if opt.URL != nil {
		first = *opt.URL
	}
	first = r.requestURL("route.fetch", first, "", check)
	max := 20
	if maxRedirects != nil {
		max = *maxRedirects
	}
	method := w.rt.Request().Method()
	if opt.Method != nil {
		method = *opt.Method
	}
	return func() (playwright.APIResponse, error) {
		zero := 0
		return followChecked(hop{url: first, method: method, headers: opt.Headers}, max, check, func(h hop) (playwright.APIResponse, error) {
			o := opt
			o.URL, o.Method, o.Headers, o.MaxRedirects = &h.url, &h.method, h.headers, &zero
			if h.dropBody {
				// No body: an empty one, since nil falls back to the
				// intercepted request's.
				o.PostData = ""
			}
			return w.rt.Fetch(o)
		})
	}
}
