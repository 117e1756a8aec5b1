package jsbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// ToolFrame is one running invocation of a tool. It is the VM loop's async
// context while the handler runs (see Loop.Context): goja's async-context
// tracking and the loop carry it through awaits, promise callbacks, timers
// and Go operations the handler started, so everything the handler set in
// motion runs under its own capabilities and nothing else does.
//
// Callbacks that the browser layer registers on the user's behalf
// (page.on, route handlers) keep the frame too when the binding captures
// vm.Loop().Context() at registration and runs the callback with
// vm.Loop().RunIn(ctx, ...) or vm.Loop().Enqueue(ctx, ...).
type ToolFrame struct {
	tool *ToolDef
	// ctx is cancelled when the call is abandoned (timeout, the caller's
	// cancellation) before it settles: the frame's capabilities are then
	// revoked and its running commands and requests stop. It is not
	// cancelled when the call completes, so callbacks the handler
	// registered keep its (restricted) net policy.
	ctx      context.Context
	cancel   context.CancelCauseFunc
	progress func(Progress)
}

// Tool returns the definition of the running tool.
func (f *ToolFrame) Tool() *ToolDef { return f.tool }

// Net returns the policy that binds the frame's HTTP (its tool's allow.net).
func (f *ToolFrame) Net() *capability.NetPolicy { return f.tool.Allow.Net }

// revoked returns why the frame's capabilities were revoked, or nil.
func (f *ToolFrame) revoked() error {
	if f.ctx.Err() == nil {
		return nil
	}
	cause := context.Cause(f.ctx)
	return fmt.Errorf("tool %q was abandoned (%v): its capabilities are revoked", f.tool.Name, cause)
}

// CurrentFrame returns the frame of the tool whose handler (or a callback
// it registered) is running, or nil outside any handler. Loop goroutine only.
func CurrentFrame(vm *VM) *ToolFrame {
	f, _ := vm.loop.Context().(*ToolFrame)
	return f
}

// Progress is a progress report of a running tool (ctx.progress).
type Progress struct {
	Progress float64
	Total    float64 // 0 when unknown
	Message  string
}

// ToolTimeoutError is a call that outlived its tool's timeoutMs. The
// handler's pending work was abandoned and its capabilities revoked.
type ToolTimeoutError struct {
	Tool string
	Ms   int64
	// Interrupted is set when the handler was still running JS at the
	// deadline and was interrupted (see VM.Interrupted).
	Interrupted bool
}

func (e *ToolTimeoutError) Error() string {
	return fmt.Sprintf("tool %q timed out after %d ms (its timeoutMs); its pending work was abandoned", e.Tool, e.Ms)
}

// toolGrace is how much longer than a tool's timeoutMs CallTool lets a
// call run before interrupting it.
const toolGrace = 50 * time.Millisecond

// ErrUnknownTool is returned by CallTool for a name no tool has.
var ErrUnknownTool = errors.New("unknown tool")

// toolCall is one invocation in flight.
type toolCall struct {
	vm      *VM
	def     *ToolDef
	frame   *ToolFrame
	promise *goja.Promise
	resolve func(any) error
	reject  func(any) error
	settled bool
	timer   int64
	// controller is the AbortController of the handler's ctx.signal.
	controller *goja.Object
	stops      []func() bool
	// result is the JSON of the handler's value ("" for undefined) and err
	// the failure, for Go callers.
	result string
	err    error
}

// pluginsObject is the `plugins` global: plugins["name"] is a function
// that calls the tool through the same dispatch as an MCP call.
type pluginsObject struct {
	vm    *VM
	funcs map[string]goja.Value
}

func (p *pluginsObject) Get(key string) goja.Value {
	if p.vm.registry.Tool(key) == nil {
		return nil
	}
	if f, ok := p.funcs[key]; ok {
		return f
	}
	if p.funcs == nil {
		p.funcs = map[string]goja.Value{}
	}
	name := key
	f := p.vm.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		return p.vm.pluginCall(name, call.Argument(0))
	})
	p.funcs[key] = f
	return f
}

func (p *pluginsObject) Set(string, goja.Value) bool { return false }
func (p *pluginsObject) Has(key string) bool         { return p.vm.registry.Tool(key) != nil }
func (p *pluginsObject) Delete(string) bool          { return false }
func (p *pluginsObject) Keys() []string {
	names := make([]string, len(p.vm.registry.Tools))
	for i, t := range p.vm.registry.Tools {
		names[i] = t.Name
	}
	sort.Strings(names)
	return names
}

// pluginCall implements plugins[name](args): args are the JSON value the
// handler will see (undefined means {}), validated, then dispatched. It
// returns a promise of the JSON-cloned result.
func (vm *VM) pluginCall(name string, args goja.Value) goja.Value {
	def := vm.registry.Tool(name)
	if def == nil {
		vm.ThrowTypeError("plugins[%q]: no tool of that name is loaded", name)
	}
	parent := CurrentFrame(vm)
	if parent != nil {
		if err := parent.revoked(); err != nil {
			vm.Throw(err)
		}
	}
	s := "{}"
	if args != nil && !goja.IsUndefined(args) {
		var err error
		s, err = vm.JSONString(args)
		if err != nil {
			vm.ThrowTypeError("plugins[%q]: the arguments are %v", name, err)
		}
		if s == "" {
			vm.ThrowTypeError("plugins[%q]: the arguments must be a JSON value, got %s", name, describeJS(args))
		}
	}
	ctx, progress := context.Background(), vm.callerProgress
	if vm.callerCtx != nil {
		ctx = vm.callerCtx
	}
	if parent != nil {
		ctx, progress = parent.ctx, parent.progress
	}
	c := vm.startCall(ctx, def, s, progress)
	return vm.rt.ToValue(c.promise)
}

// WithCaller runs fn (which calls into JS, e.g. a script) so that
// plugins[...] calls made outside any tool's frame are cancelled with ctx
// and report their progress to progress, as calls made by a tool inherit
// its own. Loop goroutine only.
func (vm *VM) WithCaller(ctx context.Context, progress func(Progress), fn func()) {
	prevCtx, prevProgress := vm.callerCtx, vm.callerProgress
	vm.callerCtx, vm.callerProgress = ctx, progress
	defer func() { vm.callerCtx, vm.callerProgress = prevCtx, prevProgress }()
	fn()
}

// startCall runs the dispatch of one invocation: validation, the frame,
// the timeout, the handler. Loop goroutine only; the returned call settles
// on the loop.
func (vm *VM) startCall(caller context.Context, def *ToolDef, args string, progress func(Progress)) *toolCall {
	rt := vm.rt
	p, resolve, reject := rt.NewPromise()
	c := &toolCall{vm: vm, def: def, promise: p, resolve: resolve, reject: reject}
	if err := def.validateArgs(args); err != nil {
		c.fail(err, vm.newError("TypeError", err.Error(), "ERR_TOOL_ARGUMENTS"))
		return c
	}
	// Not derived from the VM's base context: a frame is never cancelled
	// when its call completes, so as a child of the base context it would
	// stay registered there for the VM's lifetime. The operations a frame
	// starts join the two (toolState.opContext).
	ctx, cancel := context.WithCancelCause(context.Background())
	c.frame = &ToolFrame{tool: def, ctx: ctx, cancel: cancel, progress: progress}
	st := vm.toolsOf()
	signal := goja.Undefined()
	if st.abortController != nil {
		if o, err := st.abortController(nil); err == nil {
			c.controller, signal = o, o.Get("signal")
		}
	}
	if caller.Done() != nil {
		// The caller's cancellation (an MCP request cancelled, the calling
		// tool abandoned) abandons this call too, while it is pending.
		c.stops = append(c.stops, context.AfterFunc(caller, func() {
			cause := context.Cause(caller)
			vm.loop.Enqueue(nil, func() {
				c.abandon(cause, vm.newError("AbortError", fmt.Sprintf("tool %q: the call was cancelled: %v", def.Name, cause), "ERR_TOOL_CANCELLED"))
			})
		}))
	}
	if def.Timeout > 0 {
		c.timer = vm.loop.SetTimer(def.Timeout, false, func() {
			c.timer = 0
			terr := &ToolTimeoutError{Tool: def.Name, Ms: def.Timeout.Milliseconds()}
			c.abandon(terr, vm.newError("TimeoutError", terr.Error(), "ERR_TOOL_TIMEOUT"))
		})
	}
	ctxObj := vm.handlerContext(c.frame, vm.FromJSON(args), signal)
	var ret goja.Value
	var err error
	timedOut := false
	vm.loop.RunIn(c.frame, func() {
		ret, err, timedOut = vm.callGuarded(def.handler, ctxObj, def.Timeout, c)
	})
	switch {
	case timedOut:
		terr := &ToolTimeoutError{Tool: def.Name, Ms: def.Timeout.Milliseconds(), Interrupted: true}
		c.abandon(terr, vm.newError("TimeoutError", terr.Error(), "ERR_TOOL_TIMEOUT"))
		return c
	case err != nil:
		var intr *goja.InterruptedError
		if errors.As(err, &intr) {
			// The caller's own limit: revoke this call and let the interrupt
			// unwind to its owner.
			c.cleanup()
			c.frame.cancel(fmt.Errorf("interrupted by the caller's limit"))
			panic(intr)
		}
		je := vm.toJSError(err)
		c.fail(je, ErrorValue(rt, je))
		return c
	}
	pr, perr := st.promiseResolve(goja.Undefined(), ret)
	if perr != nil {
		je := vm.toJSError(perr)
		c.fail(je, ErrorValue(rt, je))
		return c
	}
	onOK := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		c.succeed(call.Argument(0))
		return goja.Undefined()
	})
	onErr := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		v := call.Argument(0)
		c.fail(vm.errorFromValue(v, nil), v)
		return goja.Undefined()
	})
	if _, err := st.promiseThen(pr, onOK, onErr); err != nil {
		je := vm.toJSError(err)
		c.fail(je, ErrorValue(rt, je))
	}
	return c
}

func (c *toolCall) cleanup() {
	if c.timer != 0 {
		c.vm.loop.ClearTimer(c.timer)
		c.timer = 0
	}
	for _, stop := range c.stops {
		stop()
	}
	c.stops = nil
}

// succeed resolves the call with a JSON clone of v: a tool's result is
// data, the same for a plugins caller as for an MCP client, and never a
// live object of the handler (such as its commands).
func (c *toolCall) succeed(v goja.Value) {
	if c.settled {
		return
	}
	s, err := c.vm.ResultJSON(v)
	if err != nil {
		e := fmt.Errorf("tool %q returned a value that is %v", c.def.Name, err)
		c.fail(e, c.vm.newError("TypeError", e.Error(), "ERR_TOOL_RESULT"))
		return
	}
	c.settled = true
	c.cleanup()
	c.result = s
	c.resolve(c.vm.FromJSON(s))
}

// fail rejects the call with the JS value jsErr (err is its Go form).
func (c *toolCall) fail(err error, jsErr goja.Value) {
	if c.settled {
		return
	}
	c.settled = true
	c.cleanup()
	c.err = err
	c.reject(jsErr)
}

// abandon gives up on a pending call: its frame is cancelled (capabilities
// revoked, commands and requests stopped), the caller gets err, and the
// handler's ctx.signal is aborted with jsErr. Abort listeners run in the
// handler's frame, whose capabilities are revoked by then.
func (c *toolCall) abandon(err error, jsErr goja.Value) {
	if c.settled {
		return
	}
	if c.frame != nil {
		c.frame.cancel(err)
	}
	c.fail(err, jsErr)
	if c.controller != nil && c.frame != nil {
		if abort, ok := goja.AssertFunction(c.controller.Get("abort")); ok {
			c.vm.loop.RunIn(c.frame, func() {
				if _, err := abort(c.controller, jsErr); err != nil {
					c.vm.reportUncaught(err)
				}
			})
		}
	}
}

// newError makes a JS error of the given name (Error, TypeError, or a
// custom name on an Error) with an optional code property.
func (vm *VM) newError(name, msg, code string) goja.Value {
	rt := vm.rt
	ctorName := "Error"
	if name == "TypeError" {
		ctorName = "TypeError"
	}
	ctor, _ := goja.AssertConstructor(rt.Get(ctorName))
	var obj *goja.Object
	if ctor != nil {
		obj, _ = ctor(nil, rt.ToValue(msg))
	}
	if obj == nil {
		obj = rt.NewObject()
		obj.Set("message", msg)
	}
	if name != ctorName {
		obj.Set("name", name)
	}
	if code != "" {
		obj.Set("code", code)
	}
	return obj
}

// handlerContext builds the object a handler receives.
func (vm *VM) handlerContext(f *ToolFrame, args, signal goja.Value) *goja.Object {
	rt := vm.rt
	o := rt.NewObject()
	o.Set("args", args)
	vm.defineBrowserAccessors(o, f)
	o.Set("request", vm.requestClient(f))
	o.Set("commands", vm.commandsObject(f))
	o.Set("signal", signal)
	o.Set("tool", f.tool.Name)
	o.Set("progress", func(call goja.FunctionCall) goja.Value {
		if f.progress == nil || f.ctx.Err() != nil {
			return goja.Undefined()
		}
		p := Progress{}
		p.Progress, _ = numberOf(call.Argument(0))
		if t, ok := numberOf(call.Argument(1)); ok {
			p.Total = t
		}
		if m := call.Argument(2); !goja.IsUndefined(m) && !goja.IsNull(m) {
			p.Message = m.String()
		}
		f.progress(p)
		return goja.Undefined()
	})
	return o
}

// callGuarded calls fn(undefined, arg). When d > 0, JS still running
// synchronously after d (an infinite loop in the handler's first segment)
// is interrupted and timedOut reported; the interrupt does not escape.
// Someone else's interrupt (the caller's limit) is returned as err.
func (vm *VM) callGuarded(fn goja.Callable, arg goja.Value, d time.Duration, owner *toolCall) (ret goja.Value, err error, timedOut bool) {
	var deadline time.Time
	if d > 0 {
		deadline = time.Now().Add(d)
	}
	marker := &guardMarker{owner}
	release := vm.watchdog(deadline, marker)
	ret, err = fn(goja.Undefined(), arg)
	if !release(err) {
		return ret, err, false
	}
	var intr *goja.InterruptedError
	if errors.As(err, &intr) && intr.Value() == marker {
		return nil, nil, true
	}
	return ret, err, false // someone else's interrupt, or ours fired as fn returned
}

type guardMarker struct{ c *toolCall }

// CallOptions tune CallTool.
type CallOptions struct {
	// Timeout bounds the whole call, the handler's synchronous code
	// included (a host's session-wide limit); zero means none. The tool's
	// own timeoutMs applies in any case.
	Timeout time.Duration
	// Progress receives the handler's ctx.progress reports, on the loop
	// goroutine; it must not block. Nil drops them.
	Progress func(Progress)
}

// CallTool invokes a tool from Go (the MCP server), through the same
// dispatch as plugins[name](args): args (JSON; empty means {}) are
// validated against the inputSchema before the handler is entered, the
// tool's timeoutMs and capabilities apply, ctx cancels the call. It pumps
// the loop until the call settles and returns the result as JSON (nil for
// undefined). Errors: *ArgsError, *JSError (the handler threw; its Stack is
// mapped to the user's source), *ToolTimeoutError, *TimeoutError (opts.
// Timeout passed: the VM may be left mid-work, hosts should rebuild it),
// ErrUnknownTool. Loop goroutine only.
func (vm *VM) CallTool(ctx context.Context, name string, args json.RawMessage, opts CallOptions) (json.RawMessage, error) {
	def := vm.registry.Tool(name)
	if def == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownTool, name)
	}
	s := string(args)
	if len(args) == 0 || string(args) == "null" {
		s = "{}"
	}
	var c *toolCall
	start := vm.rt.ToValue(func(goja.FunctionCall) goja.Value {
		c = vm.startCall(ctx, def, s, opts.Progress)
		return vm.rt.ToValue(c.promise)
	})
	fn, _ := goja.AssertFunction(start)
	// The tool's timer cannot fire while its handler spins on the loop
	// (`await 0; for (;;) {}`): bound the whole call by timeoutMs too, with
	// a little grace so that the timer, when it can, reports first.
	limit, toolBound := opts.Timeout, false
	if def.Timeout > 0 {
		if d := def.Timeout + toolGrace; limit == 0 || d < limit {
			limit, toolBound = d, true
		}
	}
	_, err := vm.CallContext(ctx, fn, goja.Undefined(), nil, limit, fmt.Sprintf("call of tool %q", name))
	var te *TimeoutError
	if toolBound && errors.As(err, &te) {
		err = &ToolTimeoutError{Tool: def.Name, Ms: def.Timeout.Milliseconds(), Interrupted: vm.Interrupted()}
	}
	if c != nil && c.settled {
		if c.err != nil {
			return nil, c.err
		}
		if c.result == "" {
			return nil, nil
		}
		return json.RawMessage(c.result), nil
	}
	if c != nil {
		// A limit passed while the handler ran: abandon the call.
		var tte *ToolTimeoutError
		switch {
		case errors.As(err, &tte):
			c.abandon(tte, vm.newError("TimeoutError", tte.Error(), "ERR_TOOL_TIMEOUT"))
		case errors.As(err, &te):
			c.abandon(te, vm.newError("TimeoutError", te.Error(), "ERR_TIMEOUT"))
		}
	}
	if err == nil {
		err = fmt.Errorf("tool %q: the call did not settle", name)
	}
	return nil, err
}
