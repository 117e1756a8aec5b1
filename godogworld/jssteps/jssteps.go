// Package jssteps adds the project's JavaScript and TypeScript step
// definitions to a godogworld Suite, and reads ferridriver.toml for it
// (LoadOptions), for godog suites that want them: a Go-only suite imports
// package godogworld alone and links none of this (no esbuild, goja or
// viper).
//
// The step files and extensions are bundled once, as for `ferridriver
// bdd`, and each concurrently running scenario runs them in a ferridriver
// VM whose this.page is the page the Go steps see (World.Page). Every
// step definition is registered with godog under a Go regular expression;
// the files' Before, After, BeforeStep and AfterStep hooks run around the
// scenarios. docs/godog.md has the rules.
package jssteps

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cucumber/godog"
	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/config"
	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/browserenv"
	"github.com/ferridriver/ferridriver/world/install"
)

// Options configure a Suite with JavaScript steps: godogworld's options
// and what the steps need.
type Options struct {
	godogworld.Options

	// Dir is the project directory: JavaScript step paths are relative to
	// it and it is process.cwd() of the steps. Empty: the working directory.
	Dir string
	// Steps are JavaScript/TypeScript step files, directories or globs
	// whose step definitions and hooks are added to the godog suite. Each
	// must name at least one file. Empty: none (the Suite has Go steps
	// only).
	Steps []string
	// Extensions are extension files or directories bundled with the steps
	// (their tools are callable from steps through plugins[...]).
	Extensions []string
	// Alias maps import specifiers to others when bundling ([bundler] alias).
	Alias map[string]string
	// WorldParameters is this.parameters of every JavaScript World.
	WorldParameters map[string]any
	// Env is exactly what process.env holds in the steps ([scripting]
	// allowEnv).
	Env map[string]string
	// ScriptCommands are the commands the steps may run ([scripting.allow]).
	ScriptCommands *capability.CommandSet
	// Stdout and Stderr receive the console output of JavaScript steps.
	// Nil: os.Stdout and os.Stderr.
	Stdout, Stderr io.Writer
}

// LoadOptions reads the configuration of the project in dir the way
// `ferridriver bdd` does (ferridriver.toml, .yaml or .json, then
// FERRIDRIVER_* variables): [browser], [test] steps and worldParameters,
// extensions, [bundler] alias and [scripting]. Relative [browser]
// storageState, outputDir and cacheDir are made relative to dir, since a
// godog suite usually runs in its package's directory. Set Steps to nil
// to use the browser alone.
func LoadOptions(dir string) (Options, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Options{}, err
	}
	cfg, err := config.Load(abs, "")
	if err != nil {
		return Options{}, err
	}
	cmds, err := cfg.ScriptCommands()
	if err != nil {
		return Options{}, err
	}
	b := cfg.Browser
	for _, p := range []*string{&b.StorageState, &b.OutputDir, &b.CacheDir} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(abs, *p)
		}
	}
	return Options{
		Options:         godogworld.Options{Browser: b, InstallDriver: install.EnsureDriver},
		Dir:             abs,
		Steps:           cfg.Test.Steps,
		Extensions:      cfg.Extensions,
		Alias:           cfg.Bundler.Alias,
		WorldParameters: cfg.Test.WorldParameters,
		Env:             cfg.ProcessEnv(os.Environ()),
		ScriptCommands:  cmds,
	}, nil
}

// New loads the JavaScript steps of opts (an error names the file and
// line: a step file that does not compile, a definition godog cannot
// match, a Steps entry that names no file) and returns a godogworld Suite
// that runs them beside the Go steps. It starts no browser yet.
func New(opts Options) (*godogworld.Suite, error) {
	if err := opts.Browser.Validate(); err != nil {
		return nil, err // before the steps are bundled
	}
	if len(opts.Steps) == 0 {
		return godogworld.New(opts.Options)
	}
	p, err := NewPlugin(opts)
	if err != nil {
		return nil, err
	}
	o := opts.Options
	o.Plugins = append(append([]godogworld.Plugin(nil), o.Plugins...), p)
	s, err := godogworld.New(o)
	if err != nil {
		_ = p.Close()
		return nil, err
	}
	return s, nil
}

// NewPlugin loads the JavaScript steps of opts as a godogworld.Plugin, for
// a Suite built with godogworld.New (New does both).
func NewPlugin(opts Options) (godogworld.Plugin, error) {
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.Dir = wd
	}
	if err := checkPatterns(opts.Dir, "Steps", opts.Steps); err != nil {
		return nil, err
	}
	if err := checkPatterns(opts.Dir, "Extensions", opts.Extensions); err != nil {
		return nil, err
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(format string, args ...any) {
			fmt.Fprintf(os.Stderr, "ferridriver: "+format+"\n", args...)
		}
	}
	return loadJS(opts, logf)
}

// checkPatterns fails on a file, directory or glob that names no source
// file: every JavaScript step would be undefined, and godog would suggest
// Go snippets for them.
func checkPatterns(dir, field string, patterns []string) error {
	var errs []error
	for _, p := range patterns {
		files, err := jsbridge.Discover(dir, []string{p})
		if err != nil {
			return fmt.Errorf("jssteps: Options.%s: %w", field, err)
		}
		if len(files) == 0 {
			errs = append(errs, fmt.Errorf("jssteps: Options.%s ([test] steps or extensions): %q names no JavaScript or TypeScript file in %s", field, p, dir))
		}
	}
	return errors.Join(errs...)
}

// jsLibrary is the project's JavaScript steps, loaded once per Suite: the
// godogworld.Plugin.
type jsLibrary struct {
	lib   *runner.Library
	steps []godogworld.PluginStep // godog's regular expression of each step definition
	logf  func(format string, args ...any)
}

func loadJS(opts Options, logf func(string, ...any)) (*jsLibrary, error) {
	lib, err := runner.LoadLibrary(runner.Options{
		Dir: opts.Dir, Steps: opts.Steps, Extensions: opts.Extensions, Alias: opts.Alias,
		WorldParameters: opts.WorldParameters, Env: opts.Env, ScriptCommands: opts.ScriptCommands,
		Stdout: opts.Stdout, Stderr: opts.Stderr,
	})
	if err != nil {
		return nil, err
	}
	steps, err := jsSteps(lib, opts.Dir)
	if err != nil {
		lib.Close()
		return nil, err
	}
	return &jsLibrary{lib: lib, steps: steps, logf: logf}, nil
}

// Steps implements godogworld.Plugin.
func (js *jsLibrary) Steps() []godogworld.PluginStep { return js.steps }

// Close implements godogworld.Plugin.
func (js *jsLibrary) Close() error {
	js.lib.Close()
	return nil
}

// jsSteps are the godog regular expressions and source locations of the
// JavaScript step definitions, by definition index.
func jsSteps(lib *runner.Library, dir string) ([]godogworld.PluginStep, error) {
	defs := lib.Registry().Steps
	out := make([]godogworld.PluginStep, len(defs))
	var errs []error
	for i, def := range defs {
		re, err := lib.Regexp(i)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		file := def.Source.URI
		if file != "" && !filepath.IsAbs(file) {
			file = filepath.Join(dir, filepath.FromSlash(file))
		}
		out[i] = godogworld.PluginStep{Expr: re, File: file, Line: def.Source.Line}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("JavaScript step definitions godog cannot match (it matches Go regular expressions):\n%w", errors.Join(errs...))
	}
	return out, nil
}

// jsWorker is a slot's VM, bound to the browser through browserenv: its
// World's this.page, this.context... are those of live, the running
// scenario's session. It is the godogworld.PluginWorker.
type jsWorker struct {
	js  *jsLibrary
	vm  *jsbridge.VM
	env *browserenv.Environment
	we  runner.WorkerEnvironment
	// live is the running scenario's session, shared with the Go steps
	// (closing it leaves the page open: the Suite closes the real one).
	live *world.Session
	// beforeAll is the failure of a BeforeAll hook: every scenario run on
	// this VM fails with it, as no test case runs after one in bdd.
	beforeAll error
	// cur is the running scenario (nil between scenarios, or when the VM
	// could not begin it).
	cur *jsScenario
}

// NewWorker implements godogworld.Plugin: a VM for slot id, whose
// BeforeAll hooks run now.
func (js *jsLibrary) NewWorker(id int, l *world.Launcher) (godogworld.PluginWorker, error) {
	vm, err := js.lib.NewVM(id)
	if err != nil {
		return nil, err
	}
	w := &jsWorker{js: js, vm: vm}
	w.env = browserenv.NewLive(l, func() (*world.Session, error) {
		if w.live == nil {
			return nil, errors.New("no scenario is running")
		}
		return w.live, nil
	}, browserenv.Options{Logf: js.logf})
	if w.we, err = w.env.Worker(id, vm); err != nil {
		vm.Close()
		return nil, err
	}
	if err := w.testRunHooks(jsbridge.BeforeAll); err != nil {
		w.beforeAll = err
	}
	return w, nil
}

// testRunHooks runs the BeforeAll or AfterAll hooks; every one runs, the
// failures are joined.
func (w *jsWorker) testRunHooks(kind jsbridge.HookKind) error {
	reg := w.vm.Registry()
	this := w.vm.RunHookThis()
	var errs []error
	for _, h := range w.js.lib.Hooks(kind, nil) {
		out := w.vm.RunHook(reg.Hooks[h.Index], this, nil, reg.TimeoutFor(h.Timeout))
		if out.Status == messages.TestStepResultStatusFailed {
			errs = append(errs, fmt.Errorf("%s hook (%s): %w", kind, h.Source, failure(out.Err)))
		}
	}
	return errors.Join(errs...)
}

// Close implements godogworld.PluginWorker: it runs the AfterAll hooks
// and releases the VM.
func (w *jsWorker) Close() error {
	err := w.testRunHooks(jsbridge.AfterAll)
	w.we.Close()
	w.vm.Close()
	_ = w.env.Close() // a live environment owns no browser
	return err
}

// jsScenario is the JavaScript side of a running scenario.
type jsScenario struct {
	world  *goja.Object
	pickle *messages.Pickle
	tags   []string
}

// Begin implements godogworld.PluginWorker: it gives the VM the scenario
// (the page to share, a new World), then runs the Before hooks whose tags
// match, in definition order; the first that does not pass ends the
// scenario with its status.
func (w *jsWorker) Begin(_ context.Context, psc *godogworld.PluginScenario) ([]godog.Attachment, error) {
	if w.beforeAll != nil {
		return nil, w.beforeAll
	}
	shared, err := psc.Session.Shared(psc.World.Page)
	if err != nil {
		return nil, err
	}
	p := &messages.Pickle{}
	if err := convert(psc.Pickle, p); err != nil {
		return nil, err
	}
	w.live = shared
	w.we.BeginTestCase(p, 0)
	sc := &jsScenario{pickle: p}
	w.cur = sc
	for _, t := range p.Tags {
		sc.tags = append(sc.tags, t.Name)
	}
	if sc.world, err = w.vm.NewWorld(); err != nil {
		return nil, fmt.Errorf("constructing the World: %w", failure(err))
	}
	var atts []godog.Attachment
	w.vm.SetAttachTarget(collect(&atts))
	defer w.vm.SetAttachTarget(nil)
	reg := w.vm.Registry()
	for _, h := range w.js.lib.Hooks(jsbridge.Before, sc.tags) {
		out := w.vm.RunHook(reg.Hooks[h.Index], sc.world, &jsbridge.HookArg{Pickle: p}, reg.TimeoutFor(h.Timeout))
		if err := outcomeError(out); err != nil {
			return atts, fmt.Errorf("Before hook (%s): %w", h.Source, err)
		}
	}
	return atts, nil
}

// End implements godogworld.PluginWorker: it runs the After hooks whose
// tags match, in reverse definition order, every one, and ends the VM's
// test case (contexts the JavaScript opened are closed; the scenario's own
// is the Suite's to close).
func (w *jsWorker) End(psc *godogworld.PluginScenario) ([]godog.Attachment, error) {
	sc := w.cur
	if sc == nil {
		return nil, nil
	}
	w.cur = nil
	scenarioErr := psc.Err
	failed := scenarioErr != nil && !errors.Is(scenarioErr, godog.ErrSkip)
	var atts []godog.Attachment
	var errs []error
	if sc.world != nil {
		w.vm.SetAttachTarget(collect(&atts))
		reg := w.vm.Registry()
		res := resultOf(scenarioErr)
		arg := &jsbridge.HookArg{Pickle: sc.pickle, AfterSteps: true, Result: &res, Error: scenarioErr}
		for _, h := range w.js.lib.Hooks(jsbridge.After, sc.tags) {
			out := w.vm.RunHook(reg.Hooks[h.Index], sc.world, arg, reg.TimeoutFor(h.Timeout))
			if out.Status == messages.TestStepResultStatusFailed {
				errs = append(errs, fmt.Errorf("After hook (%s): %w", h.Source, failure(out.Err)))
			}
		}
		w.vm.SetAttachTarget(nil)
	}
	w.we.EndTestCase(failed)
	w.live = nil
	return atts, errors.Join(errs...)
}

// RunStep implements godogworld.PluginWorker: it runs JavaScript step
// definition i for godog's step st. godog chose it by its regular
// expression; the arguments are matched again with bdd's semantics
// (parameter types and their transformers, JavaScript regular
// expressions), and the BeforeStep and AfterStep hooks run around it, as
// in bdd.
func (w *jsWorker) RunStep(_ context.Context, i int, _ *godogworld.PluginScenario, st *godog.Step) ([]godog.Attachment, error) {
	sc := w.cur
	if sc == nil || sc.world == nil || st == nil {
		return nil, errors.New("jssteps: a JavaScript step ran in a scenario whose VM did not begin it")
	}
	js := w.js
	args, ok, err := js.lib.Match(i, st.Text)
	if err != nil {
		return nil, err
	}
	reg := w.vm.Registry()
	def := reg.Steps[i]
	if !ok {
		return nil, fmt.Errorf("godog matched %q with the step definition at %s, but its JavaScript expression does not match it", st.Text, def.Source)
	}
	var stepArg *messages.PickleStepArgument
	if st.Argument != nil {
		stepArg = &messages.PickleStepArgument{}
		if err := convert(st.Argument, stepArg); err != nil {
			return nil, err
		}
	}
	pickleStep := &messages.PickleStep{}
	if err := convert(st, pickleStep); err != nil {
		return nil, err
	}
	var atts []godog.Attachment
	w.vm.SetAttachTarget(collect(&atts))
	defer w.vm.SetAttachTarget(nil)
	arg := &jsbridge.HookArg{Pickle: sc.pickle, PickleStep: pickleStep}
	for _, h := range js.lib.Hooks(jsbridge.BeforeStep, sc.tags) {
		if out := w.vm.RunHook(reg.Hooks[h.Index], sc.world, arg, reg.TimeoutFor(h.Timeout)); out.Status != messages.TestStepResultStatusPassed {
			return atts, outcomeError(out)
		}
	}
	out := w.vm.RunStep(def, sc.world, args, stepArg, reg.TimeoutFor(def.Timeout))
	for _, h := range js.lib.Hooks(jsbridge.AfterStep, sc.tags) {
		res := resultOf(outcomeError(out))
		arg.Result = &res
		ho := w.vm.RunHook(reg.Hooks[h.Index], sc.world, arg, reg.TimeoutFor(h.Timeout))
		if ho.Status == messages.TestStepResultStatusFailed && out.Status != messages.TestStepResultStatusFailed {
			out = ho
		}
	}
	return atts, outcomeError(out)
}

// outcomeError maps a step's or hook's outcome to what godog expects of a
// step function: nil, godog.ErrPending, godog.ErrSkip or the failure.
func outcomeError(out jsbridge.Outcome) error {
	switch out.Status {
	case messages.TestStepResultStatusPassed:
		return nil
	case messages.TestStepResultStatusPending:
		if out.Err != nil {
			return fmt.Errorf("%w: %v", godog.ErrPending, out.Err)
		}
		return godog.ErrPending
	case messages.TestStepResultStatusSkipped:
		if out.Err != nil {
			return fmt.Errorf("%w: %v", godog.ErrSkip, out.Err)
		}
		return godog.ErrSkip
	}
	if out.Err == nil {
		return fmt.Errorf("the step ended %s", out.Status)
	}
	return failure(out.Err)
}

// resultOf is the result JavaScript hooks see (their result argument) for
// a godog step or scenario error.
func resultOf(err error) messages.TestStepResult {
	status := messages.TestStepResultStatusFailed
	switch {
	case err == nil:
		status = messages.TestStepResultStatusPassed
	case errors.Is(err, godog.ErrPending):
		status = messages.TestStepResultStatusPending
	case errors.Is(err, godog.ErrSkip):
		status = messages.TestStepResultStatusSkipped
	case errors.Is(err, godog.ErrUndefined):
		status = messages.TestStepResultStatusUndefined
	case errors.Is(err, godog.ErrAmbiguous):
		status = messages.TestStepResultStatusAmbiguous
	}
	r := messages.TestStepResult{Status: status}
	if err != nil {
		r.Message = messages.Ptr(err.Error())
	}
	return r
}

// jsError is a JavaScript failure reported with its stack (the user's
// file:line, through the source map), as bdd reports it.
type jsError struct {
	err   error
	stack string
}

func (e *jsError) Error() string { return e.stack }
func (e *jsError) Unwrap() error { return e.err }

func failure(err error) error {
	var je *jsbridge.JSError
	if errors.As(err, &je) && je.Stack != "" {
		return &jsError{err: err, stack: je.Stack}
	}
	return err
}

// collect returns an attach target that appends the attachments of
// this.attach, this.log and this.link to *out, as godog attachments.
func collect(out *[]godog.Attachment) jsbridge.AttachFunc {
	return func(a *messages.Attachment) {
		body := []byte(a.Body)
		if a.ContentEncoding == messages.AttachmentContentEncodingBase64 {
			b, err := base64.StdEncoding.DecodeString(a.Body)
			if err != nil {
				return // the VM encodes it: cannot happen
			}
			body = b
		}
		name := ""
		if a.FileName != nil {
			name = *a.FileName
		}
		*out = append(*out, godog.Attachment{Body: body, FileName: name, MediaType: a.MediaType})
	}
}

// convert copies a godog message (Cucumber Messages v21) into ferridriver's
// protocol type through their common JSON form.
func convert(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}
