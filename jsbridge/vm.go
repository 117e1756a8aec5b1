// Package jsbridge runs the JavaScript side of ferridriver: it bundles step
// files and extensions with esbuild, evaluates the bundle in goja VMs that
// each own an event loop, collects what the code registers (step
// definitions, hooks, parameter types, world constructor, tools) in a
// Registry, and invokes that code for the runner and the other hosts.
//
// A VM is single-threaded: every method that touches JS must be called on
// the goroutine that owns the VM (the one that created it), except those
// documented as safe from any goroutine.
package jsbridge

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
	"github.com/dop251/goja_nodejs/require"
	"github.com/dop251/goja_nodejs/url"
)

// Host names, the value of ferridriver.host in a VM.
const (
	HostBDD    = "bdd"
	HostMCP    = "mcp"
	HostScript = "script"
)

// VMOptions configure a VM.
type VMOptions struct {
	// Host is HostBDD, HostMCP or HostScript.
	Host string
	// Dir is the project directory (process.cwd(), base of relative paths).
	Dir string
	// Env is exactly what process.env holds (the [scripting] allowEnv
	// names present in the real environment, or all of it for a suite
	// configured by cucumber-js). Frozen but in the bdd host.
	Env map[string]string
	// OnHiddenEnv, when set, is called with the name of a variable that
	// code outside node_modules reads from process.env and that Env does
	// not hold (the caller tells the user, once, that a variable set but
	// not allowed was read).
	OnHiddenEnv func(name string)
	// WorldParameters is this.parameters of every World (a JSON value).
	WorldParameters any
	// Stdout and Stderr receive console output. Nil means os.Stdout/os.Stderr.
	Stdout, Stderr io.Writer
	// WorkerID identifies the VM's worker in messages ("0", "1"...).
	WorkerID string
	// LoadTimeout bounds the evaluation of the bundle's top level
	// (top-level await included). Zero means 60 s.
	LoadTimeout time.Duration
	// Stubs are the definitions of a library that is not loaded: the
	// registry starts with them, without their functions (see
	// LibraryIndex), when NewVM loads a bundle. Nil for none.
	Stubs *LibraryIndex
	// AttachmentLimit is the largest attachment (bytes of data, decoded)
	// step code may make with attach, log or link; a larger one throws
	// (see AttachmentError). 0: no limit.
	AttachmentLimit int64
	// MemoryLimit is how much a step or hook may grow the process's heap
	// while it runs; past it, it is stopped with a *MemoryError. 0: no
	// limit.
	MemoryLimit int64
	// DefaultTimeout is the step and hook timeout before code calls
	// setDefaultTimeout ([test] timeout); zero means DefaultStepTimeout,
	// negative none. DefaultTimeoutSource names the setting in timeout
	// errors ("[test] timeout in ferridriver.toml").
	DefaultTimeout       time.Duration
	DefaultTimeoutSource string
}

// VM is one goja runtime with its event loop, the builtin modules and the
// Registry filled by evaluating a bundle.
type VM struct {
	rt       *goja.Runtime
	loop     *Loop
	opts     VMOptions
	dir      string
	modules  map[string]goja.Value
	locals   map[any]any
	prelude  *goja.Object
	cucumber *goja.Object // exports of @cucumber/cucumber
	// ferridriver is the base of the "ferridriver" module's exports.
	ferridriver *goja.Object
	registry    *Registry
	// loading is true while the bundle's top level runs: registration
	// functions are only valid then.
	loading bool
	// loaded is set once Load ran.
	loaded bool

	// attachTarget receives attachments made by user code (this.attach).
	attachTarget AttachFunc
	// worldHooks decorate every World (the browser adds page, context...).
	worldHooks []func(world *goja.Object) error
	// worldArgs is what every World constructor receives (built once).
	worldArgs       map[string]goja.Value
	setCurrentWorld goja.Callable
	// closers run when the VM is closed.
	closers []func()
	// stepMatcher serves runStep (see SetStepMatcher).
	stepMatcher StepMatcher
	// flowSource and onceStore serve flow() and runOnce() (flows.go).
	flowSource FlowSource
	onceStore  *OnceStore
	// formatterRun is the custom formatter the VM runs (StartFormatter);
	// moduleExports the namespace a Module bundle handed over.
	formatterRun  *Formatter
	moduleExports goja.Value

	interruptMu sync.Mutex
	interrupted atomic.Bool // see Interrupted
	// clock is the running step's or hook's (nil between them): other
	// goroutines pause it (PauseStepClock).
	clock atomic.Pointer[stepClock]

	// callerCtx and callerProgress are what plugins[...] calls outside a
	// tool frame inherit (see WithCaller).
	callerCtx      context.Context
	callerProgress func(Progress)
	stopReason     atomic.Pointer[error]

	// unhandled are the promises rejected with no handler attached, in
	// rejection order (see UnhandledRejections).
	unhandledMu sync.Mutex
	unhandled   []*goja.Promise
	// abandoned are promises a call gave up on (a timeout): their
	// rejection is not unhandled (see abandon).
	abandoned map[*goja.Promise]bool
}

// trackRejection keeps the promises rejected with no handler, as Node
// does for its unhandledRejection check; a handler attached later takes
// the promise off the list.
func (vm *VM) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	vm.unhandledMu.Lock()
	defer vm.unhandledMu.Unlock()
	switch op {
	case goja.PromiseRejectionReject:
		if vm.abandoned[p] {
			delete(vm.abandoned, p)
			return
		}
		vm.unhandled = append(vm.unhandled, p)
	case goja.PromiseRejectionHandle:
		for i, q := range vm.unhandled {
			if q == p {
				vm.unhandled = append(vm.unhandled[:i], vm.unhandled[i+1:]...)
				break
			}
		}
	}
}

// hasUnhandledRejection says whether a promise was rejected and has no
// handler yet.
func (vm *VM) hasUnhandledRejection() bool {
	vm.unhandledMu.Lock()
	defer vm.unhandledMu.Unlock()
	return len(vm.unhandled) > 0
}

// UnhandledRejections returns the reasons of the promises that were
// rejected and still have no handler (Node's unhandled rejections), mapped
// to the source like any other error, and forgets them. Call it when the
// loop is idle, e.g. after Loop().Drain.
func (vm *VM) UnhandledRejections() []error {
	vm.unhandledMu.Lock()
	ps := vm.unhandled
	vm.unhandled = nil
	vm.unhandledMu.Unlock()
	errs := make([]error, len(ps))
	for i, p := range ps {
		errs[i] = vm.errorFromValue(p.Result(), nil)
	}
	return errs
}

// Interrupt stops the VM for good: running JS is interrupted, pending
// awaits give up, and every later call fails with reason. Safe from any
// goroutine (Ctrl-C handling).
func (vm *VM) Interrupt(reason error) {
	vm.stopReason.Store(&reason)
	vm.loop.Stop()
	vm.rt.Interrupt(reason)
}

func (vm *VM) stopped() error {
	if p := vm.stopReason.Load(); p != nil {
		return *p
	}
	return nil
}

//go:embed prelude.js
var preludeSource string

const preludeName = "ferridriver-prelude.js"

var (
	preludeOnce sync.Once
	preludePrg  *goja.Program
	preludeErr  error
)

// NewVM creates a VM for host, installs the JS API and evaluates the bundle
// (nil for a VM without user code). Registration errors and exceptions
// thrown by the bundle's top level are returned with their source position.
func NewVM(b *Bundle, opts VMOptions) (*VM, error) {
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	if opts.LoadTimeout == 0 {
		opts.LoadTimeout = 60 * time.Second
	}
	if opts.Host == "" {
		opts.Host = HostBDD
	}
	rt := goja.New()
	rt.SetFieldNameMapper(goja.UncapFieldNameMapper())
	vm := &VM{rt: rt, opts: opts, dir: opts.Dir, modules: map[string]goja.Value{}, locals: map[any]any{}, registry: newRegistry()}
	if opts.DefaultTimeout != 0 {
		vm.registry.DefaultTimeout = max(opts.DefaultTimeout, 0)
		vm.registry.DefaultTimeoutSource = opts.DefaultTimeoutSource
	}
	rt.SetPromiseRejectionTracker(vm.trackRejection)
	if b != nil && vm.dir == "" {
		vm.dir = b.Dir
	}
	vm.loop = newLoop(rt)
	if err := vm.installGlobals(); err != nil {
		return nil, err
	}
	if b != nil {
		if err := vm.Load(b, opts.Stubs); err != nil {
			return nil, err
		}
	}
	return vm, nil
}

// Load evaluates the bundle in a VM created without one (NewVM(nil, ...)),
// its registry starting with stubs when not nil (see VMOptions.Stubs):
// creating the VM can then overlap other work before the bundle is known.
// Loop goroutine only.
func (vm *VM) Load(b *Bundle, stubs *LibraryIndex) error {
	if vm.loaded {
		return errors.New("jsbridge: the VM already loaded a bundle")
	}
	vm.loaded = true
	if vm.dir == "" {
		vm.dir = b.Dir
	}
	if stubs != nil {
		vm.registry.preset(stubs)
	}
	return vm.load(b)
}

// Runtime returns the goja runtime. Loop goroutine only.
func (vm *VM) Runtime() *goja.Runtime { return vm.rt }

// Loop returns the VM's event loop.
func (vm *VM) Loop() *Loop { return vm.loop }

// Host returns "bdd", "mcp" or "script".
func (vm *VM) Host() string { return vm.opts.Host }

// Dir returns the project directory.
func (vm *VM) Dir() string { return vm.dir }

// Registry returns what the evaluated code registered.
func (vm *VM) Registry() *Registry { return vm.registry }

// OnClose registers fn to run when the VM is closed.
func (vm *VM) OnClose(fn func()) { vm.closers = append(vm.closers, fn) }

// Close releases the VM's resources (in reverse order of registration).
func (vm *VM) Close() {
	for i := len(vm.closers) - 1; i >= 0; i-- {
		vm.closers[i]()
	}
	vm.closers = nil
}

// AddWorldHook adds a function that decorates every World object after it
// is constructed (the browser world defines page, context... on it).
func (vm *VM) AddWorldHook(fn func(world *goja.Object) error) {
	vm.worldHooks = append(vm.worldHooks, fn)
}

func (vm *VM) installGlobals() error {
	rt := vm.rt
	reg := require.NewRegistry()
	reg.Enable(rt)
	buffer.Enable(rt)
	if !HasPolyfills() {
		// Else URL and URLSearchParams come from whatwg-url
		// (installNodeGlobals).
		url.Enable(rt)
	}
	g := rt.GlobalObject()
	// __ferridriver_require and __ferridriver_import serve the bundle's
	// require() calls and import statements of built-in modules. One that
	// is not available (or cannot load) does not stop the bundle from
	// loading: it throws when its exports are used (see missingModule).
	for fn, imported := range map[string]bool{"__ferridriver_require": false, "__ferridriver_import": true} {
		g.Set(fn, func(call goja.FunctionCall) goja.Value {
			name := call.Argument(0).String()
			v, err := vm.require(name)
			if err != nil {
				if !strings.HasPrefix(name, "node:") {
					panic(rt.NewGoError(err))
				}
				return vm.missingModule(name, err, imported)
			}
			return v
		})
	}
	g.Set(moduleExportsFn, func(call goja.FunctionCall) goja.Value {
		vm.moduleExports = call.Argument(0)
		return goja.Undefined()
	})
	// The global require: what bundled code calls for a request esbuild
	// left to run time (require(variable), require.resolve, require.cache)
	// and what scripts (run_script sources, not bundled) call. Builtin
	// modules, Node's bare names ("fs") included; in the bdd host, files
	// and packages resolved from the calling file (node:module's loader);
	// elsewhere a clear error instead of goja_nodejs' "Invalid module".
	nodeRequire, _ := goja.AssertFunction(g.Get("require"))
	globalRequire := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		name := builtinName(call.Argument(0).String())
		v, err := vm.require(name)
		if err == nil {
			return v
		}
		if !strings.HasPrefix(name, "node:") {
			if vm.opts.Host == HostBDD && CurrentFrame(vm) == nil && !isBuiltin(name) {
				return vm.runtimeRequire(call.Argument(0))
			}
			if v, nerr := nodeRequire(goja.Undefined(), call.Arguments...); nerr == nil {
				return v
			}
		}
		panic(ErrorValue(rt, fmt.Errorf("require: %w (scripts are not bundled: only ferridriver's builtin modules can be required)", err)))
	}).(*goja.Object)
	vm.lazyRequireMembers(globalRequire)
	g.Set("require", globalRequire)
	vm.installJSONStringify()
	vm.installTimers()
	vm.installConsole()
	vm.installProcess()
	fd := rt.NewObject()
	fd.Set("host", vm.opts.Host)
	fd.Set("version", Version)
	g.Set("ferridriver", fd)

	preludeOnce.Do(func() {
		preludePrg, preludeErr = goja.Compile(preludeName, preludeSource, true)
	})
	if preludeErr != nil {
		return fmt.Errorf("ferridriver prelude: %w", preludeErr)
	}
	v, err := rt.RunProgram(preludePrg)
	if err != nil {
		return fmt.Errorf("ferridriver prelude: %w", err)
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return fmt.Errorf("ferridriver prelude: not a function")
	}
	native := vm.preludeNatives()
	exp, err := fn(nil, native)
	if err != nil {
		return fmt.Errorf("ferridriver prelude: %w", vm.toJSError(err))
	}
	vm.prelude = exp.ToObject(rt)
	for _, name := range []string{"structuredClone", "TextEncoder", "TextDecoder", "queueMicrotask", "EventTarget", "Event", "AbortController", "AbortSignal", "DOMException"} {
		if v := vm.prelude.Get(name); v != nil && !goja.IsUndefined(v) {
			g.Set(name, v)
		}
	}
	vm.installNodeGlobals()
	vm.installCucumber()
	fdModule := rt.NewObject()
	fdModule.Set("host", vm.opts.Host)
	fdModule.Set("version", Version)
	fdModule.Set("runStep", vm.prelude.Get("runStep"))
	fdModule.Set("stepTimeLeft", vm.stepTimeLeft)
	fdModule.Set("stepClock", vm.stepClockNow)
	vm.ferridriver = fdModule
	if err := vm.runInits(); err != nil {
		return err
	}
	vm.nameNativeGlobals()
	return nil
}

// nameNativeGlobals gives the global functions implemented in Go (Buffer,
// URL...) their JavaScript names: goja names them after the Go method
// ("github.com/dop251/goja_nodejs/buffer.(*Buffer).ctor-fm"), which error
// messages and constructor.name would otherwise show.
func (vm *VM) nameNativeGlobals() {
	g := vm.rt.GlobalObject()
	for _, key := range g.Keys() {
		fn, ok := g.Get(key).(*goja.Object)
		if !ok {
			continue
		}
		if _, isFn := goja.AssertFunction(fn); !isFn {
			continue
		}
		if n := fn.Get("name"); n != nil && (strings.Contains(n.String(), "/") || strings.Contains(n.String(), "(*")) {
			fn.DefineDataProperty("name", vm.rt.ToValue(key), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		}
	}
}

// Version is the ferridriver version reported to JS (ferridriver.version).
var Version = "0.1.0-dev"

// load evaluates the bundle and awaits its top level.
func (vm *VM) load(b *Bundle) error {
	if err := vm.Evaluate(b, "", vm.opts.LoadTimeout); err != nil {
		return err
	}
	if err := vm.registry.finish(); err != nil {
		return &LoadError{Err: vm.toJSError(err)}
	}
	return nil
}

// LoadError is an exception thrown while evaluating step files and
// extensions (including registration errors such as a bad expression).
type LoadError struct{ Err error }

func (e *LoadError) Error() string {
	var je *JSError
	if ok := asJSError(e.Err, &je); ok {
		user, site := je.FirstUserFrame(), je.ThrowSite()
		switch {
		case site != "" && site != user && strings.Contains(site, "node_modules/") && user != "":
			// A package failed as it loaded: its file first, then the
			// project's import that loaded it.
			return site + ": " + je.Error() + "\n  (while loading the package imported at " + user + ")"
		case site != "" && user == "":
			return site + ": " + je.Error()
		case user != "":
			return user + ": " + je.Error()
		}
	}
	return e.Err.Error()
}

func (e *LoadError) Unwrap() error { return e.Err }

func asJSError(err error, target **JSError) bool {
	je, ok := err.(*JSError)
	if ok {
		*target = je
	}
	return ok
}

// Call calls fn with this and args, then, if it returns a promise, pumps the
// loop until the promise settles. The whole call is bounded by timeout
// (zero = none): a synchronous infinite loop is interrupted and an unsettled
// promise abandoned, and a *TimeoutError naming what is returned. Errors
// thrown or rejected by JS come back as *JSError.
func (vm *VM) Call(fn goja.Callable, this goja.Value, args []goja.Value, timeout time.Duration, what string) (goja.Value, error) {
	return vm.callClocked(fn, this, args, newClock(timeout), timeout, what)
}

// callClocked is Call bounded by clock, whose deadline may move while the
// call runs (a paused step clock); timeout is what a TimeoutError says.
func (vm *VM) callClocked(fn goja.Callable, this goja.Value, args []goja.Value, clock *stepClock, timeout time.Duration, what string) (goja.Value, error) {
	if err := vm.stopped(); err != nil {
		return nil, err
	}
	release := vm.watchdogClock(clock, &TimeoutError{What: what, Ms: timeout.Milliseconds()})
	defer release(nil)
	v, err := fn(this, args...)
	if err != nil {
		if serr := vm.stopped(); serr != nil {
			return nil, serr
		}
		return nil, vm.toJSError(err)
	}
	return vm.settle(v, clock.Deadline, what, timeout)
}

// CallContext is Call, also ended by ctx: when ctx is cancelled (an MCP
// client cancelled the request or went away) while JS is running, the JS
// is interrupted at once, even in a synchronous loop that would never
// yield to the loop, and an error wrapping ctx's cause is returned. Such
// an interrupt marks the VM as Interrupted.
func (vm *VM) CallContext(ctx context.Context, fn goja.Callable, this goja.Value, args []goja.Value, timeout time.Duration, what string) (goja.Value, error) {
	if ctx.Done() == nil {
		return vm.Call(fn, this, args, timeout, what)
	}
	marker := &cancelMarker{}
	var done, fired bool // under interruptMu
	stop := context.AfterFunc(ctx, func() {
		vm.interruptMu.Lock()
		defer vm.interruptMu.Unlock()
		if !done {
			fired = true
			vm.interrupted.Store(true)
			vm.rt.Interrupt(marker)
		}
	})
	v, err := vm.Call(fn, this, args, timeout, what)
	stop()
	vm.interruptMu.Lock()
	done = true
	vm.interruptMu.Unlock()
	if fired {
		// Delivered or not, it must not reach the next call.
		vm.rt.ClearInterrupt()
		return nil, fmt.Errorf("%s was cancelled: %w", what, context.Cause(ctx))
	}
	return v, err
}

type cancelMarker struct{}

// Await waits for v if it is a promise (see Call).
func (vm *VM) Await(v goja.Value, timeout time.Duration, what string) (goja.Value, error) {
	clock := newClock(timeout)
	release := vm.watchdogClock(clock, &TimeoutError{What: what, Ms: timeout.Milliseconds()})
	defer release(nil)
	return vm.settle(v, clock.Deadline, what, timeout)
}

func (vm *VM) settle(v goja.Value, deadline func() time.Time, what string, timeout time.Duration) (goja.Value, error) {
	p, ok := promiseOf(v)
	if !ok {
		return v, nil
	}
	var stop func() bool
	st := vm.stepState()
	if st.watchRejections {
		stop = func() bool { return st.exit != nil || st.memStop.Load() != nil || vm.hasUnhandledRejection() }
	}
	if !vm.loop.AwaitUntil(p, deadline, stop) {
		if err := vm.stopped(); err != nil {
			return nil, err
		}
		// The caller gives up on p: a later rejection of it is nobody's
		// failure (cucumber-js races a step's promise with its timeout,
		// which handles it), not the next step's unhandled rejection.
		vm.abandon(p)
		if me := st.memStop.Load(); me != nil {
			// The step grew the heap past its limit (watchStepMemory).
			return nil, me
		}
		if st.exit != nil {
			// process.exit in a callback of the step: invokeStep reports it.
			return nil, st.exit
		}
		if stop != nil && stop() {
			// The running step or hook fails with the rejection, as
			// cucumber-js fails it with Node's uncaught exception; its own
			// pending work is abandoned as on a timeout.
			return nil, vm.UnhandledRejections()[0]
		}
		return nil, &TimeoutError{What: what, Ms: timeout.Milliseconds()}
	}
	if p.State() == goja.PromiseStateRejected {
		// The caller gets the rejection: it is handled.
		vm.trackRejection(p, goja.PromiseRejectionHandle)
		if te, ok := p.Result().Export().(*TimeoutError); ok {
			return nil, te
		}
		return nil, vm.errorFromValue(p.Result(), nil)
	}
	return p.Result(), nil
}

// abandon marks the promise p as given up on: its rejection, if it comes,
// is not tracked as unhandled. Promises settled since are forgotten.
func (vm *VM) abandon(p *goja.Promise) {
	vm.unhandledMu.Lock()
	defer vm.unhandledMu.Unlock()
	for q := range vm.abandoned {
		if q.State() != goja.PromiseStatePending {
			delete(vm.abandoned, q)
		}
	}
	if vm.abandoned == nil {
		vm.abandoned = map[*goja.Promise]bool{}
	}
	vm.abandoned[p] = true
}

func promiseOf(v goja.Value) (*goja.Promise, bool) {
	if v == nil {
		return nil, false
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	p, ok := o.Export().(*goja.Promise)
	return p, ok
}

// watchdog interrupts JS still running at the deadline (zero: never) with
// value. The returned release must be called when the guarded work is over,
// with the error it ended with (nil when unknown); it reports whether the
// interrupt fired and, if so, clears it, so that an interrupt that fired
// too late to be delivered cannot leak into the next call. An err that is
// an interrupt with another value (someone else's, e.g. an enclosing
// call's limit) is left pending, to unwind to its owner.
func (vm *VM) watchdog(deadline time.Time, value any) (release func(err error) (fired bool)) {
	return vm.watchdogClock(&stepClock{deadline: deadline}, value)
}

// watchdogClock is watchdog with the deadline of clock, which may move on
// while the work runs (a paused step clock): the interrupt fires once the
// clock has run out.
func (vm *VM) watchdogClock(clock *stepClock, value any) (release func(err error) (fired bool)) {
	first := clock.Deadline()
	if first.IsZero() {
		return func(error) bool { return false }
	}
	var done, fired atomic.Bool
	var t *time.Timer
	// t is set under interruptMu, which its function takes first.
	vm.interruptMu.Lock()
	t = time.AfterFunc(time.Until(first), func() {
		vm.interruptMu.Lock()
		defer vm.interruptMu.Unlock()
		if done.Load() {
			return
		}
		if left := time.Until(clock.Deadline()); left > 0 {
			t.Reset(left) // the clock was paused: its deadline moved on
			return
		}
		fired.Store(true)
		vm.interrupted.Store(true)
		vm.rt.Interrupt(value)
	})
	vm.interruptMu.Unlock()
	return func(err error) bool {
		vm.interruptMu.Lock()
		done.Store(true)
		vm.interruptMu.Unlock()
		t.Stop()
		if !fired.Load() {
			return false
		}
		var intr *goja.InterruptedError
		if !errors.As(err, &intr) || intr.Value() == value {
			vm.rt.ClearInterrupt()
		}
		return true
	}
}

// Interrupted reports whether a limit ever interrupted JS running in this
// VM. goja's state after an interrupt is not trustworthy (seen: promise
// jobs that never run again, half-updated globals), so a host that keeps
// its VM across calls rebuilds it once this is true.
func (vm *VM) Interrupted() bool { return vm.interrupted.Load() }

// Throw panics with a JS exception carrying err; use it inside native
// functions called from JS.
func (vm *VM) Throw(err error) {
	panic(ErrorValue(vm.rt, err))
}

// ThrowTypeError panics with a JS TypeError. (goja's NewTypeError formats
// its first argument: a message built beforehand must go through "%s", or
// a "%" in a user's string is garbled.)
func (vm *VM) ThrowTypeError(format string, args ...any) {
	panic(vm.rt.NewTypeError("%s", fmt.Sprintf(format, args...)))
}

// sortedKeys returns m's keys sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
