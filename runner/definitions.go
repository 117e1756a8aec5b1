package runner

import (
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// Definitions are the step definitions and parameter types of a project:
// its step files, extensions and the built-in library, bundled and
// evaluated in one VM as `bdd` loads them, but with no feature and no
// browser. `ferridriver steps` lists them; tests match step text against
// them with the matcher a run uses.
type Definitions struct {
	vm       *jsbridge.VM
	matcher  *matcher
	commands *capability.Session
}

// LoadDefinitions bundles and evaluates the step files, extensions and
// library of opts (Dir, Steps, Extensions, Alias, Library, Env,
// ScriptCommands, WorldParameters and the outputs; the rest is ignored).
// Its errors are the user's input problems, as Prepare's: a step file
// that does not compile, an invalid expression or regular expression.
// Close releases the VM.
func LoadDefinitions(opts Options) (*Definitions, error) {
	return loadDefinitions(opts, true)
}

// LoadLibrary is LoadDefinitions of opts.Library alone: the project's step
// files and extensions are not read (a project without any). A nil
// Library loads nothing.
func LoadLibrary(opts Options) (*Definitions, error) {
	return loadDefinitions(opts, false)
}

func loadDefinitions(opts Options, project bool) (*Definitions, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	var b *jsbridge.Bundle
	if project {
		b, err = bundle(opts)
	} else {
		b, err = jsbridge.Build(jsbridge.BundleOptions{Dir: opts.Dir, Alias: opts.Alias, Library: opts.Library})
	}
	if err != nil {
		return nil, err
	}
	commands := capability.NewSession()
	vm, err := newVM(opts, b, 0, commands)
	if err != nil {
		commands.Close()
		return nil, err
	}
	m, err := newMatcher(vm.Registry())
	if err != nil {
		vm.Close()
		commands.Close()
		return nil, err
	}
	return &Definitions{vm: vm, matcher: m, commands: commands}, nil
}

// Registry is what the code registered: steps, parameter types, hooks, in
// definition order (the library's first).
func (d *Definitions) Registry() *jsbridge.Registry { return d.vm.Registry() }

// Match returns the step definitions that match a step's text as `bdd`
// matches it: a project definition wins over built-in ones; none means the
// step is undefined, more than one that it is ambiguous. A definition
// whose expression names an unknown parameter type matches nothing.
func (d *Definitions) Match(text string) ([]*jsbridge.StepDef, error) {
	found, err := d.matcher.match(text)
	if err != nil {
		return nil, err
	}
	out := make([]*jsbridge.StepDef, len(found))
	for i, f := range found {
		out[i] = d.matcher.defs[f.def]
	}
	return out, nil
}

// Suggest returns the built-in steps closest to a step's text, best first
// (at most three, none when nothing comes close): what an undefined step's
// suggestion proposes.
func (d *Definitions) Suggest(text string) []Suggestion {
	return d.matcher.closestBuiltins(text)
}

// Close releases the VM and any process its code started.
func (d *Definitions) Close() {
	d.vm.Close()
	d.commands.Close()
}
