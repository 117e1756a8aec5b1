package install

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

type entry struct {
	name, body string
	typ        byte
	link       string
}

func tarball(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Typeflag: typ, Mode: 0o644, Size: int64(len(e.body)), Linkname: e.link}
		if typ != tar.TypeReg {
			h.Size = 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func pkgJSON(name, version string) string {
	return `{"name":"` + name + `","version":"` + version + `"}`
}

func sri(b []byte) string {
	sum := sha512.Sum512(b)
	return "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
}

// fakeRegistry serves one package version; integrity may be overridden to
// simulate a tampered tarball.
type fakeRegistry struct {
	*httptest.Server
	requests  atomic.Int32
	tgz       []byte
	integrity string
	wantAuth  string
}

func newFakeRegistry(t *testing.T, name, version string, tgz []byte) *fakeRegistry {
	r := &fakeRegistry{tgz: tgz, integrity: sri(tgz)}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.requests.Add(1)
		if r.wantAuth != "" && req.Header.Get("Authorization") != "Bearer "+r.wantAuth {
			http.Error(w, "auth", http.StatusUnauthorized)
			return
		}
		escaped := strings.Replace(name, "/", "%2f", 1)
		switch req.URL.EscapedPath() {
		case "/" + escaped + "/" + version:
			meta := map[string]any{"name": name, "version": version, "dist": map[string]any{
				"tarball": r.URL + "/tarballs/pkg.tgz", "integrity": r.integrity,
			}}
			_ = json.NewEncoder(w).Encode(meta)
		case "/tarballs/pkg.tgz":
			_, _ = w.Write(r.tgz)
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *fakeRegistry) fetcher() *Fetcher {
	return &Fetcher{Npm: &NpmConfig{Registry: r.URL + "/", Scopes: map[string]string{}, tokens: map[string]string{}}}
}

func TestFetchVerifiesAndIsIdempotent(t *testing.T) {
	tgz := tarball(t, entry{name: "package/package.json", body: pkgJSON("left-pad", "1.3.0")},
		entry{name: "package/index.js", body: "module.exports = 1"},
		entry{name: "package/lib/deep.js", body: "x"})
	reg := newFakeRegistry(t, "left-pad", "1.3.0", tgz)
	dest := filepath.Join(t.TempDir(), "npm", "left-pad-1.3.0")
	dir, fetched, err := reg.fetcher().Fetch(context.Background(), "left-pad", "1.3.0", dest)
	if err != nil {
		t.Fatal(err)
	}
	if !fetched || dir != filepath.Join(dest, "package") {
		t.Errorf("Fetch = %s, %v", dir, fetched)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "lib", "deep.js")); err != nil || string(b) != "x" {
		t.Errorf("unpacked file: %q %v", b, err)
	}
	if n := reg.requests.Load(); n != 2 {
		t.Errorf("first install: want 2 requests (metadata, tarball), got %d", n)
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dest), ".tmp-*"))
	if len(leftovers) != 0 {
		t.Errorf("temporary dirs left: %v", leftovers)
	}
	_, fetched, err = reg.fetcher().Fetch(context.Background(), "left-pad", "1.3.0", dest)
	if err != nil || fetched {
		t.Errorf("second Fetch: fetched=%v err=%v", fetched, err)
	}
	if n := reg.requests.Load(); n != 2 {
		t.Errorf("second install made %d more requests, want none", n-2)
	}
}

func TestFetchScopedPackage(t *testing.T) {
	name := "@cucumber/html-formatter"
	tgz := tarball(t, entry{name: "package/package.json", body: pkgJSON(name, "21.7.0")})
	reg := newFakeRegistry(t, name, "21.7.0", tgz)
	cache := t.TempDir()
	opts := Options{CacheDir: cache, Npm: reg.fetcher().Npm}
	dir, err := FetchPackage(context.Background(), opts, name, "21.7.0")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(cache, "npm", "@cucumber", "html-formatter-21.7.0", "package")
	if dir != want {
		t.Errorf("dir = %s, want %s", dir, want)
	}
}

func TestFetchRejectsTamperedTarball(t *testing.T) {
	tgz := tarball(t, entry{name: "package/package.json", body: pkgJSON("left-pad", "1.3.0")})
	reg := newFakeRegistry(t, "left-pad", "1.3.0", tgz)
	// The registry vouches for other bytes than those it serves.
	reg.integrity = sri([]byte("the real tarball"))
	dest := filepath.Join(t.TempDir(), "left-pad-1.3.0")
	_, _, err := reg.fetcher().Fetch(context.Background(), "left-pad", "1.3.0", dest)
	if err == nil || !strings.Contains(err.Error(), "integrity mismatch") {
		t.Fatalf("want an integrity error, got %v", err)
	}
	if _, err := os.Stat(dest); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a rejected download must leave nothing at %s", dest)
	}
	entries, _ := os.ReadDir(filepath.Dir(dest))
	if len(entries) != 0 {
		t.Errorf("leftovers after a rejected download: %v", entries)
	}
}

func TestFetchRejectsPathEscapes(t *testing.T) {
	for _, evil := range []string{"package/../../evil.txt", "../evil.txt", "/tmp/evil-abs.txt", `package\..\..\evil.txt`} {
		t.Run(evil, func(t *testing.T) {
			tgz := tarball(t, entry{name: "package/package.json", body: pkgJSON("p", "1.0.0")}, entry{name: evil, body: "pwned"})
			reg := newFakeRegistry(t, "p", "1.0.0", tgz)
			root := t.TempDir()
			dest := filepath.Join(root, "a", "b", "p-1.0.0")
			_, _, err := reg.fetcher().Fetch(context.Background(), "p", "1.0.0", dest)
			if err == nil || !strings.Contains(err.Error(), "unsafe tarball entry") {
				t.Fatalf("want an unsafe entry error, got %v", err)
			}
			for _, p := range []string{filepath.Join(root, "evil.txt"), filepath.Join(root, "a", "evil.txt"), filepath.Join(root, "a", "b", "evil.txt"), "/tmp/evil-abs.txt"} {
				if _, err := os.Stat(p); err == nil {
					t.Errorf("escaped file written: %s", p)
				}
			}
		})
	}
}

func TestFetchSkipsLinks(t *testing.T) {
	tgz := tarball(t, entry{name: "package/package.json", body: pkgJSON("p", "1.0.0")},
		entry{name: "package/link", typ: tar.TypeSymlink, link: "/etc"},
		entry{name: "package/hard", typ: tar.TypeLink, link: "package/package.json"})
	reg := newFakeRegistry(t, "p", "1.0.0", tgz)
	dir, _, err := reg.fetcher().Fetch(context.Background(), "p", "1.0.0", filepath.Join(t.TempDir(), "p"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"link", "hard"} {
		if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s was created; links must be skipped", n)
		}
	}
}

func TestFetchWrongPackageInTarball(t *testing.T) {
	tgz := tarball(t, entry{name: "package/package.json", body: pkgJSON("p", "9.9.9")})
	reg := newFakeRegistry(t, "p", "1.0.0", tgz)
	_, _, err := reg.fetcher().Fetch(context.Background(), "p", "1.0.0", filepath.Join(t.TempDir(), "p"))
	if err == nil || !strings.Contains(err.Error(), "holds") {
		t.Errorf("want a version mismatch error, got %v", err)
	}
}

func TestFetchSendsConfiguredToken(t *testing.T) {
	tgz := tarball(t, entry{name: "package/package.json", body: pkgJSON("p", "1.0.0")})
	reg := newFakeRegistry(t, "p", "1.0.0", tgz)
	reg.wantAuth = "s3cr3t"
	work := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("npm_config_registry", "")
	t.Setenv("NPM_CONFIG_REGISTRY", "")
	t.Setenv("npm_config_userconfig", "")
	t.Setenv("NPM_CONFIG_USERCONFIG", "")
	t.Setenv("MY_NPM_TOKEN", "s3cr3t")
	host := strings.TrimPrefix(reg.URL, "http://")
	rc := "registry=" + reg.URL + "/\n//" + host + "/:_authToken=${MY_NPM_TOKEN}\n"
	if err := os.WriteFile(filepath.Join(work, ".npmrc"), []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	npm, err := LoadNpmConfig(work)
	if err != nil {
		t.Fatal(err)
	}
	f := &Fetcher{Npm: npm}
	if _, _, err := f.Fetch(context.Background(), "p", "1.0.0", filepath.Join(t.TempDir(), "p")); err != nil {
		t.Fatal(err)
	}
	if tok := npm.tokenFor("https://registry.npmjs.org/p"); tok != "" {
		t.Error("a token must only be sent to the registry it is configured for")
	}
}

func TestRegistryResolutionOrder(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	for _, k := range []string{"npm_config_registry", "NPM_CONFIG_REGISTRY", "npm_config_userconfig", "NPM_CONFIG_USERCONFIG"} {
		t.Setenv(k, "")
	}
	check := func(want string) {
		t.Helper()
		c, err := LoadNpmConfig(work)
		if err != nil {
			t.Fatal(err)
		}
		if c.Registry != want {
			t.Errorf("registry = %s (%s), want %s", c.Registry, c.RegistrySource, want)
		}
	}
	check(DefaultRegistry)
	write := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".npmrc"), "; user config\nregistry = https://user.example/npm\n@corp:registry=https://corp.example/\n")
	check("https://user.example/npm/")
	write(filepath.Join(work, ".npmrc"), "# project\nregistry=\"https://project.example/\"\n")
	check("https://project.example/")
	t.Setenv("NPM_CONFIG_REGISTRY", "https://upper.example")
	check("https://upper.example/")
	t.Setenv("npm_config_registry", "https://env.example/")
	check("https://env.example/")

	c, _ := LoadNpmConfig(work)
	if got := c.RegistryFor("@corp/tool"); got != "https://corp.example/" {
		t.Errorf("scoped registry = %s", got)
	}
	if got := c.RegistryFor("@other/tool"); got != "https://env.example/" {
		t.Errorf("unscoped fallback = %s", got)
	}

	t.Setenv("npm_config_registry", "")
	t.Setenv("NPM_CONFIG_REGISTRY", "")
	alt := filepath.Join(t.TempDir(), "alt-npmrc")
	write(alt, "registry=https://alt.example/\n")
	t.Setenv("NPM_CONFIG_USERCONFIG", alt)
	if err := os.Remove(filepath.Join(work, ".npmrc")); err != nil {
		t.Fatal(err)
	}
	check("https://alt.example/")
}

func TestEnsureDriverFromRegistry(t *testing.T) {
	tgz := tarball(t, entry{name: "package/package.json", body: pkgJSON(DriverPackage, DriverVersion)},
		entry{name: "package/cli.js", body: "console.log('Version " + DriverVersion + "')"})
	reg := newFakeRegistry(t, DriverPackage, DriverVersion, tgz)
	cache := t.TempDir()
	opts := Options{CacheDir: cache, Npm: reg.fetcher().Npm}
	if _, err := FindDriver(cache); err == nil || !strings.Contains(err.Error(), "ferridriver install") {
		t.Errorf("FindDriver on an empty cache: %v", err)
	}
	d, err := EnsureDriver(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(cache, "driver", "playwright-core-1.52.0")
	if d.Dir != want || !d.Fetched || d.CLI != filepath.Join(want, "package", "cli.js") {
		t.Errorf("driver = %+v", d)
	}
	d, err = EnsureDriver(context.Background(), opts)
	if err != nil || d.Fetched {
		t.Errorf("second EnsureDriver: %+v %v", d, err)
	}
	if n := reg.requests.Load(); n != 2 {
		t.Errorf("want 2 requests in all, got %d", n)
	}
}

func TestCacheDirResolution(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(EnvCacheDir, "")
	t.Setenv("XDG_CACHE_HOME", "")
	got, _ := CacheDir("")
	if got != filepath.Join(home, ".cache", "ferridriver") {
		t.Errorf("default: %s", got)
	}
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	if got, _ := CacheDir(""); got != "/xdg/ferridriver" {
		t.Errorf("XDG: %s", got)
	}
	t.Setenv(EnvCacheDir, "/env/cache")
	if got, _ := CacheDir(""); got != "/env/cache" {
		t.Errorf("env: %s", got)
	}
	if got, _ := CacheDir("/opt/explicit"); got != "/opt/explicit" {
		t.Errorf("explicit: %s", got)
	}
}

func TestReportShowsMissingParts(t *testing.T) {
	r := &Report{
		Driver:     &Driver{Dir: "/c/driver/playwright-core-1.52.0", Version: DriverVersion},
		Node:       &Node{Path: "/usr/bin/node", Version: "v20.1.0", Source: "PATH"},
		BrowserErr: &MissingBrowserError{Browser: "chromium", Searched: []string{"/usr/bin/chromium"}, Fix: fixCommand("linux", "chromium")},
	}
	var b strings.Builder
	if _, err := r.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"driver   ok", "node     ok       /usr/bin/node v20.1.0", "browser  MISSING", "apt-get install -y chromium", "npx playwright@1.52.0 install chromium"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if r.Err() == nil {
		t.Error("a report with a missing browser must have an error")
	}
}

func TestReportShowsTheHeadlessShell(t *testing.T) {
	full := &Browser{Name: "chromium", Path: "/usr/bin/chromium", Source: "PATH", Version: "Chromium 156"}
	shell := &Browser{Name: "chromium", Path: "/usr/bin/chromium-headless-shell", Source: "PATH", Version: "Chromium 156", HeadlessShell: true}
	for _, tt := range []struct {
		name       string
		r          Report
		want, lack string
	}{
		{"both", Report{Browser: full, HeadlessShell: shell},
			"browser  ok       chromium /usr/bin/chromium (PATH): Chromium 156\nheadless ok       chromium /usr/bin/chromium-headless-shell (PATH): Chromium 156, used for headless runs\n", ""},
		{"no shell", Report{Browser: full}, "browser  ok       chromium /usr/bin/chromium (PATH)", "\nheadless"},
		{"the shell is all there is", Report{Browser: shell, HeadlessShell: shell}, "browser  ok       chromium /usr/bin/chromium-headless-shell", "\nheadless"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if _, err := tt.r.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			if out := b.String(); !strings.Contains(out, tt.want) || (tt.lack != "" && strings.Contains(out, tt.lack)) {
				t.Errorf("report:\n%s\nwant it to contain %q and not %q", out, tt.want, tt.lack)
			}
		})
	}
}
