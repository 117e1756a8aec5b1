package jsbridge

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/internal/slashpath"
)

// ExtensionSet is the configured extension files of the mcp and script
// hosts (and of `ferridriver extensions`). Each file is bundled on its own
// (with what it imports), so that a file that fails to bundle or to load
// is reported with its name and the others still load. Files share the
// VM's globals but not module instances: a helper imported by two files is
// evaluated once per file. (ferridriver bdd bundles step files and
// extensions as one module instead, and any failure stops the run.)
type ExtensionSet struct {
	// Dir is the project directory.
	Dir string
	// Files are the discovered files, sorted by path.
	Files []*ExtensionFile
}

// ExtensionFile is one extension file of a set.
type ExtensionFile struct {
	// Path is the absolute path; URI is relative to the project directory,
	// slash-separated.
	Path string
	URI  string
	// Bundle is the compiled file; nil when BuildErr is set, unless the
	// file's last good build is kept (see KeepLastGood).
	Bundle   *Bundle
	BuildErr error
}

// KeepLastGood gives each file of s that failed to build the bundle it had
// in prev, when it built there: a file being edited keeps serving its
// last good tools while its error is reported.
func (s *ExtensionSet) KeepLastGood(prev *ExtensionSet) {
	if prev == nil {
		return
	}
	good := map[string]*Bundle{}
	for _, f := range prev.Files {
		if f.Bundle != nil {
			good[f.Path] = f.Bundle
		}
	}
	for _, f := range s.Files {
		if f.BuildErr != nil && f.Bundle == nil {
			f.Bundle = good[f.Path]
		}
	}
}

// FileError is an extension file that failed to bundle or to load.
type FileError struct {
	File string // URI
	Err  error
}

func (e *FileError) Error() string {
	msg := e.Err.Error()
	if strings.HasPrefix(msg, e.File+":") {
		return msg // a load error already starts with file:line
	}
	return e.File + ": " + msg
}

func (e *FileError) Unwrap() error { return e.Err }

// BuildExtensions discovers the extension files named by patterns (files,
// directories walked recursively, globs; relative to dir) with Discover,
// the walker step files use, and bundles each one. A discovery problem is
// an error; a file that does not bundle is kept with its BuildErr.
func BuildExtensions(dir string, patterns []string, alias map[string]string) (*ExtensionSet, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	files, err := Discover(abs, patterns)
	if err != nil {
		return nil, fmt.Errorf("extensions: %w", err)
	}
	set := &ExtensionSet{Dir: abs}
	for _, f := range files {
		ef := &ExtensionFile{Path: f, URI: slashpath.Rel(abs, f)}
		ef.Bundle, ef.BuildErr = Build(BundleOptions{Entries: []string{f}, Dir: abs, Alias: alias})
		set.Files = append(set.Files, ef)
	}
	return set, nil
}

// Without returns the set minus the file at path (a script run with
// `ferridriver run` that also lies in an extension directory is loaded
// once, as the script).
func (s *ExtensionSet) Without(path string) *ExtensionSet {
	abs, _ := filepath.Abs(path)
	out := &ExtensionSet{Dir: s.Dir}
	for _, f := range s.Files {
		if f.Path != abs {
			out.Files = append(out.Files, f)
		}
	}
	return out
}

// Load evaluates every file of the set in vm, in path order. A file that
// did not bundle, or whose top level throws (a defineTool error such as a
// duplicate or blank name or an invalid inputSchema included), is returned
// as a *FileError, and what it registered is removed; the other files
// load. Loop goroutine only.
func (s *ExtensionSet) Load(vm *VM) []*FileError {
	var errs []*FileError
	for _, f := range s.Files {
		if f.BuildErr != nil {
			if f.Bundle != nil {
				errs = append(errs, &FileError{File: f.URI, Err: fmt.Errorf("%w (its last good build is still served)", f.BuildErr)})
			} else {
				errs = append(errs, &FileError{File: f.URI, Err: f.BuildErr})
				continue
			}
		}
		if err := vm.Evaluate(f.Bundle, f.URI, vm.opts.LoadTimeout); err != nil {
			errs = append(errs, &FileError{File: f.URI, Err: err})
		}
	}
	if err := vm.registry.finish(); err != nil {
		errs = append(errs, &FileError{File: "setDefinitionFunctionWrapper", Err: vm.toJSError(err)})
	}
	return errs
}

// Evaluate runs a bundle's top level in the VM as one unit (an extension
// file, or the script of `ferridriver run`): registration functions
// (defineTool, Given...) may be called, top-level await is awaited, and the
// whole is bounded by timeout (zero: none). unit names the file for the
// tools it registers ("" for the bundle of a BDD run: each tool's File is
// then its source file). When it throws, the definitions it
// registered are removed and a *LoadError is returned. Loop goroutine only.
func (vm *VM) Evaluate(b *Bundle, unit string, timeout time.Duration) error {
	r := vm.registry
	mark := [5]int{len(r.Steps), len(r.Hooks), len(r.ParamTypes), len(r.Tools), len(r.Order)}
	st := vm.toolsOf()
	prevUnit, prevLoading := st.unit, vm.loading
	st.unit, vm.loading = unit, true
	defer func() { st.unit, vm.loading = prevUnit, prevLoading }()
	name := unit
	if name == "" {
		name = "step files and extensions"
	}
	what := "loading " + name
	err := func() error {
		prg, err := b.Program()
		if err != nil {
			return err
		}
		v, err := vm.rt.RunProgram(prg)
		if err != nil {
			return &LoadError{Err: vm.toJSError(err)}
		}
		fn, ok := goja.AssertFunction(v)
		if !ok {
			return &LoadError{Err: fmt.Errorf("%s: the bundle is not a function", name)}
		}
		if _, err := vm.Call(fn, goja.Undefined(), nil, timeout, what); err != nil {
			return &LoadError{Err: err}
		}
		return nil
	}()
	if err != nil {
		r.Steps, r.Hooks, r.ParamTypes, r.Tools, r.Order = r.Steps[:mark[0]], r.Hooks[:mark[1]], r.ParamTypes[:mark[2]], r.Tools[:mark[3]], r.Order[:mark[4]]
	}
	return err
}
