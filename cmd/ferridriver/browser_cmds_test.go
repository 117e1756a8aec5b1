package main

import (
	"path/filepath"
	"testing"
)

func TestInstallRejectsMissingBrowserPath(t *testing.T) {
	code := run([]string{"install", "--cache-dir", t.TempDir(), "--browser-path", filepath.Join(t.TempDir(), "no-such-browser")})
	if code != exitUsage {
		t.Errorf("install --browser-path <missing>: exit %d, want %d", code, exitUsage)
	}
}

func TestDemoServerBadAddress(t *testing.T) {
	if code := run([]string{"demo-server", "--addr", "not-an-address"}); code != exitUsage {
		t.Errorf("demo-server --addr not-an-address: exit %d, want %d", code, exitUsage)
	}
}
