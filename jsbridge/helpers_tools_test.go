package jsbridge

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// toolEnv is a project directory with extension files loaded in a VM.
type toolEnv struct {
	t    *testing.T
	dir  string
	vm   *VM
	out  *testenv.SyncBuffer
	errs []*FileError
}

type envOption func(*VMOptions)

func withHost(h string) envOption { return func(o *VMOptions) { o.Host = h } }

func withEnv(env map[string]string) envOption { return func(o *VMOptions) { o.Env = env } }

// newToolEnv writes files (path -> source) under a temp dir, loads the
// ones under ext/ as extensions into a new VM (host mcp by default).
func newToolEnv(t *testing.T, files map[string]string, opts ...envOption) *toolEnv {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, files)
	out := &testenv.SyncBuffer{}
	o := VMOptions{Host: HostMCP, Dir: dir, Stdout: out, Stderr: out}
	for _, f := range opts {
		f(&o)
	}
	vm, err := NewVM(nil, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(vm.Close)
	set, err := BuildExtensions(dir, []string{"ext"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e := &toolEnv{t: t, dir: dir, vm: vm, out: out}
	e.errs = set.Load(vm)
	return e
}

// mustLoad fails the test when a file did not load.
func (e *toolEnv) mustLoad() *toolEnv {
	e.t.Helper()
	for _, err := range e.errs {
		e.t.Fatalf("load error: %v", err)
	}
	return e
}

// run evaluates code as the body of an async function (first-party code,
// like a script) and returns its awaited value.
func (e *toolEnv) run(code string) (goja.Value, error) {
	e.t.Helper()
	v, err := e.vm.rt.RunString("(async function () {\n" + code + "\n})")
	if err != nil {
		e.t.Fatalf("compiling test code: %v", err)
	}
	fn, _ := goja.AssertFunction(v)
	return e.vm.Call(fn, goja.Undefined(), nil, 20*time.Second, "test code")
}

// mustRun is run that fails the test on an error and exports the value.
func (e *toolEnv) mustRun(code string) any {
	e.t.Helper()
	v, err := e.run(code)
	if err != nil {
		e.t.Fatalf("running test code: %v\nconsole:\n%s", err, e.out.String())
	}
	if v == nil {
		return nil
	}
	return v.Export()
}

// runErr runs code that must fail and returns the error message.
func (e *toolEnv) runErr(code string) string {
	e.t.Helper()
	_, err := e.run(code)
	if err == nil {
		e.t.Fatalf("expected an error from:\n%s", code)
	}
	return err.Error()
}

func mustContain(t *testing.T, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Fatalf("expected %q in:\n%s", w, got)
		}
	}
}
