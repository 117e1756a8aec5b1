package jsbridge

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// settle moves every file and directory under dir into the past, as if
// written long before: the cache trusts modification times that are not
// recent.
func settle(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// logged runs the bundle in a new VM and returns what it printed.
func logged(t *testing.T, b *Bundle) string {
	t.Helper()
	var out bytes.Buffer
	vm, err := NewVM(b, VMOptions{Dir: b.Dir, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	vm.Close()
	return strings.TrimSpace(out.String())
}

// A bundle comes from the cache while nothing it was built from changed,
// and is rebuilt when anything did: an edited step file (even one edited
// within the same instant, with the same size), a new file that changes
// what an import resolves to, a package.json, an alias, the library.
func TestBundleCache(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"steps/a.ts":                      "import { n } from './util'\nimport pkg from 'pkg'\nconsole.log('a', n, pkg)\n",
		"steps/util.js":                   "export const n = 'js'\n",
		"node_modules/pkg/package.json":   `{"name": "pkg", "main": "one.js"}`,
		"node_modules/pkg/one.js":         "module.exports = 'one'\n",
		"node_modules/pkg/two.js":         "module.exports = 'two'\n",
		"node_modules/other/index.js":     "module.exports = 'other'\n",
		"node_modules/other/package.json": `{"name": "other"}`,
	})
	cache, err := OpenCache(filepath.Join(t.TempDir(), "bundles"))
	if err != nil {
		t.Fatal(err)
	}
	lib := &Library{Name: "lib", Entries: []string{"index.ts"}, FS: fstest.MapFS{"index.ts": {Data: []byte("console.log('lib 1')\n")}}}
	opts := BundleOptions{Dir: dir, Entries: []string{filepath.Join(dir, "steps/a.ts")}, Cache: cache, Library: lib}
	step := func(what, want string, built bool) {
		t.Helper()
		before := esbuildRuns.Load()
		b, err := Build(opts)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := logged(t, b); got != want {
			t.Errorf("%s: printed %q, want %q", what, got, want)
		}
		if ran := esbuildRuns.Load() > before; ran != built {
			t.Errorf("%s: esbuild ran: %v, want %v", what, ran, built)
		}
	}
	settle(t, dir)
	step("first run", "lib 1\na js one", true)
	step("nothing changed", "lib 1\na js one", false)

	// The same size, written at once: the time cannot tell, the contents do.
	a := filepath.Join(dir, "steps/a.ts")
	if err := os.WriteFile(a, []byte("import { n } from './util'\nimport pkg from 'pkg'\nconsole.log('A', n, pkg)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	step("an edited step file", "lib 1\nA js one", true)
	settle(t, dir)
	step("the times moved, not the contents", "lib 1\nA js one", false)
	// Saved again unchanged, by renaming a new file over it, as editors do.
	data, _ := os.ReadFile(a)
	os.WriteFile(a+".tmp", data, 0o644)
	os.Rename(a+".tmp", a)
	step("saved unchanged", "lib 1\nA js one", false)

	testenv.WriteFiles(t, dir, map[string]string{"steps/util.ts": "export const n = 'ts'\n"})
	step("a file that takes over an import", "lib 1\nA ts one", true)
	settle(t, dir)
	step("settled", "lib 1\nA ts one", false)
	os.Remove(filepath.Join(dir, "steps/util.ts"))
	step("the file removed", "lib 1\nA js one", true)
	testenv.WriteFiles(t, dir, map[string]string{"steps/util.ts": "export const n = 'ts'\n"})
	step("back", "lib 1\nA ts one", true)

	testenv.WriteFiles(t, dir, map[string]string{"node_modules/pkg/package.json": `{"name": "pkg", "main": "two.js"}`})
	step("a package.json", "lib 1\nA ts two", true)

	opts.Alias = map[string]string{"pkg": "other"}
	step("an alias", "lib 1\nA ts other", true)
	step("the alias again", "lib 1\nA ts other", false)

	opts.Library = &Library{Name: "lib", Entries: []string{"index.ts"}, FS: fstest.MapFS{"index.ts": {Data: []byte("console.log('lib 2')\n")}}}
	step("the library", "lib 2\nA ts other", true)
	// The project's data the library reads (page objects, values) is
	// generated into Files: a change there is a change of the library.
	opts.Library.FS = fstest.MapFS{"index.ts": {Data: []byte("import { v } from './data'\nconsole.log('lib', v)\n")}}
	opts.Library.Files = map[string]string{"data.ts": "export const v = 'hello'\n"}
	step("generated library data", "lib hello\nA ts other", true)
	step("the same data", "lib hello\nA ts other", false)
	opts.Library.Files = map[string]string{"data.ts": "export const v = 'bye'\n"}
	step("changed library data", "lib bye\nA ts other", true)
	opts.Library.Files = map[string]string{"data.ts": "console.log('lib 2')\n"}
	opts.Library.FS = fstest.MapFS{"index.ts": {Data: []byte("import './data'\n")}}

	// A damaged entry is a miss, never a wrong bundle.
	js, _ := filepath.Glob(filepath.Join(cache.Dir(), "*.js"))
	for _, f := range js {
		os.WriteFile(f, []byte("console.log('damaged')"), 0o644)
	}
	step("damaged", "lib 2\nA ts other", true)
	step("repaired", "lib 2\nA ts other", false)
}

// The bundling errors of a cached build are those of an uncached one, and
// a failed build stores nothing.
func TestBundleCacheErrors(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"steps/a.ts": "import x from './missing'\nconsole.log(x)\n"})
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, err := Build(BundleOptions{Dir: dir, Entries: []string{filepath.Join(dir, "steps/a.ts")}, Cache: cache})
		if err == nil || !strings.Contains(err.Error(), `steps/a.ts:1:15: Could not resolve "./missing"`) {
			t.Errorf("error: %v", err)
		}
	}
	if files, _ := os.ReadDir(cache.Dir()); len(files) != 0 {
		t.Errorf("a failed build stored %d files", len(files))
	}
}

// Entries unused for a month go, at most once a day; used ones stay.
func TestCachePrune(t *testing.T) {
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"old", "fresh"} {
		for _, ext := range []string{".json", ".js", ".map"} {
			os.WriteFile(cache.path(key, ext), []byte("x"), 0o644)
		}
	}
	os.WriteFile(cache.path("oldlib", ".index.json"), []byte("x"), 0o644)
	past := time.Now().Add(-pruneAfter - time.Hour)
	for _, p := range []string{cache.path("old", ".json"), cache.path("oldlib", ".index.json")} {
		os.Chtimes(p, past, past)
	}
	cache.prune()
	left, _ := filepath.Glob(filepath.Join(cache.Dir(), "*"))
	var names []string
	for _, p := range left {
		if !strings.HasPrefix(filepath.Base(p), ".") {
			names = append(names, filepath.Base(p))
		}
	}
	if strings.Join(names, " ") != "fresh.js fresh.json fresh.map" {
		t.Errorf("after pruning: %v", names)
	}
	// Not again within a day.
	os.WriteFile(cache.path("old", ".json"), []byte("x"), 0o644)
	os.Chtimes(cache.path("old", ".json"), past, past)
	cache.prune()
	if _, err := os.Stat(cache.path("old", ".json")); err != nil {
		t.Errorf("pruned twice in a day: %v", err)
	}
}

// A bundle's cache entry remembers which polyfills loading it compiled;
// the next build of it from the cache knows them (and compiles them in the
// background).
func TestBundleRemembersPolyfills(t *testing.T) {
	if !HasPolyfills() {
		t.Skip("built without polyfills")
	}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"steps/a.ts": "import { EventEmitter } from 'node:events'\nconsole.log(typeof EventEmitter)\n"})
	settle(t, dir)
	cache, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := BundleOptions{Dir: dir, Entries: []string{filepath.Join(dir, "steps/a.ts")}, Cache: cache}
	b, err := Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	vm, err := NewVM(b, VMOptions{Dir: dir, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	b.Remember(vm)
	again, err := Build(opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(again.warm, " "); !strings.Contains(got, "node_modules/events/events.js") || strings.Contains(got, "assert") {
		t.Errorf("remembered %q", got)
	}
}

// A bundle that leaves out a library its code imports builds, says so
// (ImportsLeftOut), and is cached like any other; a bundle that does not
// leave it out is another entry.
func TestLeftOutLibraryBundleIsCached(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"steps/a.ts": "import { shade } from 'lib/steps'\nexport const f = () => shade('x')\n",
		"steps/b.ts": "console.log('b')\n",
	})
	settle(t, dir)
	cache, err := OpenCache(filepath.Join(t.TempDir(), "bundles"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		entry   string
		imports bool
	}{{"steps/a.ts", true}, {"steps/b.ts", false}} {
		opts := BundleOptions{Dir: dir, Entries: []string{filepath.Join(dir, tc.entry)}, Cache: cache, LeftOut: "lib/steps"}
		for run, built := range []bool{true, false} {
			before := esbuildRuns.Load()
			b, err := Build(opts)
			if err != nil {
				t.Fatalf("%s, run %d: %v", tc.entry, run+1, err)
			}
			if b.ImportsLeftOut() != tc.imports {
				t.Errorf("%s, run %d: ImportsLeftOut %v, want %v", tc.entry, run+1, b.ImportsLeftOut(), tc.imports)
			}
			if ran := esbuildRuns.Load() > before; ran != built {
				t.Errorf("%s, run %d: esbuild ran: %v, want %v", tc.entry, run+1, ran, built)
			}
		}
	}
	// Without LeftOut the import is not resolved: not the cached entry.
	if _, err := Build(BundleOptions{Dir: dir, Entries: []string{filepath.Join(dir, "steps/a.ts")}, Cache: cache}); err == nil {
		t.Error("the bundle without LeftOut came from the LeftOut entry")
	}
}
