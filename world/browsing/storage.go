package browsing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/playwright-community/playwright-go"
)

// The session's storage and network, as @playwright/mcp's storage and
// network groups offer them: cookies, localStorage and sessionStorage of
// the current page's origin, the storage state, mocked routes and the
// offline state. None of it is recorded: no built-in step does it.

// Cookie is a cookie to set (the fields a tool takes).
type Cookie struct {
	Name, Value, Domain, Path, SameSite string
	Expires                             float64
	HTTPOnly, Secure                    bool
}

// Cookies lists the context's cookies, those of domain and path when
// given (either may be "").
func (ss *Session) Cookies(ctx context.Context, name, domain, path string) (string, error) {
	if _, err := ss.current(ctx); err != nil {
		return "", err
	}
	cs, err := ss.bctx.Cookies()
	if err != nil {
		return "", ss.explain(err)
	}
	var b strings.Builder
	for _, c := range cs {
		if (name != "" && c.Name != name) || (domain != "" && !strings.HasSuffix(c.Domain, strings.TrimPrefix(domain, "."))) || (path != "" && !strings.HasPrefix(c.Path, path)) {
			continue
		}
		fmt.Fprintf(&b, "%s=%s (domain %s, path %s", c.Name, c.Value, c.Domain, c.Path)
		if c.HttpOnly {
			b.WriteString(", httpOnly")
		}
		if c.Secure {
			b.WriteString(", secure")
		}
		if c.SameSite != nil {
			fmt.Fprintf(&b, ", sameSite %s", *c.SameSite)
		}
		if c.Expires > 0 {
			fmt.Fprintf(&b, ", expires %.0f", c.Expires)
		}
		b.WriteString(")\n")
	}
	if b.Len() == 0 {
		return "No cookies.", nil
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// SetCookie sets a cookie; without a domain it is the current page's.
func (ss *Session) SetCookie(ctx context.Context, c Cookie) error {
	t, err := ss.current(ctx)
	if err != nil {
		return err
	}
	oc := playwright.OptionalCookie{Name: c.Name, Value: c.Value}
	if c.Domain != "" {
		oc.Domain = playwright.String(c.Domain)
		oc.Path = playwright.String("/")
	} else {
		oc.URL = playwright.String(t.page.URL())
	}
	if c.Path != "" {
		oc.Path = playwright.String(c.Path)
		if oc.URL != nil {
			oc.URL = nil
			u := t.page.URL()
			host := strings.SplitN(strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://"), "/", 2)[0]
			oc.Domain = playwright.String(strings.SplitN(host, ":", 2)[0])
		}
	}
	if c.Expires > 0 {
		oc.Expires = playwright.Float(c.Expires)
	}
	if c.HTTPOnly {
		oc.HttpOnly = playwright.Bool(true)
	}
	if c.Secure {
		oc.Secure = playwright.Bool(true)
	}
	if c.SameSite != "" {
		oc.SameSite = (*playwright.SameSiteAttribute)(playwright.String(c.SameSite))
	}
	if err := ss.bctx.AddCookies([]playwright.OptionalCookie{oc}); err != nil {
		return ss.explain(err)
	}
	return nil
}

// ClearCookies deletes the cookie name, or all cookies when name is "".
func (ss *Session) ClearCookies(ctx context.Context, name string) error {
	if _, err := ss.current(ctx); err != nil {
		return err
	}
	o := playwright.BrowserContextClearCookiesOptions{}
	if name != "" {
		o.Name = name
	}
	if err := ss.bctx.ClearCookies(o); err != nil {
		return ss.explain(err)
	}
	return nil
}

// webStorageJS does op on localStorage or sessionStorage of the current
// page's origin.
const webStorageJS = `([area, op, key, value]) => {
  const s = area === 'session' ? sessionStorage : localStorage;
  switch (op) {
    case 'list': return Object.fromEntries(Object.keys(s).map(k => [k, s.getItem(k)]));
    case 'get': return s.getItem(key);
    case 'set': s.setItem(key, value); return null;
    case 'delete': s.removeItem(key); return null;
    case 'clear': s.clear(); return null;
  }
}`

// WebStorage lists, gets, sets, deletes or clears (op) the items of the
// current page's localStorage (area "local") or sessionStorage
// ("session").
func (ss *Session) WebStorage(ctx context.Context, area, op, key, value string) (string, error) {
	t, err := ss.current(ctx)
	if err != nil {
		return "", err
	}
	v, err := t.page.Evaluate(webStorageJS, []interface{}{area, op, key, value})
	if err != nil {
		return "", ss.explain(err)
	}
	switch op {
	case "list":
		m, _ := v.(map[string]interface{})
		if len(m) == 0 {
			return "No items.", nil
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%v\n", k, m[k])
		}
		return strings.TrimRight(b.String(), "\n"), nil
	case "get":
		if v == nil {
			return fmt.Sprintf("No item %q.", key), nil
		}
		return fmt.Sprint(v), nil
	}
	return "Done.", nil
}

// StorageState returns the context's cookies and local storage as
// Playwright's storage state JSON.
func (ss *Session) StorageState(ctx context.Context) ([]byte, error) {
	if _, err := ss.current(ctx); err != nil {
		return nil, err
	}
	st, err := ss.bctx.StorageState()
	if err != nil {
		return nil, ss.explain(err)
	}
	return json.MarshalIndent(st, "", "  ")
}

// SetStorageState clears the context's cookies and the local storage of
// the origins in state, then restores state (Playwright's storage state
// JSON).
func (ss *Session) SetStorageState(ctx context.Context, state []byte) error {
	t, err := ss.current(ctx)
	if err != nil {
		return err
	}
	var st playwright.StorageState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("not a storage state: %w", err)
	}
	if err := ss.bctx.ClearCookies(); err != nil {
		return ss.explain(err)
	}
	var cookies []playwright.OptionalCookie
	for _, c := range st.Cookies {
		cookies = append(cookies, c.ToOptionalCookie())
	}
	if len(cookies) > 0 {
		if err := ss.bctx.AddCookies(cookies); err != nil {
			return ss.explain(err)
		}
	}
	for _, o := range st.Origins {
		items := map[string]interface{}{}
		for _, kv := range o.LocalStorage {
			items[kv.Name] = kv.Value
		}
		// Local storage is per origin: each is written from a page there.
		p, err := ss.bctx.NewPage()
		if err != nil {
			return ss.explain(err)
		}
		err = p.Route("**/*", func(r playwright.Route) {
			_ = r.Fulfill(playwright.RouteFulfillOptions{Body: "", ContentType: playwright.String("text/html")})
		})
		if err == nil {
			_, err = p.Goto(o.Origin)
		}
		if err == nil {
			_, err = p.Evaluate(`items => { localStorage.clear(); for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }`, items)
		}
		_ = p.Close()
		if err != nil {
			return ss.explain(err)
		}
	}
	ss.syncTabs()
	_ = t
	return nil
}

// Mock is a route that answers requests matching Pattern: with Status,
// Body and ContentType when any is set, else by letting them through with
// Headers ("Name: Value") added and RemoveHeaders left out.
type Mock struct {
	Pattern       string
	Status        int
	Body          string
	ContentType   string
	Headers       []string
	RemoveHeaders []string
}

// Route mocks the requests matching m.Pattern (a glob) in the session's
// context; a pattern routed again replaces its mock.
func (ss *Session) Route(ctx context.Context, m Mock) error {
	if _, err := ss.current(ctx); err != nil {
		return err
	}
	headers := map[string]string{}
	for _, h := range m.Headers {
		k, v, ok := strings.Cut(h, ":")
		if !ok {
			return fmt.Errorf("header %q: want \"Name: Value\"", h)
		}
		headers[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	fulfill := m.Status != 0 || m.Body != "" || m.ContentType != ""
	handler := func(r playwright.Route) {
		if fulfill {
			o := playwright.RouteFulfillOptions{Body: m.Body, Headers: headers}
			if m.Status != 0 {
				o.Status = playwright.Int(m.Status)
			}
			if m.ContentType != "" {
				o.ContentType = playwright.String(m.ContentType)
			}
			_ = r.Fulfill(o)
			return
		}
		h, err := r.Request().AllHeaders()
		if err != nil {
			h = r.Request().Headers()
		}
		for _, name := range m.RemoveHeaders {
			for k := range h {
				if strings.EqualFold(k, strings.TrimSpace(name)) {
					delete(h, k)
				}
			}
		}
		for k, v := range headers {
			h[k] = v
		}
		_ = r.Continue(playwright.RouteContinueOptions{Headers: h})
	}
	if ss.routes == nil {
		ss.routes = map[string]Mock{}
	}
	if _, ok := ss.routes[m.Pattern]; ok {
		_ = ss.bctx.Unroute(m.Pattern)
	}
	if err := ss.bctx.Route(m.Pattern, handler); err != nil {
		return ss.explain(err)
	}
	ss.routes[m.Pattern] = m
	return nil
}

// Routes lists the session's mocks.
func (ss *Session) Routes() []Mock {
	var out []Mock
	for _, m := range ss.routes {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pattern < out[j].Pattern })
	return out
}

// Unroute removes the mock of pattern, or all mocks when pattern is "".
func (ss *Session) Unroute(ctx context.Context, pattern string) error {
	if _, err := ss.current(ctx); err != nil {
		return err
	}
	if pattern == "" {
		ss.routes = nil
		return ss.explain(ss.bctx.UnrouteAll())
	}
	if _, ok := ss.routes[pattern]; !ok {
		return errors.New("no route " + pattern + " (browser_route_list lists them)")
	}
	delete(ss.routes, pattern)
	return ss.explain(ss.bctx.Unroute(pattern))
}

// SetOffline sets the context offline or back online.
func (ss *Session) SetOffline(ctx context.Context, offline bool) error {
	if _, err := ss.current(ctx); err != nil {
		return err
	}
	return ss.explain(ss.bctx.SetOffline(offline))
}

// StartTracing starts a Playwright trace of the session's context
// (screenshots and DOM snapshots).
func (ss *Session) StartTracing(ctx context.Context) error {
	if _, err := ss.current(ctx); err != nil {
		return err
	}
	return ss.explain(ss.bctx.Tracing().Start(playwright.TracingStartOptions{Screenshots: playwright.Bool(true), Snapshots: playwright.Bool(true)}))
}

// StopTracing stops the trace and writes it to path (a zip that
// `npx playwright show-trace` opens).
func (ss *Session) StopTracing(ctx context.Context, path string) error {
	if _, err := ss.current(ctx); err != nil {
		return err
	}
	return ss.explain(ss.bctx.Tracing().Stop(path))
}

// highlightJS draws (or, with show false, removes) an overlay around the
// element, named by key.
const highlightJS = `(el, [key, style, show]) => {
  for (const d of document.querySelectorAll('[data-ferridriver-highlight]'))
    if (!key || d.dataset.ferridriverHighlight === key) d.remove();
  if (!show) return;
  const r = el.getBoundingClientRect();
  const d = document.createElement('div');
  d.dataset.ferridriverHighlight = key;
  d.style.cssText = 'position:absolute;left:' + (r.x + scrollX) + 'px;top:' + (r.y + scrollY) + 'px;width:' + r.width + 'px;height:' + r.height +
    'px;outline:2px solid #e0245e;pointer-events:none;z-index:2147483647;' + (style || '');
  document.documentElement.appendChild(d);
}`

// Highlight shows (show) or hides an overlay around the element tg;
// hiding with no element removes every overlay.
func (ss *Session) Highlight(ctx context.Context, tg Target, style string, show bool) error {
	t, err := ss.current(ctx)
	if err != nil {
		return err
	}
	if tg.empty() {
		if show {
			return errors.New("name the element to highlight (target)")
		}
		_, err := t.page.Evaluate(`() => { for (const d of document.querySelectorAll('[data-ferridriver-highlight]')) d.remove(); }`)
		return ss.explain(err)
	}
	loc, rt, err := ss.locate(t, tg)
	if err != nil {
		return err
	}
	_, err = loc.Evaluate(highlightJS, []interface{}{rt.sel, style, show})
	if err != nil {
		return errors.New(agentMessage(err, label(tg, rt)))
	}
	return nil
}
