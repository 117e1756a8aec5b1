package world

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"
)

// ErrRemoteLost is wrapped by errors caused by the connection to a remote
// browser ([browser] connect or connectOverCDP) dropping.
var ErrRemoteLost = errors.New("the connection to the remote browser was lost")

// Endpoint is the remote browser's endpoint: Connect or ConnectOverCDP
// ("" for a browser launched here).
func (c *Config) Endpoint() string {
	if c.Connect != "" {
		return c.Connect
	}
	return c.ConnectOverCDP
}

// Hidden replaces a secret in what ferridriver prints.
const Hidden = "(hidden)"

// secretParam matches the names of URL query parameters that carry a
// secret (browser services take tokens as ?token=...).
var secretParam = regexp.MustCompile(`(?i)token|key|secret|password|passwd|auth|credential|signature`)

// RedactEndpoint returns endpoint as it may be printed (in logs, errors
// and reports): a password in it and the values of query parameters
// whose names say they are secrets are replaced by Hidden. An endpoint
// that does not parse as a URL is returned as is.
func RedactEndpoint(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return endpoint
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), Hidden)
	}
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for name, vals := range q {
			if secretParam.MatchString(name) {
				for i := range vals {
					vals[i] = Hidden
				}
				changed = true
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	out := u.String()
	// url.URL.String escapes the parentheses of Hidden.
	return strings.NewReplacer(url.QueryEscape(Hidden), Hidden, url.PathEscape(Hidden), Hidden).Replace(out)
}

// Printable returns a copy of c that may be printed (--print-config): the
// connectHeaders values are Hidden and the endpoints redacted.
func (c *Config) Printable() Config {
	out := *c
	if c.ConnectHeaders != nil {
		out.ConnectHeaders = make(map[string]string, len(c.ConnectHeaders))
		for k := range c.ConnectHeaders {
			out.ConnectHeaders[k] = Hidden
		}
	}
	out.Connect = RedactEndpoint(c.Connect)
	out.ConnectOverCDP = RedactEndpoint(c.ConnectOverCDP)
	return out
}

// redactSecrets removes the connectHeaders values and the endpoint's
// secrets from a message about the remote browser (Playwright's errors
// quote the endpoint, and may quote what the server answered).
func (c *Config) redactSecrets(msg string) string {
	var pairs []string
	for _, ep := range []string{c.Connect, c.ConnectOverCDP} {
		if ep != "" {
			if r := RedactEndpoint(ep); r != ep {
				pairs = append(pairs, ep, r)
			}
		}
	}
	// Longest first, so a value that contains another is replaced whole.
	vals := make([]string, 0, len(c.ConnectHeaders))
	for _, v := range c.ConnectHeaders {
		if v = strings.TrimSpace(v); v != "" {
			vals = append(vals, v)
			// "Bearer abc": the token alone may be quoted too.
			if _, tok, ok := strings.Cut(v, " "); ok && len(strings.TrimSpace(tok)) > 0 {
				vals = append(vals, strings.TrimSpace(tok))
			}
		}
	}
	slices.SortFunc(vals, func(a, b string) int { return len(b) - len(a) })
	for _, v := range vals {
		pairs = append(pairs, v, Hidden)
	}
	if len(pairs) == 0 {
		return msg
	}
	return strings.NewReplacer(pairs...).Replace(msg)
}

// retryableConnect says whether a failed connection is worth trying
// again: the server is not (yet, or again) accepting connections, as a
// browser container that is starting or restarting.
func retryableConnect(err error) bool {
	msg := err.Error()
	for _, s := range []string{"ECONNREFUSED", "ECONNRESET", "EAI_AGAIN", "socket hang up", "502 Bad Gateway", "503 Service Unavailable"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// connectWindow is how long connecting keeps retrying a server that
// refuses connections: connectTimeout when set, else 30 s.
func (c *Config) connectWindow() time.Duration {
	if t := c.ConnectTimeout; t != nil && *t > 0 {
		return time.Duration(*t * float64(time.Millisecond))
	}
	return 30 * time.Second
}

// connect attaches slot to the configured remote browser. A server that
// refuses connections (starting, restarting) is tried again for up to
// connectWindow. A dropped connection marks the slot lost, like a crash:
// the running test case fails and the next use connects again.
func (l *Launcher) connect(slot *browserSlot) error {
	drv, err := l.driver(context.Background())
	if err != nil {
		return err
	}
	start := time.Now()
	endpoint := RedactEndpoint(l.cfg.Endpoint())
	dial := func() (playwright.Browser, error) {
		if l.cfg.Connect != "" {
			opts := playwright.BrowserTypeConnectOptions{
				Headers: l.cfg.ConnectHeaders, Timeout: l.cfg.ConnectTimeout, SlowMo: nonZero(l.cfg.SlowMo),
			}
			if l.cfg.ExposeNetwork != "" {
				opts.ExposeNetwork = &l.cfg.ExposeNetwork
			}
			return l.browserType(drv.pw).Connect(l.cfg.Connect, opts)
		}
		return drv.pw.Chromium.ConnectOverCDP(l.cfg.ConnectOverCDP, playwright.BrowserTypeConnectOverCDPOptions{
			Headers: l.cfg.ConnectHeaders, Timeout: l.cfg.ConnectTimeout, SlowMo: nonZero(l.cfg.SlowMo),
		})
	}
	deadline := start.Add(l.cfg.connectWindow())
	wait := 100 * time.Millisecond
	b, err := dial()
	for err != nil && retryableConnect(err) && time.Now().Add(wait).Before(deadline) && !l.isClosed() {
		if wait == 100*time.Millisecond {
			l.logf("the remote browser at %s refuses connections (%s); trying again for up to %v",
				endpoint, l.cfg.redactSecrets(err.Error()), l.cfg.connectWindow())
		}
		time.Sleep(wait)
		wait = min(2*wait, 2*time.Second)
		b, err = dial()
	}
	if err != nil {
		return fmt.Errorf("connect to the remote browser at %s: %s", endpoint, l.cfg.redactSecrets(err.Error()))
	}
	slot.driver, slot.browser, slot.launchDur = drv, b, time.Since(start)
	b.OnDisconnected(func(playwright.Browser) {
		if !slot.closing.Load() {
			slot.crashed.Store(true)
			l.logf("%v (%s); it will be reconnected on next use", ErrRemoteLost, endpoint)
		}
	})
	l.debugf("remote %s %s (%s) connected in %v", l.cfg.BrowserName(), b.Version(), endpoint, slot.launchDur.Round(time.Millisecond))
	return nil
}
