package jsbridge

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// LibraryIndex is what a library's evaluation registers, in order, without
// the functions: recorded once per library (in the Cache), it lets a run
// that has no use for the library leave it unloaded. A VM created with it
// as VMOptions.Stubs starts with those definitions in its Registry, at the
// indexes the library's evaluation would give them, without their
// functions. Which library definitions a run loads and reports is the
// runner's decision (runner/builtins.go); the index only records facts.
type LibraryIndex struct {
	Steps      []StepDef      `json:"steps"`
	Hooks      []HookDef      `json:"hooks"`
	ParamTypes []ParamTypeDef `json:"paramTypes"`
	Order      []Def          `json:"order"`
	// Extra names the first thing the library does at load besides
	// registering steps, parameter types and step hooks (BeforeStep,
	// AfterStep): a test-case or test-run hook, a World constructor, a
	// default timeout, a function wrapper, a tool, wrapper options...; ""
	// when it does nothing else.
	Extra string `json:"extra,omitempty"`
}

// IndexLibrary evaluates lib alone in a new VM (configured by opts) and
// returns what it registers.
func IndexLibrary(lib *Library, cache *Cache, opts VMOptions) (*LibraryIndex, error) {
	b, err := Build(BundleOptions{Dir: opts.Dir, Library: lib, Cache: cache})
	if err != nil {
		return nil, err
	}
	vm, err := NewVM(b, opts)
	if err != nil {
		return nil, err
	}
	defer vm.Close()
	return vm.registry.index(), nil
}

// index describes a registry that holds the library's definitions alone.
func (r *Registry) index() *LibraryIndex {
	x := &LibraryIndex{Order: append([]Def(nil), r.Order...)}
	extra := func(what string) {
		if x.Extra == "" {
			x.Extra = what
		}
	}
	for _, s := range r.Steps {
		d := *s
		if d.WrapperOptions != nil {
			extra(fmt.Sprintf("step %q has wrapperOptions", d.Pattern))
		}
		d.WrapperOptions, d.fn, d.fnValue = nil, nil, nil
		x.Steps = append(x.Steps, d)
	}
	for _, h := range r.Hooks {
		if h.Kind != BeforeStep && h.Kind != AfterStep {
			extra(h.Kind.String() + " hook at " + h.Source.String())
		}
		d := *h
		d.fn, d.fnValue = nil, nil
		x.Hooks = append(x.Hooks, d)
	}
	for _, p := range r.ParamTypes {
		d := *p
		d.transformer = nil
		x.ParamTypes = append(x.ParamTypes, d)
	}
	switch {
	case len(r.Tools) > 0:
		extra("a tool")
	case r.worldCtor != nil:
		extra("a World constructor")
	case r.wrapper != nil:
		extra("a definition function wrapper")
	case r.defaultTimeoutSet:
		extra("a default timeout")
	}
	return x
}

// StubRegistry returns a registry holding the index's definitions alone,
// as stubs.
func StubRegistry(x *LibraryIndex) *Registry {
	r := newRegistry()
	r.preset(x)
	return r
}

// preset fills an empty registry with the index's definitions, as stubs.
func (r *Registry) preset(x *LibraryIndex) {
	for i := range x.Steps {
		d := x.Steps[i]
		d.stub = true
		r.Steps = append(r.Steps, &d)
	}
	for i := range x.Hooks {
		d := x.Hooks[i]
		d.stub = true
		r.Hooks = append(r.Hooks, &d)
	}
	for i := range x.ParamTypes {
		d := x.ParamTypes[i]
		d.stub = true
		r.ParamTypes = append(r.ParamTypes, &d)
	}
	r.Order = append(r.Order, x.Order...)
}

// errStub is the failure of a definition of a library that was not
// loaded: the runner loads the library whenever a test case could use it,
// so this is a bug of that decision (runner/builtins.go).
var errStub = errors.New("ferridriver did not load its built-in step library for this run, but a step used it (please report this; [test] builtinSteps = false avoids it)")

// libraryIndexEntry is an index in the Cache.
type libraryIndexEntry struct {
	Format string        `json:"format"`
	Index  *LibraryIndex `json:"index"`
}

// LibraryIndex returns the index of lib recorded in the cache (nil when
// there is none: see StoreLibraryIndex).
func (c *Cache) LibraryIndex(lib *Library) *LibraryIndex {
	key, err := lib.LibraryKey()
	if err != nil {
		return nil
	}
	data, err := os.ReadFile(c.path(key, ".index.json"))
	if err != nil {
		return nil
	}
	var e libraryIndexEntry
	if json.Unmarshal(data, &e) != nil || e.Format != cacheFormat || e.Index == nil {
		return nil
	}
	c.used(key, ".index.json")
	return e.Index
}

// StoreLibraryIndex records the index of lib (errors are ignored: the
// cache is only an optimisation).
func (c *Cache) StoreLibraryIndex(lib *Library, x *LibraryIndex) {
	key, err := lib.LibraryKey()
	if err != nil {
		return
	}
	data, err := json.Marshal(libraryIndexEntry{Format: cacheFormat, Index: x})
	if err != nil {
		return
	}
	_ = writeAtomic(c.path(key, ".index.json"), data)
	c.prune()
}

// IsStub reports whether the step definition stands for a library that is
// not loaded in its VM.
func (d *StepDef) IsStub() bool { return d.stub }

// IsStub reports whether the hook stands for a library that is not loaded
// in its VM.
func (h *HookDef) IsStub() bool { return h.stub }
