package sandbox

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// OriginFilter says which origins the browser's pages may request, as
// @playwright/mcp's --allowed-origins and --blocked-origins do: a request
// to a blocked origin is aborted; when the allow-list is not empty, so is
// a request to any origin it does not list. The blocklist is evaluated
// first. It applies through a route on every context, so it binds the
// pages' own requests (navigations, frames, scripts, fetch) but is not a
// security boundary: code that routes the page itself (page.route with
// route.continue) goes around it, and it does not see redirects.
//
// An entry is a full origin ("https://example.com:8080"; without a port,
// the scheme's default), an origin with any port ("http://localhost:*"),
// or a bare host ("example.com": any scheme, any port).
type OriginFilter struct {
	allowed, blocked []originPattern
}

type originPattern struct {
	raw    string
	scheme string // "" for a bare host: any
	host   string
	port   string // "" for a bare host or "*": any
}

// ParseOriginFilter validates the two lists (nil, nil: no filter). An
// entry that is not an origin, an origin with a port wildcard or a bare
// host is an error naming it.
func ParseOriginFilter(allowed, blocked []string) (*OriginFilter, error) {
	f := &OriginFilter{}
	for _, l := range []struct {
		name    string
		entries []string
		dst     *[]originPattern
	}{{"allowed origin", allowed, &f.allowed}, {"blocked origin", blocked, &f.blocked}} {
		for _, e := range l.entries {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			p, err := parseOrigin(e)
			if err != nil {
				return nil, fmt.Errorf("%s %q: %w", l.name, e, err)
			}
			*l.dst = append(*l.dst, p)
		}
	}
	return f, nil
}

func parseOrigin(e string) (originPattern, error) {
	if !strings.Contains(e, "://") {
		if strings.ContainsAny(e, "/?#@ ") {
			return originPattern{}, fmt.Errorf("want an origin (https://example.com:8080, http://localhost:*) or a host (example.com)")
		}
		return originPattern{raw: e, host: strings.ToLower(strings.TrimSuffix(e, "."))}, nil
	}
	anyPort := strings.HasSuffix(e, ":*")
	u, err := url.Parse(strings.TrimSuffix(e, ":*"))
	if err != nil {
		return originPattern{}, fmt.Errorf("cannot be parsed: %v", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return originPattern{}, fmt.Errorf("an origin's scheme is http or https, not %q", u.Scheme)
	}
	if u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return originPattern{}, fmt.Errorf("want an origin: scheme, host and optional port, without a path")
	}
	p := originPattern{raw: e, scheme: u.Scheme, host: strings.ToLower(u.Hostname()), port: u.Port()}
	switch {
	case anyPort:
		p.port = ""
	case p.port == "":
		p.port = defaultPort(u.Scheme)
	}
	return p, nil
}

func defaultPort(scheme string) string {
	if scheme == "https" {
		return "443"
	}
	return "80"
}

func (p originPattern) matches(u *url.URL) bool {
	if p.scheme != "" && p.scheme != u.Scheme {
		return false
	}
	if strings.ToLower(strings.TrimSuffix(u.Hostname(), ".")) != p.host {
		return false
	}
	if p.scheme == "" || p.port == "" {
		return true
	}
	port := u.Port()
	if port == "" {
		port = defaultPort(u.Scheme)
	}
	return port == p.port
}

// Empty reports whether the filter lets every origin through.
func (f *OriginFilter) Empty() bool { return f == nil || len(f.allowed) == 0 && len(f.blocked) == 0 }

// Check returns why a request to rawURL is blocked, or nil. Only http and
// https URLs are filtered: file: loads follow the filesystem grant.
func (f *OriginFilter) Check(rawURL string) error {
	if f.Empty() {
		return nil
	}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil
	}
	for _, p := range f.blocked {
		if p.matches(u) {
			return fmt.Errorf("%s://%s is blocked by the blocked origin %q", u.Scheme, u.Host, p.raw)
		}
	}
	if len(f.allowed) == 0 {
		return nil
	}
	for _, p := range f.allowed {
		if p.matches(u) {
			return nil
		}
	}
	raws := make([]string, len(f.allowed))
	for i, p := range f.allowed {
		raws[i] = p.raw
	}
	return fmt.Errorf("%s://%s is not among the allowed origins (%s)", u.Scheme, u.Host, strings.Join(raws, "; "))
}

var httpURL = regexp.MustCompile(`^https?:`)

// Install puts the filter's route on c (nothing for an empty filter).
func (f *OriginFilter) Install(c playwright.BrowserContext) error {
	if f.Empty() {
		return nil
	}
	return c.Route(httpURL, func(r playwright.Route) {
		if f.Check(r.Request().URL()) != nil {
			_ = r.Abort("blockedbyclient")
			return
		}
		_ = r.Fallback()
	})
}

// RefuseMetadata puts on c a route that aborts every request to a cloud
// metadata endpoint: for the contexts of a browser ferridriver did not
// launch, whose resolver its launch flags cannot reach.
func RefuseMetadata(c playwright.BrowserContext) error {
	return c.Route(metadataURL, func(r playwright.Route) { _ = r.Abort("addressunreachable") })
}

// metadataURL matches an http(s) URL whose host is a cloud metadata
// endpoint (capability.MetadataHostForms).
var metadataURL = func() *regexp.Regexp {
	var alts []string
	for _, h := range capability.MetadataHostForms() {
		if strings.Contains(h, ":") {
			h = "[" + h + "]"
		}
		alts = append(alts, regexp.QuoteMeta(h))
	}
	return regexp.MustCompile(`(?i)^https?://(` + strings.Join(alts, "|") + `)\.?(:\d+)?(/|$)`)
}()
