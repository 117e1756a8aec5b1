package jsbridge

import (
	"bytes"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// newTestVM bundles files (relative path -> content) in a temp dir and
// loads them in a VM of the given host.
func newTestVM(t *testing.T, host string, files map[string]string, opts VMOptions) (*VM, *bytes.Buffer) {
	t.Helper()
	b, dir := buildFiles(t, files)
	var out bytes.Buffer
	opts.Host, opts.Dir, opts.Stdout, opts.Stderr = host, dir, &out, &out
	vm, err := NewVM(b, opts)
	if err != nil {
		t.Fatal(err)
	}
	return vm, &out
}

// eval runs JS source in vm (after loading) and awaits its value.
func eval(t *testing.T, vm *VM, src string) (goja.Value, error) {
	t.Helper()
	v, err := vm.rt.RunString("(async () => {" + src + "})()")
	if err != nil {
		return nil, vm.toJSError(err)
	}
	return vm.Await(v, 5*time.Second, "test")
}

func TestEventLoopOrdering(t *testing.T) {
	vm, out := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	_, err := eval(t, vm, `
		const log = []
		setTimeout(() => log.push('t20'), 20)
		setTimeout(() => log.push('t0a'), 0)
		setTimeout(() => log.push('t0b'), 0)
		setImmediate(() => log.push('immediate'))
		queueMicrotask(() => log.push('micro'))
		process.nextTick(() => log.push('tick'))
		Promise.resolve().then(() => log.push('then'))
		const id = setTimeout(() => log.push('cleared'), 5); clearTimeout(id)
		let n = 0; const iv = setInterval(() => { if (++n === 3) clearInterval(iv) }, 1)
		log.push('sync')
		await new Promise((r) => setTimeout(r, 40))
		console.log(log.join(' '), n)
	`)
	if err != nil {
		t.Fatal(err)
	}
	// Microtasks first (in queueing order), then immediates and timers by
	// due time and creation order (setTimeout(fn, 0) waits 1 ms, as in
	// Node); a cleared timer never fires.
	if got := strings.TrimSpace(out.String()); got != "sync micro tick then immediate t0a t0b t20 3" {
		t.Fatalf("order: %q", got)
	}
}

func TestAsyncContextFollowsContinuationsAndTimers(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	var seen []any
	vm.rt.Set("probe", func(goja.FunctionCall) goja.Value { seen = append(seen, vm.loop.Context()); return goja.Undefined() })
	fn, err := vm.rt.RunString(`(async (name) => {
		probe()
		await null
		probe()
		await new Promise((r) => setTimeout(() => { probe(); r() }, 1))
		probe()
	})`)
	if err != nil {
		t.Fatal(err)
	}
	call, _ := goja.AssertFunction(fn)
	var pa, pb goja.Value
	vm.loop.RunIn("A", func() { pa, _ = call(goja.Undefined()) })
	vm.loop.RunIn("B", func() { pb, _ = call(goja.Undefined()) })
	if _, err := vm.Await(pa, time.Second, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := vm.Await(pb, time.Second, "b"); err != nil {
		t.Fatal(err)
	}
	var a, b int
	for _, s := range seen {
		switch s {
		case "A":
			a++
		case "B":
			b++
		default:
			t.Fatalf("a continuation lost its context: %v", seen)
		}
	}
	if a != 4 || b != 4 {
		t.Fatalf("contexts %v", seen)
	}
}

func TestCallTimeouts(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	for _, src := range []string{"(function () { for (;;) {} })", "(function () { return new Promise(() => {}) })", "(async function () { await null; for (;;) {} })"} {
		fn, _ := vm.rt.RunString(src)
		call, _ := goja.AssertFunction(fn)
		start := time.Now()
		_, err := vm.Call(call, goja.Undefined(), nil, 100*time.Millisecond, "step")
		var te *TimeoutError
		if !errors.As(err, &te) || te.Ms != 100 {
			t.Fatalf("%s: %v", src, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("%s: took %v", src, d)
		}
	}
	// The VM is still usable afterwards: no interrupt leaks into later calls.
	if v, err := eval(t, vm, "return 1 + 1"); err != nil || v.ToInteger() != 2 {
		t.Fatalf("after timeouts: %v %v", v, err)
	}
	// Interrupt stops the VM for good.
	vm.Interrupt(errors.New("stop"))
	fn, _ := vm.rt.RunString("(function () { return 1 })")
	call, _ := goja.AssertFunction(fn)
	if _, err := vm.Call(call, goja.Undefined(), nil, 0, "x"); err == nil || err.Error() != "stop" {
		t.Fatalf("after Interrupt: %v", err)
	}
}

func TestErrorsAreMappedToSources(t *testing.T) {
	_, err := NewVM(mustBuild(t, map[string]string{"entry.ts": "interface X { a: number }\nconst x: X = { a: 1 }\n\nthrow new RangeError('bad ' + x.a)\n"}), VMOptions{})
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("%T %v", err, err)
	}
	if msg := le.Error(); !strings.HasPrefix(msg, "entry.ts:4:") || !strings.Contains(msg, "RangeError: bad 1") {
		t.Fatalf("%q", msg)
	}
	var je *JSError
	if !errors.As(err, &je) || je.Type != "RangeError" || strings.Contains(je.Stack, "ferridriver-") {
		t.Fatalf("%+v", je)
	}
}

func mustBuild(t *testing.T, files map[string]string) *Bundle {
	t.Helper()
	b, _ := buildFiles(t, files)
	return b
}

// buildFiles writes files (relative path -> content) into a temp dir and
// bundles those whose name starts with "entry", in name order.
func buildFiles(t *testing.T, files map[string]string) (*Bundle, string) {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, files)
	var entries []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if strings.HasPrefix(name, "entry") {
			entries = append(entries, filepath.Join(dir, name))
		}
	}
	b, err := Build(BundleOptions{Entries: entries, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return b, dir
}

func TestBundling(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"entry.ts":                           "import { twice } from './lib/util'\nimport pkg from 'tiny-pkg'\nimport alias from 'my-alias'\nimport { Given } from 'cucumber-alias'\nconsole.log(twice(2), pkg(), alias, import.meta.dirname === process.cwd(), typeof Given)\n",
		"lib/util.ts":                        "export const twice = (n: number): number => n * 2\n",
		"node_modules/tiny-pkg/package.json": `{"name":"tiny-pkg","main":"index.js"}`,
		"node_modules/tiny-pkg/index.js":     "module.exports = function () { return 'npm:' + require('path').basename(__filename) }\n",
		"aliased.js":                         "export default 'aliased'\n",
	}
	testenv.WriteFiles(t, dir, files)
	b, err := Build(BundleOptions{Entries: []string{filepath.Join(dir, "entry.ts")}, Dir: dir,
		Alias: map[string]string{"my-alias": "./aliased.js", "cucumber-alias": "@cucumber/cucumber"}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := NewVM(b, VMOptions{Dir: dir, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "4 npm:index.js aliased true function" {
		t.Fatalf("got %q", got)
	}
	_, err = Build(BundleOptions{Entries: []string{filepath.Join(dir, "entry.ts")}, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), `entry.ts:3:19: Could not resolve "my-alias"`) {
		t.Fatalf("without the alias: %v", err)
	}
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for _, f := range []string{"steps/a.ts", "steps/sub/b.js", "steps/types.d.ts", "steps/node_modules/x/c.js", "steps/.hidden/d.ts", "steps/readme.md", "ext/e.tsx", "ext/f.cts", "ext/g.mjs"} {
		files[f] = ""
	}
	testenv.WriteFiles(t, dir, files)
	got, err := Discover(dir, []string{"steps", "ext/**/*.{tsx,cts}", "ext/g.mjs", "steps/a.ts"})
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, g := range got {
		r, _ := filepath.Rel(dir, g)
		rel = append(rel, r)
	}
	want := []string{"ext/e.tsx", "ext/f.cts", "ext/g.mjs", "steps/a.ts", "steps/sub/b.js"}
	if strings.Join(rel, ",") != strings.Join(want, ",") {
		t.Fatalf("got %v, want %v", rel, want)
	}
}

// UnhandledRejections lists, once, the rejections that never got a
// handler, and not those handled late or at once.
func TestUnhandledRejections(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"none", `await Promise.resolve(1)`, nil},
		{"caught at once", `Promise.reject(new Error("a")).catch(() => {})`, nil},
		{"handled late", `const p = Promise.reject(new Error("late")); await new Promise((r) => setTimeout(r, 5)); await p.catch(() => {})`, nil},
		{"lost async call", `(async () => { throw new TypeError("lost") })()`, []string{"TypeError: lost"}},
		{"two, in order", `Promise.reject(new Error("one")); Promise.reject("two")`, []string{"Error: one", "Error: two"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vm, _ := newTestVM(t, HostScript, map[string]string{"entry.ts": ""}, VMOptions{})
			if _, err := eval(t, vm, tc.src); err != nil {
				t.Fatal(err)
			}
			if !vm.Loop().Drain(time.Now().Add(5 * time.Second)) {
				t.Fatal("loop did not drain")
			}
			var got []string
			for _, err := range vm.UnhandledRejections() {
				je, ok := err.(*JSError)
				if !ok {
					t.Fatalf("%T, want *JSError", err)
				}
				got = append(got, je.Type+": "+je.Message)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			if again := vm.UnhandledRejections(); len(again) != 0 {
				t.Fatalf("reported twice: %v", again)
			}
		})
	}
}

// A rejection that Go awaits (a failing step, a throwing tool handler) is
// handled by its caller, not left unhandled.
func TestAwaitedRejectionIsHandled(t *testing.T) {
	vm, _ := newTestVM(t, HostScript, map[string]string{"entry.ts": ""}, VMOptions{})
	if _, err := eval(t, vm, `throw new Error("step failed")`); err == nil || !strings.Contains(err.Error(), "step failed") {
		t.Fatalf("eval: %v", err)
	}
	if got := vm.UnhandledRejections(); len(got) != 0 {
		t.Fatalf("awaited rejection reported as unhandled: %v", got)
	}
}

func TestLoadTimeoutNamesTheStepFiles(t *testing.T) {
	b := mustBuild(t, map[string]string{"entry.js": "await new Promise(() => {})\n"})
	_, err := NewVM(b, VMOptions{LoadTimeout: 100 * time.Millisecond})
	var le *LoadError
	var te *TimeoutError
	if !errors.As(err, &le) || !errors.As(err, &te) || te.What != "loading step files and extensions" || te.Ms != 100 {
		t.Fatalf("%T %v", err, err)
	}
	b = mustBuild(t, map[string]string{"entry.js": "for (;;) {}\n"})
	if _, err := NewVM(b, VMOptions{LoadTimeout: 100 * time.Millisecond}); !errors.As(err, &te) || te.What != "loading step files and extensions" {
		t.Fatalf("%T %v", err, err)
	}
}

// User code replacing JSON.parse changes nothing in the values Go hands
// to JS, and "%" in a user's string survives a registration error.
func TestToJSAndMessagesResistUserCode(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": "JSON.parse = () => 'hijacked'\n"}, VMOptions{})
	v := vm.ToJS(map[string]any{"a": 1})
	if o, ok := v.(*goja.Object); !ok || o.Get("a").ToInteger() != 1 {
		t.Fatalf("ToJS: %v", v)
	}
	_, err := NewVM(mustBuild(t, map[string]string{"entry.js": "import { Given } from '@cucumber/cucumber'\nGiven('a 50% discount')\n"}), VMOptions{})
	if err == nil || !strings.Contains(err.Error(), `("a 50% discount"): the last argument must be the step function`) {
		t.Fatalf("%v", err)
	}
}

// A group that did not participate reaches the step as cucumber-js's
// transforms give it: null for anonymous RegExp groups and the numeric
// built-ins, undefined for {word} and the registry's anonymous (.*) type,
// "" for {string}.
func TestTransformOfAbsentGroups(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	three := "3"
	for _, tc := range []struct {
		arg  StepArg
		want string
	}{
		{StepArg{ParamType: "anonymous", Values: []*string{nil}}, "null"},
		{StepArg{ParamType: "anonymous", Values: []*string{&three}}, "string:3"},
		{StepArg{ParamType: "int", Values: []*string{nil}}, "null"},
		{StepArg{ParamType: "int", Values: []*string{&three}}, "number:3"},
		{StepArg{ParamType: "float", Values: []*string{nil}}, "null"},
		{StepArg{ParamType: "biginteger", Values: []*string{nil}}, "null"},
		{StepArg{ParamType: "bigdecimal", Values: []*string{nil}}, "null"},
		{StepArg{ParamType: "word", Values: []*string{nil}}, "undefined"},
		{StepArg{ParamType: "", Values: []*string{nil}}, "undefined"},
		{StepArg{ParamType: "string", Values: []*string{nil, nil}}, "string:"},
	} {
		v, err := vm.transform(tc.arg, nil, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got := "undefined"
		switch {
		case goja.IsNull(v):
			got = "null"
		case !goja.IsUndefined(v):
			got = v.ExportType().Kind().String()
			switch got {
			case "int64", "float64":
				got = "number"
			}
			got += ":" + v.String()
		}
		if got != tc.want {
			t.Errorf("%s %v: %s, want %s", tc.arg.ParamType, tc.arg.Values, got, tc.want)
		}
	}
}
