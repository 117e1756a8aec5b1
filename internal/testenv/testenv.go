// Package testenv holds what the tests of several packages need from their
// environment: whether a browser may be used, a free port, a buffer that
// goroutines can share, the demo app.
package testenv

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ferridriver/ferridriver/demoapp"
)

// NeedBrowser skips tb only when FERRIDRIVER_SKIP_BROWSER=1. Otherwise a
// missing Chromium or driver fails the test loudly: `make test` installs
// both.
func NeedBrowser(tb testing.TB) {
	tb.Helper()
	if os.Getenv("FERRIDRIVER_SKIP_BROWSER") == "1" {
		tb.Skip("FERRIDRIVER_SKIP_BROWSER=1: this test needs Chromium and the Playwright driver")
	}
}

// FreePort returns a TCP port on 127.0.0.1 that nothing listens on.
func FreePort(tb testing.TB) int {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// SyncBuffer is a bytes.Buffer that several goroutines may write to (a
// process's stdout and stderr copiers, console output of JS code).
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// WriteFiles creates files (slash-separated path relative to dir ->
// content) under dir, with their directories.
func WriteFiles(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// DemoApp serves the embedded demo app on a free port of 127.0.0.1 until
// the test ends and returns its URL.
func DemoApp(tb testing.TB) string {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	u, err := demoapp.Serve(ctx, "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	return u
}
