package jsbridge

import (
	"io"
	"strings"
	"testing"
	"testing/fstest"
)

// A library can be left unloaded only if it registers steps, parameter
// types and step hooks alone: anything else it does at load must happen
// in every run.
func TestIndexLibrary(t *testing.T) {
	const base = "import * as c from '@cucumber/cucumber'\nc.defineParameterType({ name: 'hue', regexp: /red|blue/ })\nc.When('I pick {hue}', function () {})\nc.BeforeStep(function () {})\n"
	for _, tc := range []struct{ extra, why string }{
		{"", ""},
		{"c.AfterStep(function () {})\n", ""},
		{"c.Before(function () {})\n", "Before hook at ferridriver:lib/index.ts:5"},
		{"c.AfterAll(function () {})\n", "AfterAll hook"},
		{"c.setDefaultTimeout(1000)\n", "a default timeout"},
		{"c.setWorldConstructor(class {})\n", "a World constructor"},
		{"c.setDefinitionFunctionWrapper((f) => f)\n", "a definition function wrapper"},
		{"c.Then('x', { wrapperOptions: { a: 1 } }, function () {})\n", `step "x" has wrapperOptions`},
	} {
		lib := &Library{Name: "lib", Entries: []string{"index.ts"}, FS: fstest.MapFS{"index.ts": {Data: []byte(base + tc.extra)}}}
		x, err := IndexLibrary(lib, nil, VMOptions{Dir: t.TempDir(), Stdout: io.Discard, Stderr: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		if (x.Extra != "") != (tc.why != "") || !strings.HasPrefix(x.Extra, tc.why) {
			t.Errorf("%q: extra %q, want %q", tc.extra, x.Extra, tc.why)
		}
		if len(x.Steps) < 1 || x.Steps[0].Pattern != "I pick {hue}" || x.Steps[0].Source.String() != "ferridriver:lib/index.ts:3" || len(x.ParamTypes) != 1 || x.ParamTypes[0].Regexps[0] != "red|blue" {
			t.Errorf("%q: index %+v", tc.extra, x)
		}
		// The index survives the cache, and a VM started with it has
		// the same registry, functions apart.
		cache, err := OpenCache(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if cache.LibraryIndex(lib) != nil {
			t.Fatal("an empty cache has an index")
		}
		cache.StoreLibraryIndex(lib, x)
		y := cache.LibraryIndex(lib)
		if y == nil {
			t.Fatal("no index after storing it")
		}
		reg := StubRegistry(y)
		if len(reg.Steps) != len(x.Steps) || len(reg.Hooks) != len(x.Hooks) || len(reg.Order) != len(x.Order) || !reg.Steps[0].IsStub() || reg.Steps[0].Pattern != "I pick {hue}" {
			t.Errorf("%q: registry from the cached index: %+v", tc.extra, reg)
		}
	}
}
