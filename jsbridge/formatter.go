package jsbridge

import (
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// cucumber-js's formatter API: the exports of @cucumber/cucumber that
// formatters use (Formatter, SummaryFormatter..., formatterHelpers,
// FormatterBuilder) are cucumber-js 13's own modules, packed at build time
// from the npm package (tools/polyfills/cucumber.js) and loaded one module
// at a time when code first touches an export, so step VMs that never do
// pay nothing for them. formatter.js is ferridriver's glue: the classes of
// the reports ferridriver writes itself (JsonFormatter, UsageFormatter,
// UsageJsonFormatter print them), and the host that runs one custom
// formatter over a run's envelopes (StartFormatter).

//go:embed formatter.js
var formatterSource string

const formatterName = "ferridriver-formatter.js"

var (
	formatterOnce sync.Once
	formatterPrg  *goja.Program
	formatterErr  error
)

// formatterExports are the exports of @cucumber/cucumber that come from
// cucumber-js's formatter API (tools/polyfills/cucumber.js) as they are.
var formatterExports = []string{
	"Formatter", "ProgressFormatter", "RerunFormatter", "SnippetsFormatter", "SummaryFormatter", "TestCaseHookDefinition",
	"formatterHelpers", "parallelCanAssignHelpers", "wrapPromiseWithTimeout", "HookTarget", "version",
}

// reportFormatterExports are the formatter classes of ferridriver's own
// reports (formatter.js), and FormatterBuilder, whose registry names them.
var reportFormatterExports = []string{"JsonFormatter", "UsageFormatter", "UsageJsonFormatter", "FormatterBuilder"}

// supportCodeLibraryMethods are the registration functions cucumber-js's
// supportCodeLibraryBuilder.methods holds: ferridriver's.
var supportCodeLibraryMethods = []string{
	"After", "AfterAll", "AfterStep", "Before", "BeforeAll", "BeforeStep", "defineStep", "defineParameterType", "Given",
	"setDefaultTimeout", "setDefinitionFunctionWrapper", "setWorldConstructor", "setParallelCanAssign", "Then", "When",
}

// installFormatterExports defines the formatter API's exports on the
// module's exports object as getters that load cucumber-js's module of
// each on first use.
func (vm *VM) installFormatterExports(exports *goja.Object) {
	rt := vm.rt
	getter := func(name string, from func() (goja.Value, error)) {
		get := rt.ToValue(func(goja.FunctionCall) goja.Value {
			v, err := from()
			if err != nil {
				panic(ErrorValue(rt, err))
			}
			var out goja.Value
			if ex := rt.Try(func() { out = v.ToObject(rt).Get(name) }); ex != nil {
				panic(ErrorValue(rt, fmt.Errorf("ferridriver's formatter API: %s: %w", name, vm.toJSError(ex))))
			}
			return out
		})
		exports.DefineAccessorProperty(name, get, nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	for _, name := range formatterExports {
		getter(name, func() (goja.Value, error) { return vm.polyfill("cucumber") })
	}
	for _, name := range reportFormatterExports {
		getter(name, func() (goja.Value, error) {
			h, err := vm.formatterHost()
			if err != nil {
				return nil, err
			}
			return h.Get("api"), nil
		})
	}
	// cucumber-js's builder is its support code loader; what user code
	// reaches of it is methods, the registration functions.
	get := rt.ToValue(func(goja.FunctionCall) goja.Value {
		methods := rt.NewObject()
		for _, name := range supportCodeLibraryMethods {
			methods.Set(name, vm.cucumber.Get(name))
		}
		b := rt.NewObject()
		b.Set("methods", methods)
		freeze, _ := goja.AssertFunction(rt.Get("Object").ToObject(rt).Get("freeze"))
		_, _ = freeze(goja.Undefined(), methods)
		_, _ = freeze(goja.Undefined(), b)
		return b
	})
	exports.DefineAccessorProperty("supportCodeLibraryBuilder", get, nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

type formatterHostKey struct{}

// formatterHost evaluates formatter.js in the VM (once) and returns its
// { api, createHost, streamSupportCodeLibrary }.
func (vm *VM) formatterHost() (*goja.Object, error) {
	if o, ok := vm.locals[formatterHostKey{}].(*goja.Object); ok {
		return o, nil
	}
	formatterOnce.Do(func() {
		formatterPrg, formatterErr = goja.Compile(formatterName, formatterSource, true)
	})
	if formatterErr != nil {
		return nil, fmt.Errorf("ferridriver's formatter host: %w", formatterErr)
	}
	cucumber, err := vm.polyfill("cucumber")
	if err != nil {
		return nil, err
	}
	v, err := vm.rt.RunProgram(formatterPrg)
	if err != nil {
		return nil, fmt.Errorf("ferridriver's formatter host: %w", vm.toJSError(err))
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return nil, errors.New("ferridriver's formatter host: not a function")
	}
	rt := vm.rt
	natives := rt.NewObject()
	natives.Set("cucumber", cucumber)
	natives.Set("World", vm.prelude.Get("World"))
	natives.Set("require", func(call goja.FunctionCall) goja.Value {
		v, err := vm.require(call.Argument(0).String())
		if err != nil {
			panic(ErrorValue(rt, err))
		}
		return v
	})
	natives.Set("builtin", func(call goja.FunctionCall) goja.Value {
		f := vm.formatterRun
		if f == nil || f.opts.Builtin == nil {
			return goja.Null()
		}
		report, err := f.opts.Builtin(call.Argument(0).String())
		if err != nil {
			panic(ErrorValue(rt, err))
		}
		return rt.ToValue(func(goja.FunctionCall) goja.Value { return rt.ToValue(report()) })
	})
	out, err := fn(goja.Undefined(), natives)
	if err != nil {
		return nil, fmt.Errorf("ferridriver's formatter host: %w", vm.toJSError(err))
	}
	o := out.ToObject(vm.rt)
	vm.locals[formatterHostKey{}] = o
	return o, nil
}

// FormatterOptions configure one custom formatter (VM.StartFormatter).
type FormatterOptions struct {
	// Specifier names the formatter as the user did (--format), for
	// messages.
	Specifier string
	// Cwd is the formatter's cwd option (the project directory).
	Cwd string
	// FormatOptions are the merged --format-options: parsedArgvOptions, or
	// a plugin's options.
	FormatOptions map[string]any
	// Color says whether the formatter's output takes colours (decided
	// as for the built-in formats; FORCE_COLOR in its process.env carries
	// it); IsTTY sets stream.isTTY.
	Color, IsTTY bool
	// File is the output file, "" for stdout: the formatter's cleanup
	// ends its stream only for a file; a plugin's directory is its folder.
	File string
	// Write receives what the formatter writes to its stream (log).
	Write func([]byte) error
	// Builtin returns, for a format name ("json", "usage", "usage-json"),
	// a function giving what ferridriver's own format of that name wrote
	// for the envelopes fed so far: JsonFormatter, UsageFormatter and
	// UsageJsonFormatter print it. Nil: they cannot be constructed.
	Builtin func(name string) (report func() string, err error)
	// EnvelopeTimeout bounds the formatter's handling of one envelope,
	// FinishTimeout its finished() (zero: 60 s each).
	EnvelopeTimeout, FinishTimeout time.Duration
}

// Formatter is a cucumber-js formatter (a class extending Formatter, or a
// { type: 'formatter' } plugin) running in a VM of its own. Its methods
// must be called on the VM's goroutine.
type Formatter struct {
	vm       *VM
	opts     FormatterOptions
	envelope goja.Callable
	finish   goja.Callable
	host     goja.Value
	parse    goja.Callable
}

// StartFormatter evaluates b (a bundle built with BundleOptions.Module
// naming the formatter) and prepares the formatter it exports, which is
// constructed when the stream's definitions have arrived (see Envelope).
// A module that does not export a class or a formatter plugin is an error.
// One formatter per VM.
func (vm *VM) StartFormatter(b *Bundle, opts FormatterOptions) (*Formatter, error) {
	if vm.formatterRun != nil {
		return nil, errors.New("jsbridge: the VM already runs a formatter")
	}
	if opts.EnvelopeTimeout == 0 {
		opts.EnvelopeTimeout = 60 * time.Second
	}
	if opts.FinishTimeout == 0 {
		opts.FinishTimeout = 60 * time.Second
	}
	if opts.FormatOptions == nil {
		opts.FormatOptions = map[string]any{}
	}
	exports, err := vm.EvaluateModule(b, vm.opts.LoadTimeout)
	if err != nil {
		return nil, err
	}
	host, err := vm.formatterHost()
	if err != nil {
		return nil, err
	}
	rt := vm.rt
	create, _ := goja.AssertFunction(host.Get("createHost"))
	o := rt.NewObject()
	o.Set("specifier", opts.Specifier)
	o.Set("cwd", opts.Cwd)
	o.Set("env", rt.GlobalObject().Get("process").ToObject(rt).Get("env"))
	o.Set("color", opts.Color)
	o.Set("isTTY", opts.IsTTY)
	o.Set("formatOptions", vm.ToJS(opts.FormatOptions))
	o.Set("toFile", opts.File != "")
	if opts.File != "" {
		o.Set("directory", filepath.Dir(vm.resolve(opts.File)))
	}
	o.Set("write", func(call goja.FunctionCall) goja.Value {
		chunk := call.Argument(0)
		data := []byte(chunk.String())
		if o, isObj := chunk.(*goja.Object); isObj {
			if b, ok := bytesOf(rt, o); ok {
				data = b
			}
		}
		if err := opts.Write(data); err != nil {
			panic(ErrorValue(rt, err))
		}
		return goja.Undefined()
	})
	f := &Formatter{vm: vm, opts: opts}
	vm.formatterRun = f
	h, err := vm.Call(create, goja.Undefined(), []goja.Value{exports, o}, opts.EnvelopeTimeout, "loading formatter "+opts.Specifier)
	if err != nil {
		vm.formatterRun = nil
		return nil, err
	}
	ho := h.ToObject(rt)
	f.host = h
	f.envelope, _ = goja.AssertFunction(ho.Get("envelope"))
	f.finish, _ = goja.AssertFunction(ho.Get("finish"))
	f.parse, _ = goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	return f, nil
}

// Envelope passes one envelope (its JSON) to the formatter and runs the
// promise jobs its handlers started. (Timers and Go work they started run
// as the VM's loop turns: the caller's.)
func (f *Formatter) Envelope(data []byte) error {
	vm := f.vm
	env, err := f.parse(goja.Undefined(), vm.rt.ToValue(string(data)))
	if err != nil {
		return vm.toJSError(err)
	}
	if _, err := vm.Call(f.envelope, f.host, []goja.Value{env}, f.opts.EnvelopeTimeout, "formatter "+f.opts.Specifier+" handling an envelope"); err != nil {
		return withStack(err)
	}
	return f.rejection()
}

// Finish awaits the formatter's finished() (a plugin's cleanup) and the
// end of its output, then the work it left on the loop.
func (f *Formatter) Finish() error {
	vm := f.vm
	if _, err := vm.Call(f.finish, f.host, nil, f.opts.FinishTimeout, "formatter "+f.opts.Specifier+" finishing"); err != nil {
		return withStack(err)
	}
	vm.loop.Drain(time.Now().Add(f.opts.FinishTimeout))
	return f.rejection()
}

// rejection is the first promise the formatter rejected with no handler:
// Node would end the process on it.
func (f *Formatter) rejection() error {
	if !f.vm.hasUnhandledRejection() {
		return nil
	}
	errs := f.vm.UnhandledRejections()
	return fmt.Errorf("unhandled rejection: %w", withStack(errs[0]))
}

// stackError is a JavaScript error shown with its stack: where a
// formatter failed is in its code or its package's.
type stackError struct{ *JSError }

func (e stackError) Error() string { return e.Stack }
func (e stackError) Unwrap() error { return e.JSError }

func withStack(err error) error {
	var je *JSError
	if errors.As(err, &je) && strings.Contains(je.Stack, "\n") {
		return stackError{je}
	}
	return err
}

// EvaluateModule evaluates a bundle built with BundleOptions.Module and
// returns that module's namespace (its exports; a CommonJS module's
// module.exports is its default).
func (vm *VM) EvaluateModule(b *Bundle, timeout time.Duration) (goja.Value, error) {
	vm.moduleExports = nil
	if err := vm.Evaluate(b, "", timeout); err != nil {
		return nil, err
	}
	if vm.moduleExports == nil {
		return nil, errors.New("jsbridge: the bundle was not built with BundleOptions.Module")
	}
	return vm.moduleExports, nil
}

// moduleExportsFn is the global function a bundle built with
// BundleOptions.Module hands its module's namespace to.
const moduleExportsFn = "__ferridriver_module"
