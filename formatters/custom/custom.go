// Package custom runs cucumber-js custom formatters as formats of the
// stream: `--format ./reporter.js[:file]`, a `format` entry of a
// cucumber-js configuration, or a formatter package from node_modules
// (`@cucumber/pretty-formatter`, `allure-cucumberjs/reporter`). Each is
// bundled with esbuild and runs in a JavaScript VM of its own, on a
// goroutine of its own, where it receives the run's envelopes through
// cucumber-js's formatter API (jsbridge.StartFormatter): it sees every
// envelope in stream order, and a slow formatter never holds up the run.
package custom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

// Options are what every custom formatter of a run shares.
type Options struct {
	// Dir is the project directory: relative module paths and
	// node_modules are resolved from it, and it is the formatters' cwd.
	Dir string
	// Env is process.env in the formatters' VMs.
	Env map[string]string
	// Stdout and Stderr receive the formatters' console output.
	Stdout, Stderr io.Writer
	// Alias and Cache are the bundler's, as for step files.
	Alias map[string]string
	Cache *jsbridge.Cache
	// EnvelopeTimeout bounds a formatter's handling of one envelope,
	// FinishTimeout its finished() (zero: 60 s each).
	EnvelopeTimeout, FinishTimeout time.Duration
}

// Factory returns a formatters.Options.Custom that builds the custom
// formatter a format name names.
func Factory(o Options) func(formatters.Spec, formatters.Options) (formatters.Formatter, error) {
	return func(sp formatters.Spec, fo formatters.Options) (formatters.Formatter, error) {
		return New(sp, fo, o)
	}
}

// IsModuleSpecifier reports whether a format name can only be a module
// (a path or a file: URL) rather than a format or package name.
func IsModuleSpecifier(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "/") || strings.HasPrefix(name, "file://") || filepath.IsAbs(name)
}

// specifier is the import specifier of the formatter a format names: a
// path stays a path (a file: URL becomes one), anything else is a package.
func specifier(name string) (string, error) {
	if strings.HasPrefix(name, "file://") {
		u, err := url.Parse(name)
		if err != nil {
			return "", err
		}
		return u.Path, nil
	}
	return name, nil
}

// New starts the custom formatter sp names, writing to fo.Out. The module
// is bundled and evaluated before New returns: a module that cannot be
// found, does not load, or exports no formatter is an error then, before
// the run (formatters.NewSet prefixes it with the --format value).
func New(sp formatters.Spec, fo formatters.Options, o Options) (formatters.Formatter, error) {
	spec, err := specifier(sp.Name)
	if err != nil {
		return nil, err
	}
	b, err := jsbridge.Build(jsbridge.BundleOptions{Dir: o.Dir, Module: spec, Alias: o.Alias, Cache: o.Cache})
	if err != nil {
		if !IsModuleSpecifier(sp.Name) && strings.Contains(err.Error(), "Could not resolve") {
			return nil, fmt.Errorf("unknown format %q: not one of ferridriver's formats (%s), nor a formatter module or package found from %s (%v)",
				sp.Name, strings.Join(formatters.Names(), ", "), o.Dir, err)
		}
		return nil, err
	}
	f := &formatter{out: fo.Out, fo: fo, o: o, done: make(chan struct{})}
	ready := make(chan error, 1)
	go f.run(b, sp, ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return f, nil
}

// formatter is one custom formatter: its VM lives on the goroutine run
// started, which receives the envelopes Handle queues on the VM's loop.
type formatter struct {
	out io.Writer
	fo  formatters.Options
	o   Options

	vm     *jsbridge.VM
	js     *jsbridge.Formatter
	closed func() // on the VM's goroutine: ends run's wait
	failed atomic.Pointer[error]
	done   chan struct{}
	err    error // run's result, read after done

	// On the VM's goroutine: the built-in formats JsonFormatter and the
	// usage formatters print, fed the same envelopes, and the envelopes
	// seen before the formatter was constructed (a built-in made then
	// starts with them).
	builtins  []formatters.Formatter
	history   []*messages.Envelope
	pastStart bool

	closeOnce sync.Once
}

func (f *formatter) run(b *jsbridge.Bundle, sp formatters.Spec, ready chan<- error) {
	defer close(f.done)
	vm, err := jsbridge.NewVM(nil, jsbridge.VMOptions{Host: jsbridge.HostBDD, Dir: f.o.Dir, Env: f.o.Env, Stdout: f.o.Stdout, Stderr: f.o.Stderr})
	if err != nil {
		ready <- err
		return
	}
	defer vm.Close()
	f.vm = vm
	js, err := vm.StartFormatter(b, jsbridge.FormatterOptions{
		Specifier:       sp.Name,
		Cwd:             f.o.Dir,
		FormatOptions:   f.fo.FormatOptions,
		Color:           f.fo.Color,
		IsTTY:           f.fo.TTY,
		File:            sp.Path,
		Write:           f.write,
		Builtin:         f.builtin,
		EnvelopeTimeout: f.o.EnvelopeTimeout,
		FinishTimeout:   f.o.FinishTimeout,
	})
	if err != nil {
		ready <- err
		return
	}
	p, resolve, _ := vm.Runtime().NewPromise()
	f.js, f.closed = js, func() { resolve(goja.Undefined()) }
	ready <- nil
	// Envelopes (deliver) and the end (closed) arrive as tasks of the loop.
	vm.Loop().Await(p, time.Time{})
	if f.failed.Load() != nil {
		return
	}
	err = js.Finish()
	for _, bf := range f.builtins {
		if cerr := bf.Close(); err == nil {
			err = cerr
		}
	}
	f.err = err
}

// Handle queues env for the formatter; an error says the formatter failed
// on an earlier envelope (it then receives no more).
func (f *formatter) Handle(env *messages.Envelope) error {
	if p := f.failed.Load(); p != nil {
		return *p
	}
	f.vm.Loop().Enqueue(nil, func() { f.deliver(env) })
	return nil
}

// deliver runs on the VM's goroutine, so that encoding the envelope for
// JavaScript costs the run's stream nothing (envelopes are not changed
// once emitted).
func (f *formatter) deliver(env *messages.Envelope) {
	if f.failed.Load() != nil {
		return
	}
	data, err := json.Marshal(env)
	if err != nil {
		f.fail(err)
		return
	}
	for _, bf := range f.builtins {
		if err := bf.Handle(env); err != nil {
			f.fail(err)
			return
		}
	}
	if !f.pastStart {
		f.history = append(f.history, env)
	}
	if err := f.js.Envelope(data); err != nil {
		f.fail(err)
		return
	}
	if !f.pastStart && !preamble(env) {
		f.pastStart, f.history = true, nil
	}
}

// fail records the formatter's failure and ends its goroutine (on the VM's
// goroutine): nothing more runs in its VM.
func (f *formatter) fail(err error) {
	f.failed.CompareAndSwap(nil, &err)
	f.vm.Loop().Stop()
}

// Close ends the stream for the formatter, awaits its finished() and
// returns what failed.
func (f *formatter) Close() error {
	f.closeOnce.Do(func() {
		f.vm.Loop().Enqueue(nil, f.closed)
		<-f.done
	})
	if p := f.failed.Load(); p != nil {
		return *p
	}
	return f.err
}

func (f *formatter) write(b []byte) error {
	_, err := f.out.Write(b)
	return err
}

// builtin starts ferridriver's own format name, fed the envelopes seen so
// far, and returns what it wrote (JsonFormatter prints it).
func (f *formatter) builtin(name string) (func() string, error) {
	switch name {
	case "json", "usage", "usage-json":
	default:
		return nil, fmt.Errorf("no built-in report %q for a formatter class", name)
	}
	if f.pastStart {
		return nil, errors.New("the formatter classes printing built-in reports (JsonFormatter, UsageFormatter, UsageJsonFormatter) must be constructed with the formatter, not later")
	}
	var buf bytes.Buffer
	bf, err := formatters.New(name, formatters.Options{Out: &buf, FormatOptions: f.fo.FormatOptions, Cwd: f.fo.Cwd, Seed: f.fo.Seed})
	if err != nil {
		return nil, err
	}
	for _, env := range f.history {
		if err := bf.Handle(env); err != nil {
			return nil, err
		}
	}
	f.builtins = append(f.builtins, bf)
	return buf.String, nil
}

// preamble reports whether env comes before a run's test cases: the
// sources, pickles and definitions a formatter is built after.
func preamble(env *messages.Envelope) bool {
	return env.Meta != nil || env.Source != nil || env.GherkinDocument != nil || env.Pickle != nil ||
		env.StepDefinition != nil || env.Hook != nil || env.ParameterType != nil || env.UndefinedParameterType != nil || env.ParseError != nil
}
