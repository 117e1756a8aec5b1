package browsing

import (
	"fmt"
	"net/url"

	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/sandbox"
)

// The agents' sessions reach files and the network through the same
// checks as the browser API of scripts (world/jsapi/sandbox.go): uploads
// and file:// pages are reads under the service's filesystem grant, no
// navigation reaches a cloud metadata endpoint, and the launcher's origin
// filter (--allowed-origins, --blocked-origins) is checked before a
// navigation, to say why it is refused.

// SetFileAccess sets the filesystem grant of the service's agents (the
// MCP server's [mcp] allowRead/allowWrite): the files they may upload and
// open from file:// URLs; relative paths are relative to dir. Without it
// they may open none. Call it before serving.
func (s *Service) SetFileAccess(dir string, p *capability.FSPolicy) {
	s.mu.Lock()
	s.dir, s.files = dir, p
	s.mu.Unlock()
}

func (s *Service) fileAccess() (string, *capability.FSPolicy) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dir, s.files
}

// checkRead checks a file an agent has the browser read and returns the
// path to give it.
func (s *Service) checkRead(path string) (string, error) {
	dir, p := s.fileAccess()
	return p.Check(dir, path, capability.FSRead)
}

// checkNavigation checks a URL an agent opens (sandbox.Navigation under
// the service's grant, then the launcher's origin filter) and returns the
// URL to open and the work to do first on the tab's context (nil: none).
func (ss *Session) checkNavigation(rawURL string) (string, func(playwright.BrowserContext) error, error) {
	dir, files := ss.svc.fileAccess()
	target, limit, err := sandbox.Navigation(rawURL, ss.svc.baseURL, dir, files)
	if err != nil {
		return "", nil, err
	}
	abs := target
	if b, err := url.Parse(ss.svc.baseURL); err == nil && ss.svc.baseURL != "" {
		if u, err := url.Parse(target); err == nil && !u.IsAbs() {
			abs = b.ResolveReference(u).String()
		}
	}
	if err := ss.svc.l.OriginFilter().Check(abs); err != nil {
		return "", nil, fmt.Errorf("navigation refused: %w", err)
	}
	if limit == nil {
		return target, nil, nil
	}
	return target, func(c playwright.BrowserContext) error { return sandbox.Limit(c, limit) }, nil
}
