// Package sandbox is the browser's side of the capability sandbox
// (jsbridge/capability, docs/capabilities.md): what a navigation may open,
// the file:// loads of a context kept within a filesystem grant, the
// origin filter of `ferridriver mcp` (--allowed-origins,
// --blocked-origins), and the refusal of the cloud metadata endpoints in
// a browser ferridriver did not launch. The browser API of scripts
// (world/jsapi) and the agents' sessions (world/browsing) both use it, so
// that a URL or a file is judged the same way whoever asks.
package sandbox

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// Navigation checks a URL a page is sent to (page.goto, browser_navigate,
// a new tab) by code whose filesystem grant is files (relative paths and
// folders are relative to dir). Relative URLs resolve against baseURL
// first. Navigation is not gated by allow.net, but no one reaches a cloud
// metadata endpoint, and a file: URL (also inside view-source:) is a read
// of its path. It returns the URL to open (a file: URL with the path
// resolved as checked) and, for a file: page under a limited grant, the
// check to give Limit before navigating (nil otherwise).
func Navigation(rawURL, baseURL, dir string, files *capability.FSPolicy) (string, Check, error) {
	target := rawURL
	if baseURL != "" {
		if b, err := url.Parse(baseURL); err == nil {
			if u, err := url.Parse(rawURL); err == nil && !u.IsAbs() {
				target = b.ResolveReference(u).String()
			}
		}
	}
	if err := capability.CheckNavigation(target); err != nil {
		return "", nil, err
	}
	inner, prefix := target, ""
	if len(inner) > len("view-source:") && strings.EqualFold(inner[:len("view-source:")], "view-source:") {
		inner, prefix = inner[len("view-source:"):], inner[:len("view-source:")]
	}
	u, err := url.Parse(inner)
	if err != nil || !strings.EqualFold(u.Scheme, "file") || files.Unrestricted() {
		return rawURL, nil, nil
	}
	p, ok := Path(inner)
	if !ok {
		return "", nil, fmt.Errorf("%q: a file: URL naming another host is not allowed", inner)
	}
	resolved, err := files.Check(dir, p, capability.FSRead)
	if err != nil {
		return "", nil, err
	}
	u.Path, u.RawPath = resolved, ""
	check := func(path string) error { _, err := files.Check(dir, path, capability.FSRead); return err }
	return prefix + u.String(), check, nil
}
