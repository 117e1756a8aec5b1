package sandbox

// A page opened from file:// may load any other local file into a frame,
// an image or a new location, and Playwright reads every frame: checking
// only the URL given to page.goto would let code allowed one folder read
// the whole disk through the browser. Chromium lets a context route see
// file:// loads, so once code whose grant is limited opens a file:// page
// in a context, Limit puts a route on that context which lets through only
// the files the grant allows, and aborts the others
// (net::ERR_ACCESS_DENIED in the page).

import (
	"net/url"
	"regexp"
	"sync"

	"github.com/playwright-community/playwright-go"
)

// Check decides whether a file may be loaded (nil: yes). It is given the
// absolute path of a file:// URL, and is called from playwright-go's
// goroutines.
type Check func(path string) error

// The route is installed once per context; later grants add their check
// (a load must pass all of them: a context where two grants opened
// file:// pages is limited to what both allow).
var (
	mu     sync.Mutex
	guards = map[playwright.BrowserContext]*guard{}
)

type guard struct {
	mu     sync.Mutex
	checks []Check
}

var fileURL = regexp.MustCompile(`^file:`)

// Limit makes every file:// load in c pass check. It is called before the
// navigation that opens a file:// page, by the code whose grant check
// applies.
func Limit(c playwright.BrowserContext, check Check) error {
	mu.Lock()
	g := guards[c]
	fresh := g == nil
	if fresh {
		g = &guard{}
		guards[c] = g
	}
	mu.Unlock()
	g.mu.Lock()
	g.checks = append(g.checks, check)
	g.mu.Unlock()
	if !fresh {
		return nil
	}
	c.OnClose(func(playwright.BrowserContext) {
		mu.Lock()
		delete(guards, c)
		mu.Unlock()
	})
	if err := c.Route(fileURL, g.handle); err != nil {
		mu.Lock()
		delete(guards, c)
		mu.Unlock()
		return err
	}
	return nil
}

func (g *guard) handle(r playwright.Route) {
	if g.allows(r.Request().URL()) {
		_ = r.Fallback()
		return
	}
	_ = r.Abort("accessdenied")
}

// Restore puts c's route back after c.UnrouteAll removed it (nothing to do
// for a context Limit never limited).
func Restore(c playwright.BrowserContext) error {
	mu.Lock()
	g := guards[c]
	mu.Unlock()
	if g == nil {
		return nil
	}
	return c.Route(fileURL, g.handle)
}

// Limited reports whether c's file:// loads are limited (for tests).
func Limited(c playwright.BrowserContext) bool {
	mu.Lock()
	defer mu.Unlock()
	return guards[c] != nil
}

func (g *guard) allows(rawURL string) bool {
	p, ok := Path(rawURL)
	if !ok {
		return false
	}
	g.mu.Lock()
	checks := append([]Check(nil), g.checks...)
	g.mu.Unlock()
	for _, check := range checks {
		if check(p) != nil {
			return false
		}
	}
	return true
}

// Path returns the local path of a file: URL (percent-decoded), and false
// for a URL that is not one or names another host (file://server/x).
func Path(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	if u.Host != "" && u.Host != "localhost" {
		return "", false
	}
	if u.Path == "" {
		return "/", true
	}
	return u.Path, true
}

// Allows reports whether a load of rawURL in c passes the checks Limit
// put on c (true for a URL that is not file: or a context not limited).
// Route handlers of user code that let a request through (continue,
// fallback) ask it, since they run before the context's own route.
func Allows(c playwright.BrowserContext, rawURL string) bool {
	if !fileURL.MatchString(rawURL) {
		return true
	}
	mu.Lock()
	g := guards[c]
	mu.Unlock()
	return g == nil || g.allows(rawURL)
}
