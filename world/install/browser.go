package install

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// BrowserQuery says which browser to look for.
type BrowserQuery struct {
	// Browser is "chromium" (default), "firefox" or "webkit".
	Browser string
	// ExecutablePath, if set, is used as is and must exist.
	ExecutablePath string
	// Channel ("chrome", "msedge", ...) lets Playwright locate a branded
	// browser itself; FindBrowser only reports where it expects it.
	Channel string
	// Headless says the browser will run headless. Chromium then prefers a
	// headless shell (chromium-headless-shell), as Playwright does since
	// 1.49: it has no browser window to build for every context, so a
	// test case costs about half the browser work.
	Headless bool
}

// Browser is a browser executable that Playwright can launch.
type Browser struct {
	Name string // chromium, firefox or webkit
	Path string
	// Source says how it was found: "executablePath", "PATH", "system",
	// "playwright" (Playwright's own download) or "channel".
	Source  string
	Channel string
	Version string // empty until LookupVersion
	// HeadlessShell says Path is Chromium's headless shell, which only
	// runs headless.
	HeadlessShell bool
}

// MissingBrowserError reports that no usable browser was found; Fix is the
// command (or setting) that would resolve it.
type MissingBrowserError struct {
	Browser  string
	Searched []string
	Fix      string
}

func (e *MissingBrowserError) Error() string {
	return fmt.Sprintf("no %s browser found (looked at: %s). Fix: %s",
		e.Browser, strings.Join(e.Searched, ", "), e.Fix)
}

// Revisions of Playwright's own browser builds that playwright-core 1.52
// expects; firefox and webkit builds only speak the protocol of their own
// Playwright version, so the matching revision is preferred.
var expectedRevision = map[string]int{"chromium": 1169, "firefox": 1482, "webkit": 2158}

// finder holds the places FindBrowser looks at, replaceable in tests.
type finder struct {
	goos           string
	lookPath       func(string) (string, error)
	pathNames      []string // names looked up on PATH (chromium only)
	knownPaths     []string // well-known install locations (chromium only)
	shellNames     []string // headless shells' names on PATH
	shellPaths     []string // headless shells' well-known install locations
	playwrightDirs []string // ms-playwright cache directories
}

func defaultFinder() *finder {
	f := &finder{goos: runtime.GOOS, lookPath: exec.LookPath}
	f.pathNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"}
	f.shellNames = []string{"chromium-headless-shell", "chrome-headless-shell"}
	home, _ := os.UserHomeDir()
	switch runtime.GOOS {
	case "darwin":
		for _, root := range []string{"/Applications", filepath.Join(home, "Applications")} {
			f.knownPaths = append(f.knownPaths,
				filepath.Join(root, "Google Chrome.app/Contents/MacOS/Google Chrome"),
				filepath.Join(root, "Chromium.app/Contents/MacOS/Chromium"),
				filepath.Join(root, "Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"))
		}
	case "windows":
		for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "LocalAppData"} {
			if v := os.Getenv(env); v != "" {
				f.knownPaths = append(f.knownPaths, filepath.Join(v, `Google\Chrome\Application\chrome.exe`))
			}
		}
	default:
		f.knownPaths = []string{"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
			"/usr/bin/google-chrome-stable", "/opt/google/chrome/chrome", "/snap/bin/chromium",
			"/usr/lib/chromium/chromium", "/usr/lib/chromium-browser/chromium-browser"}
		f.shellPaths = []string{"/usr/lib/chromium/chromium-headless-shell"} // Debian's chromium-headless-shell
	}
	f.playwrightDirs = playwrightBrowserDirs()
	return f
}

// playwrightBrowserDirs returns where Playwright keeps downloaded browsers:
// $PLAYWRIGHT_BROWSERS_PATH, else the platform cache dir + ms-playwright.
func playwrightBrowserDirs() []string {
	if v := os.Getenv("PLAYWRIGHT_BROWSERS_PATH"); v != "" && v != "0" {
		return []string{v}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	switch runtime.GOOS {
	case "darwin":
		return []string{filepath.Join(home, "Library", "Caches", "ms-playwright")}
	case "windows":
		if v := os.Getenv("LocalAppData"); v != "" {
			return []string{filepath.Join(v, "ms-playwright")}
		}
		return []string{filepath.Join(home, "AppData", "Local", "ms-playwright")}
	}
	if v := os.Getenv("XDG_CACHE_HOME"); v != "" {
		return []string{filepath.Join(v, "ms-playwright")}
	}
	return []string{filepath.Join(home, ".cache", "ms-playwright")}
}

// FindBrowser locates a browser: q.ExecutablePath if set (it must exist),
// else for a channel the branded browser's usual path (channel "chromium"
// is the full Chromium found as below, never the headless shell), else,
// for chromium
// run headless, a headless shell in the usual places, on PATH or downloaded
// by Playwright, else for chromium an installed Chrome/Chromium on PATH or
// in the usual places, else a browser that Playwright downloaded
// (ms-playwright). When nothing is found the error is a
// *MissingBrowserError naming the exact fix. It does not run anything.
func FindBrowser(q BrowserQuery) (*Browser, error) {
	return defaultFinder().find(q)
}

func (f *finder) find(q BrowserQuery) (*Browser, error) {
	name := q.Browser
	if name == "" {
		name = "chromium"
	}
	if name != "chromium" && name != "firefox" && name != "webkit" {
		return nil, fmt.Errorf("unknown browser %q (want chromium, firefox or webkit)", name)
	}
	if q.ExecutablePath != "" {
		p, err := filepath.Abs(q.ExecutablePath)
		if err != nil {
			return nil, err
		}
		if err := checkExecutable(p); err != nil {
			return nil, fmt.Errorf("[browser] executablePath %s: %w", p, err)
		}
		return &Browser{Name: name, Path: p, Source: "executablePath"}, nil
	}
	if q.Channel != "" && name != "chromium" {
		return nil, fmt.Errorf("[browser] channel %q needs browser = \"chromium\", not %q", q.Channel, name)
	}
	if q.Channel == "chromium" {
		// Playwright's channel for the full Chromium, headless or not: the
		// one found below when the headless shell is passed over.
		q.Channel, q.Headless = "", false
	}
	if q.Channel != "" {
		p := channelPath(f.goos, q.Channel)
		if p != "" && checkExecutable(p) != nil {
			return nil, &MissingBrowserError{Browser: "channel " + q.Channel, Searched: []string{p},
				Fix: fmt.Sprintf("install it (npx playwright@%s install %s) or set [browser] executablePath", DriverVersion, q.Channel)}
		}
		return &Browser{Name: name, Path: p, Source: "channel", Channel: q.Channel}, nil
	}
	if name == "chromium" && q.Headless {
		if b, err := f.headlessShell(); err == nil || !errors.Is(err, errNotFound) {
			return b, err
		}
	}
	var searched []string
	if name == "chromium" {
		for _, n := range f.pathNames {
			if p, err := f.lookPath(n); err == nil {
				return &Browser{Name: name, Path: p, Source: "PATH"}, nil
			}
		}
		searched = append(searched, strings.Join(f.pathNames, "/")+" on PATH")
		for _, p := range f.knownPaths {
			if checkExecutable(p) == nil {
				return &Browser{Name: name, Path: p, Source: "system"}, nil
			}
		}
		searched = append(searched, f.knownPaths...)
	}
	for _, dir := range f.playwrightDirs {
		if builds, err := f.playwrightBuilds(dir, name); err == nil {
			return &Browser{Name: name, Path: builds[0].path, Source: "playwright", HeadlessShell: builds[0].shell}, nil
		} else if !errors.Is(err, errNotFound) {
			return nil, err
		}
		searched = append(searched, filepath.Join(dir, name+"-*"))
	}
	return nil, &MissingBrowserError{Browser: name, Searched: searched, Fix: fixCommand(f.goos, name)}
}

// headlessShell finds a Chromium headless shell: in the usual places, on
// PATH, else Playwright's own download; errNotFound if there is none. The
// usual places come first because Debian's /usr/bin/chromium-headless-shell
// is a script that runs the shell as its child instead of exec'ing it: the
// browser's process would then be the script, which a kill would not
// reach.
func (f *finder) headlessShell() (*Browser, error) {
	for _, p := range f.shellPaths {
		if checkExecutable(p) == nil {
			return &Browser{Name: "chromium", Path: p, Source: "system", HeadlessShell: true}, nil
		}
	}
	for _, n := range f.shellNames {
		if p, err := f.lookPath(n); err == nil {
			return &Browser{Name: "chromium", Path: p, Source: "PATH", HeadlessShell: true}, nil
		}
	}
	for _, dir := range f.playwrightDirs {
		p, err := f.playwrightShell(dir)
		if err == nil {
			return &Browser{Name: "chromium", Path: p, Source: "playwright", HeadlessShell: true}, nil
		}
		if !errors.Is(err, errNotFound) {
			return nil, err
		}
	}
	return nil, errNotFound
}

// fixCommand is the one command we suggest for a missing browser.
func fixCommand(goos, name string) string {
	npx := fmt.Sprintf("npx playwright@%s install %s", DriverVersion, name)
	if name != "chromium" {
		return npx + " (Playwright's own " + name + " build is required)"
	}
	if goos == "linux" {
		return "apt-get install -y chromium (Debian/Ubuntu, as root), or " + npx + ", or set [browser] executablePath"
	}
	return "install Google Chrome or Chromium, or " + npx + ", or set [browser] executablePath"
}

func channelPath(goos, channel string) string {
	linux := map[string]string{
		"chrome": "/opt/google/chrome/chrome", "chrome-beta": "/opt/google/chrome-beta/chrome",
		"chrome-dev": "/opt/google/chrome-unstable/chrome", "msedge": "/opt/microsoft/msedge/msedge",
		"msedge-beta": "/opt/microsoft/msedge-beta/msedge", "msedge-dev": "/opt/microsoft/msedge-dev/msedge",
	}
	mac := map[string]string{
		"chrome":      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
		"chrome-beta": "/Applications/Google Chrome Beta.app/Contents/MacOS/Google Chrome Beta",
		"msedge":      "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
	}
	switch goos {
	case "linux":
		return linux[channel]
	case "darwin":
		return mac[channel]
	}
	return ""
}

var revDir = regexp.MustCompile(`^(chromium|chromium_headless_shell|firefox|webkit)-(\d+)$`)

// playwrightShell picks the headless shell build inside an ms-playwright
// directory, as playwrightBuilds orders them.
func (f *finder) playwrightShell(dir string) (string, error) {
	builds, err := f.playwrightBuilds(dir, "chromium")
	if err != nil {
		return "", err
	}
	for _, b := range builds {
		if b.shell {
			return b.path, nil
		}
	}
	return "", errNotFound
}

type playwrightBuild struct {
	path  string
	rank  int // higher is better
	rev   int
	shell bool
}

// playwrightBuilds lists the builds for name inside an ms-playwright
// directory, best first: full chromium before the headless shell, then
// the revision playwright-core 1.52 expects, then the newest; errNotFound
// if there is none.
func (f *finder) playwrightBuilds(dir, name string) ([]playwrightBuild, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read Playwright browsers dir: %w", err)
	}
	var builds []playwrightBuild
	for _, e := range entries {
		m := revDir.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		kind, rev := m[1], m[2]
		shell := kind == "chromium_headless_shell"
		if kind != name && !(name == "chromium" && shell) {
			continue
		}
		r, _ := strconv.Atoi(rev)
		for _, rel := range relExecutables(f.goos, kind) {
			p := filepath.Join(dir, e.Name(), rel)
			if checkExecutable(p) == nil {
				rank := 0
				if r == expectedRevision[name] {
					rank = 1
				}
				builds = append(builds, playwrightBuild{p, rank, r, shell})
				break
			}
		}
	}
	if len(builds) == 0 {
		return nil, errNotFound
	}
	sort.Slice(builds, func(i, j int) bool {
		a, b := builds[i], builds[j]
		if a.shell != b.shell {
			return !a.shell
		}
		if a.rank != b.rank {
			return a.rank > b.rank
		}
		return a.rev > b.rev
	})
	return builds, nil
}

// relExecutables lists where each build keeps its executable, by platform
// (old and new Playwright layouts).
func relExecutables(goos, kind string) []string {
	switch kind {
	case "chromium":
		switch goos {
		case "darwin":
			return []string{"chrome-mac/Chromium.app/Contents/MacOS/Chromium", "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing"}
		case "windows":
			return []string{`chrome-win\chrome.exe`, `chrome-win64\chrome.exe`}
		}
		return []string{"chrome-linux/chrome", "chrome-linux64/chrome"}
	case "chromium_headless_shell":
		switch goos {
		case "darwin":
			return []string{"chrome-mac/headless_shell", "chrome-headless-shell-mac-arm64/chrome-headless-shell"}
		case "windows":
			return []string{`chrome-win\headless_shell.exe`}
		}
		return []string{"chrome-linux/headless_shell", "chrome-headless-shell-linux64/chrome-headless-shell"}
	case "firefox":
		switch goos {
		case "darwin":
			return []string{"firefox/Nightly.app/Contents/MacOS/firefox"}
		case "windows":
			return []string{`firefox\firefox.exe`}
		}
		return []string{"firefox/firefox"}
	case "webkit":
		if goos == "windows" {
			return []string{"Playwright.exe"}
		}
		return []string{"pw_run.sh"}
	}
	return nil
}

// LookupVersion runs `<browser> --version` and fills b.Version (first line
// of stdout; some wrappers chatter on stderr).
func (b *Browser) LookupVersion(ctx context.Context) error {
	if b.Path == "" {
		return fmt.Errorf("no executable path for %s", b.Name)
	}
	if b.Name == "webkit" {
		// pw_run.sh has no --version; the revision is in the path.
		b.Version = filepath.Base(filepath.Dir(b.Path))
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, b.Path, "--version").Output()
	if err != nil {
		return fmt.Errorf("run %s --version: %w", b.Path, err)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	b.Version = strings.TrimSpace(line)
	return nil
}
