package runner

import (
	"io"
	"strings"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// builtinLibrary is the one place that decides which of the built-in step
// library's definitions a run carries: what its VMs load, and what its
// message stream (so every report) reports.
//
// Loading: the library has hundreds of steps, and compiling and
// evaluating it costs more than a small suite's whole run, so a run whose
// features cannot use it does not load it. Its definitions are known from
// its index (jsbridge.LibraryIndex, kept in the Cache), and the VMs start
// with them as stubs, so that matching and the suggestions of undefined
// steps are what they are with the library loaded. A library that does
// more at load than registering steps, parameter types and step hooks (a
// test-case hook, a World constructor...), or whose index is not known (no
// cache), is loaded in every run. A loaded library is evaluated before the
// project's code, as always.
//
// Reporting: a project that does not use the library is a cucumber-js
// project, and its stream lists its own definitions only. The library's
// definitions are reported only as far as the test cases use them, as
// cucumber-js would report them were they the project's: see reported.
type builtinLibrary struct {
	opts Options
	// index is what the library registers (nil: no library, or no cache
	// to know it from).
	index *jsbridge.LibraryIndex
}

// newBuiltinLibrary returns the library of opts (opts.Library, nil for
// none), recording its index in the cache the first time. A library that
// does not load alone has no index: the normal load reports its error.
func newBuiltinLibrary(opts Options) *builtinLibrary {
	l := &builtinLibrary{opts: opts}
	if opts.Cache == nil || opts.Library == nil {
		return l
	}
	x := opts.Cache.LibraryIndex(opts.Library)
	if x == nil {
		var err error
		x, err = jsbridge.IndexLibrary(opts.Library, opts.Cache, jsbridge.VMOptions{
			Host: jsbridge.HostBDD, Dir: opts.Dir, Env: opts.Env, Stdout: io.Discard, Stderr: io.Discard,
		})
		if err != nil {
			return l
		}
		opts.Cache.StoreLibraryIndex(opts.Library, x)
	}
	l.index = x
	return l
}

// decided says that what the VMs load does not depend on the features: no
// library, or one loaded in every run. The run then loads it at once,
// while the features parse.
func (l *builtinLibrary) decided() bool {
	return l.opts.Library == nil || l.index == nil || l.index.Extra != ""
}

// bundle bundles the project's entries as the run first evaluates them:
// with the library when it is decided that it loads, else without it.
func (l *builtinLibrary) bundle(entries []string) (*jsbridge.Bundle, error) {
	return bundle(l.opts, entries, l.decided())
}

// load returns what the VMs evaluate for the selected pickles, given the
// project's first bundle b: b itself with the library's stubs when no
// pickle could use the library, else the project bundled with it (and no
// stubs). When decided, b and no stubs.
func (l *builtinLibrary) load(b *jsbridge.Bundle, entries []string, pickles []selectedPickle) (*jsbridge.Bundle, *jsbridge.LibraryIndex, error) {
	if l.decided() {
		return b, nil, nil
	}
	need, err := l.needed(b, pickles)
	if err != nil || !need {
		return b, l.index, err
	}
	withLib, err := bundle(l.opts, entries, true)
	return withLib, nil, err
}

// needed says whether a run of the selected pickles, with the project's
// bundle b, could use the library: a step text that one of the library's
// steps matches (whether or not a project step wins: matching does not
// depend on the project), or project code that imports the library's
// module, could use a library parameter type (a Cucumber Expression naming
// it, a regular expression group with its source) or run a step by its
// text. A dry run runs no step, but code importing the library needs it to
// load.
func (l *builtinLibrary) needed(b *jsbridge.Bundle, pickles []selectedPickle) (bool, error) {
	x := l.index
	if b.ImportsLeftOut() {
		return true, nil
	}
	if l.opts.DryRun {
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

// reported says which definitions of reg the message stream carries for a
// run of pickles, the selected pickles of the whole run (every shard of
// it: the shards of one run report the same definitions, which
// formatters/merge checks): every definition of the project, and of the
// library's only what cucumber-js would need to report those pickles'
// test cases were the library part of the project's support code:
//   - the step definitions their steps match, every one of an ambiguous
//     step included (a project step that matches the same text wins, so a
//     library step it shadows is not referenced);
//   - the parameter types named by the reported step definitions'
//     Cucumber Expressions (a project step may use one of the library's)
//     or by the steps' arguments (a regular expression group);
//   - the test-case hooks that apply to a pickle and the test-run hooks
//     of the library (they run).
//
// So the stream is the same whether the library was loaded or stubbed.
// Step hooks (BeforeStep, AfterStep), the project's too, are not
// reported: cucumber-js 13 reports test-case and test-run hooks only
// (nothing in the stream refers to a step hook). used says that one of
// the library's step definitions is reported: the run uses the library,
// and its undefined steps' suggestions may propose built-in steps (a run
// that does not use it hears of them on stderr).
func (l *builtinLibrary) reported(r *Run, pickles []selectedPickle) (keep func(jsbridge.Def) bool, used bool, err error) {
	reg := r.vm0.Registry()
	steps := map[int]bool{}
	hooks := map[int]bool{}
	names := map[string]bool{}
	texts := map[string]bool{}
	for _, sp := range pickles {
		for _, h := range reg.Hooks {
			if (h.Kind == jsbridge.Before || h.Kind == jsbridge.After) && r.hookApplies(h, sp.tags) {
				hooks[h.Index] = true
			}
		}
		for _, st := range sp.pickle.Steps {
			if texts[st.Text] {
				continue
			}
			texts[st.Text] = true
			pm, err := r.planMatch(st.Text)
			if err != nil {
				return nil, false, err
			}
			for _, d := range pm.defs {
				steps[d] = true
			}
			for _, l := range pm.argLists {
				for _, a := range l.StepMatchArguments {
					if a.ParameterTypeName != nil {
						names[*a.ParameterTypeName] = true
					}
				}
			}
		}
	}
	for i, s := range reg.Steps {
		lib := s.Source.IsLibrary()
		if lib && !steps[i] {
			continue
		}
		used = used || lib
		if !s.IsRegexp {
			for _, n := range paramNames(s.Pattern) {
				names[n] = true
			}
		}
	}
	return func(d jsbridge.Def) bool {
		switch d.Kind {
		case jsbridge.DefStep:
			return !reg.Steps[d.Index].Source.IsLibrary() || steps[d.Index]
		case jsbridge.DefParamType:
			p := reg.ParamTypes[d.Index]
			return !p.Source.IsLibrary() || names[p.Name]
		case jsbridge.DefHook:
			h := reg.Hooks[d.Index]
			switch {
			case h.Kind == jsbridge.BeforeStep || h.Kind == jsbridge.AfterStep:
				return false
			case !h.Source.IsLibrary() || hooks[d.Index]:
				return true
			case h.Kind == jsbridge.BeforeAll || h.Kind == jsbridge.AfterAll:
				// Only a library that is always loaded has them.
				return true
			}
		}
		return false
	}, used, nil
}
