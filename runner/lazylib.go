package runner

import (
	"io"
	"strings"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// The built-in step library has hundreds of steps: compiling and
// evaluating it costs more than a small suite's whole run. A run whose
// features use none of its steps does not load it: its definitions are
// known from its index (jsbridge.LibraryIndex, kept in the Cache), and the
// VMs start with them as stubs, so that matching, the messages that list
// the definitions, and the suggestions of undefined steps are what they
// are with the library loaded. The decision is made before any VM is
// created, so that a loaded library is evaluated before the project's
// code, as always.

// libraryIndex returns the index of the run's library, recording it in the
// cache the first time (nil when the library must be loaded: no cache, no
// library, an index that says so, or a library that does not load alone,
// whose error the normal load reports).
func libraryIndex(opts Options) *jsbridge.LibraryIndex {
	if opts.Cache == nil || opts.Library == nil {
		return nil
	}
	x := opts.Cache.LibraryIndex(opts.Library)
	if x == nil {
		var err error
		x, err = jsbridge.IndexLibrary(opts.Library, opts.Cache, jsbridge.VMOptions{
			Host: jsbridge.HostBDD, Dir: opts.Dir, Env: opts.Env, Stdout: io.Discard, Stderr: io.Discard,
		})
		if err != nil {
			return nil
		}
		opts.Cache.StoreLibraryIndex(opts.Library, x)
	}
	if x.Eager {
		return nil
	}
	return x
}

// libraryNeeded says whether a run of the selected pickles, with the
// project's bundle b, could use the library of index x: a step text that
// one of the library's steps matches (whether or not a project step wins:
// matching does not depend on the project), or project code that imports
// the library's module, could use a library parameter type (a Cucumber
// Expression naming it, a regular expression group with its source) or run
// a step by its text. A dry run runs no step, but code importing the
// library needs it to load.
func libraryNeeded(x *jsbridge.LibraryIndex, b *jsbridge.Bundle, pickles []selectedPickle, dryRun bool) (bool, error) {
	if b.ImportsLeftOut() {
		return true, nil
	}
	if dryRun {
		return false, nil
	}
	if strings.Contains(b.Code, "runStep") {
		return true, nil
	}
	for _, p := range x.ParamTypes {
		if strings.Contains(b.Code, "{"+p.Name+"}") {
			return true, nil
		}
		for _, re := range p.Regexps {
			if strings.Contains(b.Code, re) {
				return true, nil
			}
		}
	}
	m, err := newMatcher(jsbridge.StubRegistry(x))
	if err != nil {
		return false, err
	}
	for _, sp := range pickles {
		for _, st := range sp.pickle.Steps {
			found, err := m.match(st.Text)
			if err != nil {
				return false, err
			}
			if len(found) > 0 {
				return true, nil
			}
		}
	}
	return false, nil
}
