package runner

import (
	"errors"
	"fmt"
	"regexp"

	cukexp "github.com/cucumber/cucumber-expressions/go/v18"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// Library is a project's step files and extensions loaded for a host that
// runs scenarios with its own loop (godogworld/jssteps runs them inside godog): the
// bundle is built once, step text is matched exactly as `ferridriver bdd`
// matches it, and NewVM gives each of the host's workers its own VM.
// Its methods are safe for concurrent use; the VMs it returns are not.
type Library struct {
	run *Run
}

// LoadLibrary bundles the step files (Steps, or DefaultStepPaths when
// empty) and Extensions of opts, after the built-in step library
// (Library, when set), and loads them. Only the options that concern
// loading are used: Dir, Steps, Extensions, Alias, Library, Env,
// ScriptCommands, WorldParameters, Stdout and Stderr. Errors are the
// user's input problems, with file:line:column where there is one.
func LoadLibrary(opts Options) (*Library, error) {
	return loadStepsWith(opts, func(o Options) (*jsbridge.Bundle, error) {
		entries, err := projectEntries(o)
		if err != nil {
			return nil, err
		}
		return bundle(o, entries, true)
	})
}

func loadStepsWith(opts Options, build func(Options) (*jsbridge.Bundle, error)) (*Library, error) {
	if opts.Dir == "" {
		return nil, errors.New("runner: LoadLibrary needs the project directory")
	}
	b, err := build(opts)
	if err != nil {
		return nil, err
	}
	r := &Run{opts: opts, commands: capability.NewSession()}
	if err := r.loadBundle(b); err != nil {
		r.commands.Close()
		return nil, err
	}
	if err := r.define(); err != nil {
		r.vm0.Close()
		r.commands.Close()
		return nil, err
	}
	return &Library{run: r}, nil
}

// Registry describes what the step files registered: step definitions,
// hooks and parameter types. Definition i is the same in every VM of the
// Library. Its definitions must only be invoked on their own VM: use
// vm.Registry() of a VM from NewVM for that.
func (l *Library) Registry() *jsbridge.Registry { return l.run.vm0.Registry() }

// NewVM returns a new VM that evaluated the bundle, for worker (its
// WorkerID), sharing the Library's command session. The caller closes it.
func (l *Library) NewVM(worker int) (*jsbridge.VM, error) {
	vm, err := l.run.newVM(worker)
	if err != nil {
		return nil, err
	}
	if err := sameRegistry(l.Registry(), vm.Registry()); err != nil {
		vm.Close()
		return nil, err
	}
	return vm, nil
}

// Match matches text against step definition def alone, with the
// semantics of `ferridriver bdd` (Cucumber Expressions with the project's
// parameter types, JavaScript regular expressions), and returns the
// arguments to pass to jsbridge.VM.RunStep; ok is false when def does not
// match text.
func (l *Library) Match(def int, text string) (args []jsbridge.StepArg, ok bool, err error) {
	m := l.run.matcher
	if def < 0 || def >= len(m.exprs) {
		return nil, false, fmt.Errorf("runner: no step definition %d", def)
	}
	e, err := m.expression(def)
	if err != nil {
		return nil, false, err
	}
	if e == nil {
		return nil, false, l.undefinedParam(def)
	}
	got, err := e.Match(text)
	if err != nil {
		return nil, false, &DefinitionError{Source: m.defs[def].Source, What: fmt.Sprintf("matching %q", text), Err: err}
	}
	if got == nil {
		return nil, false, nil
	}
	return stepArgs(got), true, nil
}

// Regexp returns a Go (RE2) regular expression that matches the step
// texts definition def matches, for hosts that select definitions by Go
// regular expression, as godog does. A definition that needs JavaScript's
// regular expression engine (lookbehind, backreferences..., or a parameter
// type whose regular expression does), or that names an undefined
// parameter type, is an error naming its source.
func (l *Library) Regexp(def int) (*regexp.Regexp, error) {
	m := l.run.matcher
	if def < 0 || def >= len(m.exprs) {
		return nil, fmt.Errorf("runner: no step definition %d", def)
	}
	d := m.defs[def]
	e, err := m.expression(def)
	if err != nil {
		return nil, err
	}
	switch e := e.(type) {
	case nil:
		return nil, l.undefinedParam(def)
	case *cukexp.CucumberExpression:
		return e.Regexp(), nil
	case *jsExpression:
		if e.params != nil {
			for _, p := range e.params {
				if _, js := m.jsParams[p.Name()]; js {
					return nil, &DefinitionError{Source: d.Source, What: fmt.Sprintf("step %q", d.Pattern),
						Err: fmt.Errorf("parameter type {%s} has a regular expression that only JavaScript's engine compiles, not Go's (RE2)", p.Name())}
				}
			}
		}
		prefix := ""
		for _, f := range d.Flags {
			switch f {
			case 'i', 'm', 's':
				prefix += string(f)
			}
		}
		if prefix != "" {
			prefix = "(?" + prefix + ")"
		}
		if re, ok := compileRE2(prefix + d.Pattern); ok {
			return re, nil
		}
		return nil, &DefinitionError{Source: d.Source, What: fmt.Sprintf("step /%s/%s", d.Pattern, d.Flags),
			Err: errors.New("the regular expression needs JavaScript's engine (lookaround, backreferences...); Go's (RE2) does not compile it")}
	}
	return nil, fmt.Errorf("runner: step definition %d has no regular expression", def)
}

func (l *Library) undefinedParam(def int) error {
	d := l.run.matcher.defs[def]
	u, ok := l.run.matcher.undefinedParams[def]
	if !ok {
		return &DefinitionError{Source: d.Source, What: fmt.Sprintf("step %q", d.Pattern), Err: errors.New("the project replaces a parameter type it uses")}
	}
	name := u.Name
	return &DefinitionError{Source: d.Source, What: fmt.Sprintf("step %q", d.Pattern), Err: fmt.Errorf("undefined parameter type {%s}", name)}
}

// Hooks returns the hooks of kind that apply to a test case with tags, in
// the order `ferridriver bdd` runs them: definition order for Before,
// BeforeStep and BeforeAll, reverse definition order for After, AfterStep
// and AfterAll.
func (l *Library) Hooks(kind jsbridge.HookKind, tags []string) []*jsbridge.HookDef {
	var out []*jsbridge.HookDef
	for _, h := range l.Registry().HooksOf(kind) {
		if l.run.hookApplies(h, tags) {
			out = append(out, h)
		}
	}
	switch kind {
	case jsbridge.After, jsbridge.AfterStep, jsbridge.AfterAll:
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// Close releases the Library's own VM and stops the processes step code
// started through `commands`. VMs from NewVM are the caller's to close.
func (l *Library) Close() {
	l.run.vm0.Close()
	l.run.commands.Close()
}
