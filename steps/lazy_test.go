package steps_test

import (
	"io"
	"testing"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/steps"
)

// A run that uses none of the built-in steps does not load the library
// (runner/builtins.go), which is only possible while the library registers
// nothing but steps, parameter types and step hooks at load: a test-case
// hook, a World constructor or a default timeout would have to run in every
// run, and would make every run load the whole library.
func TestLibraryCanStayUnloaded(t *testing.T) {
	x, err := jsbridge.IndexLibrary(steps.Library(), nil, jsbridge.VMOptions{Dir: t.TempDir(), Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if x.Extra != "" {
		t.Errorf("the library must load in every run because of %s", x.Extra)
	}
	if len(x.Steps) < 10 {
		t.Errorf("the index has %d steps", len(x.Steps))
	}
}
