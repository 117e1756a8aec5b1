package install

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

func touchExe(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\necho 'Fake Browser 1.2.3'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBrowserDiscovery(t *testing.T) {
	tmp := t.TempDir()
	onPath := touchExe(t, filepath.Join(tmp, "bin", "google-chrome"))
	known := touchExe(t, filepath.Join(tmp, "usr", "bin", "chromium"))
	explicit := touchExe(t, filepath.Join(tmp, "my", "chrome"))
	pw := filepath.Join(tmp, "ms-playwright")
	expected := touchExe(t, filepath.Join(pw, "chromium-1169", "chrome-linux", "chrome"))
	touchExe(t, filepath.Join(pw, "chromium-1200", "chrome-linux", "chrome"))
	shell := touchExe(t, filepath.Join(tmp, "pw-shell", "chromium_headless_shell-1169", "chrome-linux", "headless_shell"))
	ff := touchExe(t, filepath.Join(pw, "firefox-1482", "firefox", "firefox"))
	pathShell := touchExe(t, filepath.Join(tmp, "bin", "chromium-headless-shell"))
	knownShell := touchExe(t, filepath.Join(tmp, "usr", "lib", "chromium", "chromium-headless-shell"))
	mixed := filepath.Join(tmp, "pw-mixed")
	touchExe(t, filepath.Join(mixed, "chromium-1169", "chrome-linux", "chrome"))
	mixedShell := touchExe(t, filepath.Join(mixed, "chromium_headless_shell-1169", "chrome-linux", "headless_shell"))
	if err := os.MkdirAll(filepath.Join(tmp, "emptydir"), 0o755); err != nil {
		t.Fatal(err)
	}

	lookPathIn := func(dir string) func(string) (string, error) {
		return func(name string) (string, error) {
			p := filepath.Join(dir, name)
			if checkExecutable(p) == nil {
				return p, nil
			}
			return "", exec.ErrNotFound
		}
	}
	names := []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"}
	shellNames := []string{"chromium-headless-shell", "chrome-headless-shell"}
	headless := BrowserQuery{Headless: true}
	cases := []struct {
		name       string
		f          finder
		q          BrowserQuery
		wantPath   string
		wantSource string
		wantErr    string
	}{
		{"explicit wins", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names}, BrowserQuery{ExecutablePath: explicit}, explicit, "executablePath", ""},
		{"explicit missing", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names}, BrowserQuery{ExecutablePath: filepath.Join(tmp, "nope")}, "", "", "executablePath"},
		{"explicit is a dir", finder{goos: "linux", lookPath: lookPathIn(tmp)}, BrowserQuery{ExecutablePath: filepath.Join(tmp, "emptydir")}, "", "", "directory"},
		{"on PATH", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names, knownPaths: []string{known}}, BrowserQuery{}, onPath, "PATH", ""},
		{"usual place", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "emptydir")), pathNames: names, knownPaths: []string{filepath.Join(tmp, "nope"), known}}, BrowserQuery{}, known, "system", ""},
		{"playwright expected revision", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "emptydir")), pathNames: names, playwrightDirs: []string{pw}}, BrowserQuery{}, expected, "playwright", ""},
		{"playwright headless shell", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "emptydir")), playwrightDirs: []string{filepath.Join(tmp, "pw-shell")}}, BrowserQuery{}, shell, "playwright", ""},
		{"firefox from playwright only", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names, knownPaths: []string{known}, playwrightDirs: []string{pw}}, BrowserQuery{Browser: "firefox"}, ff, "playwright", ""},
		{"webkit missing", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), playwrightDirs: []string{pw}}, BrowserQuery{Browser: "webkit"}, "", "", "npx playwright@1.52.0 install webkit"},
		{"nothing", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "emptydir")), pathNames: names, knownPaths: []string{filepath.Join(tmp, "nope")}, playwrightDirs: []string{filepath.Join(tmp, "no-pw")}}, BrowserQuery{}, "", "", "apt-get install -y chromium"},
		{"unknown browser", finder{goos: "linux"}, BrowserQuery{Browser: "netscape"}, "", "", "unknown browser"},
		{"channel on another browser", finder{goos: "linux"}, BrowserQuery{Browser: "firefox", Channel: "chrome"}, "", "", "needs browser"},
		{"headless: shell in the usual place first", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names, shellNames: shellNames, shellPaths: []string{filepath.Join(tmp, "nope"), knownShell}}, headless, knownShell, "system", ""},
		{"headless: shell on PATH", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names, shellNames: shellNames, shellPaths: []string{filepath.Join(tmp, "nope")}}, headless, pathShell, "PATH", ""},
		{"headless: Playwright's shell before a full browser", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names, playwrightDirs: []string{mixed}}, headless, mixedShell, "playwright", ""},
		{"headless: no shell, the full browser", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names, shellPaths: []string{filepath.Join(tmp, "nope")}, playwrightDirs: []string{pw}}, headless, onPath, "PATH", ""},
		{"headed: never the shell", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names, shellNames: shellNames, shellPaths: []string{knownShell}, playwrightDirs: []string{mixed}}, BrowserQuery{}, onPath, "PATH", ""},
		{"headed: Playwright's full chromium before its shell", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "emptydir")), playwrightDirs: []string{mixed}}, BrowserQuery{}, filepath.Join(mixed, "chromium-1169", "chrome-linux", "chrome"), "playwright", ""},
		{"headless: executablePath wins", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), shellNames: shellNames}, BrowserQuery{ExecutablePath: explicit, Headless: true}, explicit, "executablePath", ""},
		{"headless: channel wins", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), shellNames: shellNames}, BrowserQuery{Channel: "chrome", Headless: true}, "", "", "install it"},
		{"headless, channel chromium: the full browser", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), pathNames: names, shellNames: shellNames, shellPaths: []string{knownShell}}, BrowserQuery{Channel: "chromium", Headless: true}, onPath, "PATH", ""},
		{"headless firefox: no shell", finder{goos: "linux", lookPath: lookPathIn(filepath.Join(tmp, "bin")), shellNames: shellNames, playwrightDirs: []string{pw}}, BrowserQuery{Browser: "firefox", Headless: true}, ff, "playwright", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := c.f.find(c.q)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("want error containing %q, got %v (%+v)", c.wantErr, err, b)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Path != c.wantPath || b.Source != c.wantSource {
				t.Errorf("got %s (%s), want %s (%s)", b.Path, b.Source, c.wantPath, c.wantSource)
			}
			// The fixtures' shells, and only they, have "shell" in their names.
			if want := strings.Contains(filepath.Base(c.wantPath), "shell"); b.HeadlessShell != want {
				t.Errorf("HeadlessShell = %v, want %v", b.HeadlessShell, want)
			}
		})
	}

	var missing *MissingBrowserError
	_, err := (&finder{goos: "linux", lookPath: lookPathIn(tmp)}).find(BrowserQuery{})
	if !errors.As(err, &missing) || missing.Fix == "" {
		t.Errorf("want a *MissingBrowserError with a fix, got %v", err)
	}

	b := &Browser{Name: "chromium", Path: explicit}
	if err := b.LookupVersion(context.Background()); err != nil || b.Version != "Fake Browser 1.2.3" {
		t.Errorf("LookupVersion: %q %v", b.Version, err)
	}
}

func TestBrowserDiscoveryOnThisMachine(t *testing.T) {
	testenv.NeedBrowser(t)
	b, err := FindBrowser(BrowserQuery{})
	if err != nil {
		t.Fatalf("no browser on this machine (scripts/setup-browser.sh installs one): %v", err)
	}
	if err := b.LookupVersion(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Logf("found %s (%s): %s", b.Path, b.Source, b.Version)
}

func TestNodeDiscovery(t *testing.T) {
	t.Setenv("PLAYWRIGHT_NODEJS_PATH", "")
	t.Setenv(EnvNode, filepath.Join(t.TempDir(), "no-node"))
	if _, err := FindNode(); err == nil || !strings.Contains(err.Error(), EnvNode) {
		t.Errorf("bad %s: want an error naming it, got %v", EnvNode, err)
	}
	t.Setenv(EnvNode, "")
	t.Setenv("PATH", t.TempDir())
	if _, err := FindNode(); err == nil || !strings.Contains(err.Error(), "not on PATH") {
		t.Errorf("no node on PATH: got %v", err)
	}
	fake := touchExe(t, filepath.Join(t.TempDir(), "node"))
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho v16.20.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvNode, fake)
	n, err := FindNode()
	if err != nil || n.Source != EnvNode {
		t.Fatalf("FindNode: %+v %v", n, err)
	}
	if err := n.LookupVersion(context.Background()); err == nil || !strings.Contains(err.Error(), "needs 18 or newer") {
		t.Errorf("old node: want a version error, got %v", err)
	}
}
