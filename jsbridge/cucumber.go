package jsbridge

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/messages"
)

// The cucumber-js support API: registration (Given, Before, ...), the World,
// and invoking steps and hooks with cucumber-js's calling convention
// (arguments first, then the doc string or DataTable, `this` = World).

func init() {
	RegisterModule("@cucumber/cucumber", func(vm *VM) (goja.Value, error) { return vm.cucumber, nil })
	RegisterModule("ferridriver", func(vm *VM) (goja.Value, error) { return vm.ferridriver, nil })
}

func (vm *VM) installCucumber() {
	rt := vm.rt
	exports := rt.NewObject()
	step := func(keyword string) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			vm.registerStep(keyword, call)
			return goja.Undefined()
		}
	}
	hook := func(kind HookKind) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			vm.registerHook(kind, call)
			return goja.Undefined()
		}
	}
	set := func(name string, v any) {
		exports.Set(name, v)
	}
	set("Given", step("Given"))
	set("When", step("When"))
	set("Then", step("Then"))
	set("defineStep", step(""))
	set("Before", hook(Before))
	set("After", hook(After))
	set("BeforeAll", hook(BeforeAll))
	set("AfterAll", hook(AfterAll))
	set("BeforeStep", hook(BeforeStep))
	set("AfterStep", hook(AfterStep))
	set("defineParameterType", func(call goja.FunctionCall) goja.Value {
		vm.registerParamType(call)
		return goja.Undefined()
	})
	set("setWorldConstructor", func(call goja.FunctionCall) goja.Value {
		vm.mustLoad("setWorldConstructor")
		if _, ok := goja.AssertConstructor(call.Argument(0)); !ok {
			panic(rt.NewTypeError("setWorldConstructor: expected a class or constructor function"))
		}
		vm.registry.worldCtor = call.Argument(0)
		return goja.Undefined()
	})
	set("setDefaultTimeout", func(call goja.FunctionCall) goja.Value {
		vm.mustLoad("setDefaultTimeout")
		ms := call.Argument(0).ToFloat()
		if math.IsNaN(ms) {
			panic(rt.NewTypeError("setDefaultTimeout: expected a number of milliseconds (-1 for none)"))
		}
		vm.registry.DefaultTimeout = time.Duration(max(ms, 0) * float64(time.Millisecond))
		vm.registry.defaultTimeoutSet = true
		vm.registry.DefaultTimeoutSource = "setDefaultTimeout"
		if src := vm.callerSource().String(); src != "" {
			vm.registry.DefaultTimeoutSource += " at " + src
		}
		return goja.Undefined()
	})
	set("setDefinitionFunctionWrapper", func(call goja.FunctionCall) goja.Value {
		vm.mustLoad("setDefinitionFunctionWrapper")
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(rt.NewTypeError("setDefinitionFunctionWrapper: expected a function"))
		}
		vm.registry.wrapper = fn
		return goja.Undefined()
	})
	// Accepted for compatibility; ferridriver assigns test cases itself.
	set("setParallelCanAssign", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	for _, name := range []string{"World", "DataTable", "PendingException", "SkippedException", "Status", "world", "context"} {
		set(name, vm.prelude.Get(name))
	}
	vm.installFormatterExports(exports)
	vm.cucumber = exports
	// The registration functions are also globals, so an extension file
	// can call Given/defineTool without importing anything.
	g := rt.GlobalObject()
	for _, name := range []string{"Given", "When", "Then", "defineStep", "Before", "After", "BeforeAll", "AfterAll", "BeforeStep", "AfterStep", "defineParameterType", "setWorldConstructor", "setDefaultTimeout", "setDefinitionFunctionWrapper", "DataTable", "PendingException", "SkippedException"} {
		g.Set(name, exports.Get(name))
	}
}

func (vm *VM) mustLoad(what string) {
	if !vm.loading {
		panic(vm.rt.NewTypeError(what + " can only be called while step files and extensions load (at the top level of a module)"))
	}
}

// callerSource returns where the JS code that called a registration
// function lives, mapped to the user's file.
func (vm *VM) callerSource() SourceRef {
	frames := vm.rt.CaptureCallStack(0, nil)
	for _, f := range frames {
		pos := f.Position()
		name := pos.Filename
		if name == "" || name == preludeName || name == bundleName || strings.HasPrefix(name, "<") {
			continue
		}
		return SourceRef{URI: vm.relURI(name), Line: pos.Line}
	}
	return SourceRef{}
}

func (vm *VM) relURI(name string) string {
	name = strings.TrimPrefix(name, "file://")
	if filepath.IsAbs(name) {
		if rel, err := filepath.Rel(vm.dir, name); err == nil {
			name = rel
		}
	}
	return filepath.ToSlash(name)
}

func (vm *VM) registerStep(keyword string, call goja.FunctionCall) {
	rt := vm.rt
	name := keyword
	if name == "" {
		name = "defineStep"
	}
	vm.mustLoad(name)
	pat := call.Argument(0)
	def := &StepDef{Index: len(vm.registry.Steps), Keyword: keyword, Source: vm.callerSource()}
	if re, ok := regexpOf(rt, pat); ok {
		def.IsRegexp, def.Pattern, def.Flags = true, re.source, re.flags
	} else if s, ok := pat.Export().(string); ok {
		def.Pattern = s
	} else {
		vm.ThrowTypeError("%s: the pattern must be a string (Cucumber Expression) or a RegExp, got %s", name, pat.String())
	}
	fnArg := call.Argument(1)
	if len(call.Arguments) > 2 {
		opts := call.Argument(1)
		if o, ok := opts.(*goja.Object); ok {
			def.Timeout = timeoutOption(rt, o, name)
			if w := o.Get("wrapperOptions"); w != nil {
				def.WrapperOptions = w
			}
			def.Description, def.Examples = stepDocs(rt, o, name)
		}
		fnArg = call.Argument(2)
	}
	fn, ok := goja.AssertFunction(fnArg)
	if !ok {
		vm.ThrowTypeError("%s(%q): the last argument must be the step function", name, def.Pattern)
	}
	def.fn, def.fnValue, def.fnLength = fn, fnArg, int(fnArg.ToObject(rt).Get("length").ToInteger())
	vm.registry.Steps = append(vm.registry.Steps, def)
	vm.registry.Order = append(vm.registry.Order, Def{Kind: DefStep, Index: def.Index})
}

// stepDocs reads {description, example}: a string, and a string or a list
// of strings.
func stepDocs(rt *goja.Runtime, o *goja.Object, what string) (string, []string) {
	var desc string
	var examples []string
	if d := o.Get("description"); d != nil && !goja.IsUndefined(d) {
		s, ok := d.Export().(string)
		if !ok {
			panic(rt.NewTypeError(what + ": description must be a string"))
		}
		desc = s
	}
	switch e := o.Get("example"); {
	case e == nil || goja.IsUndefined(e):
	case isString(e):
		examples = []string{e.String()}
	default:
		list, ok := e.Export().([]any)
		if !ok {
			panic(rt.NewTypeError(what + ": example must be a string or a list of strings"))
		}
		for _, x := range list {
			s, ok := x.(string)
			if !ok {
				panic(rt.NewTypeError(what + ": example must be a string or a list of strings"))
			}
			examples = append(examples, s)
		}
	}
	return desc, examples
}

func isString(v goja.Value) bool { _, ok := v.Export().(string); return ok }

// timeoutOption reads {timeout} (ms; -1 disables, as in cucumber-js).
func timeoutOption(rt *goja.Runtime, o *goja.Object, what string) time.Duration {
	t := o.Get("timeout")
	if t == nil || goja.IsUndefined(t) || goja.IsNull(t) {
		return 0
	}
	ms := t.ToFloat()
	if math.IsNaN(ms) {
		panic(rt.NewTypeError(what + ": timeout must be a number of milliseconds"))
	}
	if ms < 0 {
		return -1
	}
	if ms == 0 {
		return -1 // 0 disables the timeout
	}
	return time.Duration(ms * float64(time.Millisecond))
}

type jsRegexp struct{ source, flags string }

func regexpOf(rt *goja.Runtime, v goja.Value) (jsRegexp, bool) {
	o, ok := v.(*goja.Object)
	if !ok || o.ClassName() != "RegExp" {
		return jsRegexp{}, false
	}
	return jsRegexp{source: o.Get("source").String(), flags: o.Get("flags").String()}, true
}

func (vm *VM) registerHook(kind HookKind, call goja.FunctionCall) {
	rt := vm.rt
	vm.mustLoad(kind.String())
	h := &HookDef{Index: len(vm.registry.Hooks), Kind: kind, Source: vm.callerSource()}
	fnArg := call.Argument(0)
	if len(call.Arguments) > 1 {
		fnArg = call.Argument(1)
		switch o := call.Argument(0).(type) {
		case *goja.Object:
			if t := o.Get("tags"); t != nil && !goja.IsUndefined(t) {
				h.Tags = t.String()
			}
			if n := o.Get("name"); n != nil && !goja.IsUndefined(n) {
				h.Name = n.String()
			}
			h.Timeout = timeoutOption(rt, o, kind.String())
		default:
			if s, ok := call.Argument(0).Export().(string); ok {
				h.Tags = s
			}
		}
	}
	if (kind == BeforeAll || kind == AfterAll) && h.Tags != "" {
		panic(rt.NewTypeError(kind.String() + " hooks cannot have tags: they run once for the whole test run"))
	}
	fn, ok := goja.AssertFunction(fnArg)
	if !ok {
		panic(rt.NewTypeError(kind.String() + ": the last argument must be the hook function"))
	}
	h.fn, h.fnValue, h.fnLength = fn, fnArg, int(fnArg.ToObject(rt).Get("length").ToInteger())
	vm.registry.Hooks = append(vm.registry.Hooks, h)
	vm.registry.Order = append(vm.registry.Order, Def{Kind: DefHook, Index: h.Index})
}

func (vm *VM) registerParamType(call goja.FunctionCall) {
	rt := vm.rt
	vm.mustLoad("defineParameterType")
	o, ok := call.Argument(0).(*goja.Object)
	if !ok {
		panic(rt.NewTypeError("defineParameterType: expected {name, regexp, transformer?}"))
	}
	p := &ParamTypeDef{Source: vm.callerSource(), UseForSnippets: true}
	if n := o.Get("name"); n != nil && !goja.IsUndefined(n) {
		p.Name = n.String()
	}
	if p.Name == "" {
		panic(rt.NewTypeError("defineParameterType: name is required"))
	}
	addRegexp := func(v goja.Value) {
		if re, ok := regexpOf(rt, v); ok {
			if strings.ContainsAny(re.flags, "imsuy") {
				vm.ThrowTypeError("defineParameterType(%s): regexp flags are not supported (/%s/%s)", p.Name, re.source, re.flags)
			}
			p.Regexps = append(p.Regexps, re.source)
			return
		}
		if s, ok := v.Export().(string); ok {
			p.Regexps = append(p.Regexps, s)
			return
		}
		vm.ThrowTypeError("defineParameterType(%s): regexp must be a RegExp, a string or an array of them", p.Name)
	}
	re := o.Get("regexp")
	if re == nil || goja.IsUndefined(re) {
		vm.ThrowTypeError("defineParameterType(%s): regexp is required", p.Name)
	}
	if arr, ok := re.(*goja.Object); ok && arr.ClassName() == "Array" {
		for _, k := range arr.Keys() {
			addRegexp(arr.Get(k))
		}
	} else {
		addRegexp(re)
	}
	if t := o.Get("transformer"); t != nil && !goja.IsUndefined(t) {
		fn, ok := goja.AssertFunction(t)
		if !ok {
			vm.ThrowTypeError("defineParameterType(%s): transformer must be a function", p.Name)
		}
		p.transformer = fn
	}
	if v := o.Get("useForSnippets"); v != nil && !goja.IsUndefined(v) {
		p.UseForSnippets = v.ToBoolean()
	}
	if v := o.Get("preferForRegexpMatch"); v != nil && !goja.IsUndefined(v) {
		p.PreferForRegexpMatch = v.ToBoolean()
	}
	vm.registry.ParamTypes = append(vm.registry.ParamTypes, p)
	vm.registry.Order = append(vm.registry.Order, Def{Kind: DefParamType, Index: len(vm.registry.ParamTypes) - 1})
}

// AttachFunc receives an attachment made by user code. The runner fills in
// where it belongs (test step, hook run) and when.
type AttachFunc func(a *messages.Attachment)

// SetAttachTarget directs this.attach/log/link to fn (nil: attachments are
// dropped, e.g. outside of any step).
func (vm *VM) SetAttachTarget(fn AttachFunc) { vm.attachTarget = fn }

// Attach attaches a to the running step or hook, as this.attach does
// (dropped outside of them): ferridriver's own notes (start-up) and
// native code's attachments (a failed visual comparison's images). It
// refuses one over the attachment limit. Loop goroutine only.
func (vm *VM) Attach(a *messages.Attachment) error {
	size := int64(len(a.Body))
	if a.ContentEncoding == messages.AttachmentContentEncodingBase64 {
		size = int64(base64.StdEncoding.DecodedLen(len(a.Body)))
	}
	if err := vm.attachmentError(size); err != nil {
		return err
	}
	vm.emit(a)
	return nil
}

func (vm *VM) emit(a *messages.Attachment) {
	if vm.attachTarget != nil {
		vm.attachTarget(a)
	}
}

// attachFunctions returns the attach, log and link functions of a World.
func (vm *VM) attachFunctions() (attach, log, link goja.Value) {
	rt := vm.rt
	attach = rt.ToValue(func(call goja.FunctionCall) goja.Value {
		return vm.attach(call.Argument(0), call.Argument(1))
	})
	log = rt.ToValue(func(call goja.FunctionCall) goja.Value {
		body := vm.format(call.Arguments)
		vm.checkAttachment(int64(len(body)))
		vm.emit(&messages.Attachment{Body: body, ContentEncoding: messages.AttachmentContentEncodingIdentity, MediaType: "text/x.cucumber.log+plain"})
		return goja.Undefined()
	})
	link = rt.ToValue(func(call goja.FunctionCall) goja.Value {
		urls := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			urls[i] = a.String()
		}
		body := strings.Join(urls, "\n")
		vm.checkAttachment(int64(len(body)))
		vm.emit(&messages.Attachment{Body: body, ContentEncoding: messages.AttachmentContentEncodingIdentity, MediaType: "text/uri-list"})
		return goja.Undefined()
	})
	return
}

// attachmentError is the error of an attachment of size bytes, nil when
// it is within the attachment limit.
func (vm *VM) attachmentError(size int64) error {
	if limit := vm.opts.AttachmentLimit; limit > 0 && size > limit {
		return &AttachmentError{Size: size, Limit: limit}
	}
	return nil
}

// checkAttachment throws when an attachment of size bytes is over the
// attachment limit.
func (vm *VM) checkAttachment(size int64) {
	if err := vm.attachmentError(size); err != nil {
		vm.Throw(err)
	}
}

// attach implements World.attach(data, mediaType | {mediaType, fileName}):
// strings as is (text/plain by default), "base64:<type>" for pre-encoded
// strings, Buffers and byte arrays base64-encoded, streams read to the end
// (the call then returns a Promise).
func (vm *VM) attach(data, opt goja.Value) goja.Value {
	rt := vm.rt
	a := &messages.Attachment{ContentEncoding: messages.AttachmentContentEncodingIdentity}
	switch o := opt.(type) {
	case *goja.Object:
		if m := o.Get("mediaType"); m != nil && !goja.IsUndefined(m) {
			a.MediaType = m.String()
		}
		if f := o.Get("fileName"); f != nil && !goja.IsUndefined(f) {
			a.FileName = messages.Ptr(f.String())
		}
	default:
		if opt != nil && !goja.IsUndefined(opt) && !goja.IsNull(opt) {
			a.MediaType = opt.String()
		}
	}
	mt, base64Data := strings.CutPrefix(a.MediaType, "base64:")
	size := func(n int) int64 {
		if base64Data {
			return int64(base64.StdEncoding.DecodedLen(n))
		}
		return int64(n)
	}
	if js, ok := data.(goja.String); ok {
		// A string's UTF-8 bytes are at least its UTF-16 units: one too
		// long is refused before it is copied out of the VM.
		vm.checkAttachment(size(js.Length()))
	}
	if s, ok := data.Export().(string); ok {
		vm.checkAttachment(size(len(s)))
		if base64Data {
			a.MediaType = mt
			a.ContentEncoding = messages.AttachmentContentEncodingBase64
		} else if a.MediaType == "" {
			a.MediaType = "text/plain"
		}
		a.Body = s
		vm.emit(a)
		return goja.Undefined()
	}
	if a.MediaType == "" {
		a.MediaType = "application/octet-stream"
	}
	obj, _ := data.(*goja.Object)
	if obj == nil {
		panic(rt.NewTypeError("attach: data must be a string, a Buffer or a readable stream"))
	}
	// Our own fs.createReadStream: read the file off the loop.
	if p := obj.Get("__ferridriverPath"); p != nil && !goja.IsUndefined(p) {
		path, err := vm.CheckPath(p.String(), capability.FSRead)
		if err != nil {
			panic(vm.AccessDenied("attach", err))
		}
		target := vm.attachTarget
		return vm.loop.Promise(func() (any, error) {
			// A file over the limit is refused before it is read.
			if fi, err := os.Stat(path); err == nil {
				if err := vm.attachmentError(fi.Size()); err != nil {
					return nil, err
				}
			}
			return os.ReadFile(path)
		}, func(rt *goja.Runtime, v any) (goja.Value, error) {
			a.ContentEncoding = messages.AttachmentContentEncodingBase64
			a.Body = base64.StdEncoding.EncodeToString(v.([]byte))
			if target != nil {
				target(a)
			}
			return goja.Undefined(), nil
		})
	}
	if b, ok := bytesOf(rt, obj); ok {
		vm.checkAttachment(int64(len(b)))
		a.ContentEncoding = messages.AttachmentContentEncodingBase64
		a.Body = base64.StdEncoding.EncodeToString(b)
		vm.emit(a)
		return goja.Undefined()
	}
	// Any other readable: collect it in JS, then attach the bytes.
	collect, _ := goja.AssertFunction(vm.prelude.Get("collectStream"))
	p, err := collect(goja.Undefined(), obj)
	if err != nil {
		panic(err)
	}
	target := vm.attachTarget
	then, _ := goja.AssertFunction(p.ToObject(rt).Get("then"))
	res, _ := then(p, rt.ToValue(func(call goja.FunctionCall) goja.Value {
		b, _ := bytesOf(rt, call.Argument(0).ToObject(rt))
		vm.checkAttachment(int64(len(b)))
		a.ContentEncoding = messages.AttachmentContentEncodingBase64
		a.Body = base64.StdEncoding.EncodeToString(b)
		if target != nil {
			target(a)
		}
		return goja.Undefined()
	}))
	return res
}

// bytesOf returns the bytes of a Buffer, Uint8Array or ArrayBuffer.
func bytesOf(rt *goja.Runtime, o *goja.Object) ([]byte, bool) {
	switch o.ClassName() {
	case "ArrayBuffer":
		ab, _ := o.Export().(goja.ArrayBuffer)
		return ab.Bytes(), true
	}
	// goja's Export of an empty typed array does pointer arithmetic that
	// checkptr (go test -race) rejects: an empty view is known by its
	// byteLength instead.
	if bl := o.Get("byteLength"); bl != nil && bl.ToInteger() == 0 && isBufferView(o) {
		return []byte{}, true
	}
	if ab, ok := o.Export().(goja.ArrayBuffer); ok {
		return ab.Bytes(), true
	}
	if b, ok := o.Export().([]byte); ok {
		return b, true
	}
	if bl := o.Get("byteLength"); bl != nil && !goja.IsUndefined(bl) {
		return buffer.Bytes(rt, o), true
	}
	return nil, false
}

// isBufferView reports whether o is a view of an ArrayBuffer (a typed
// array or a DataView; goja names their class "Object").
func isBufferView(o *goja.Object) bool {
	b, ok := o.Get("buffer").(*goja.Object)
	if !ok {
		return false
	}
	_, ok = b.Export().(goja.ArrayBuffer)
	return ok
}

// NewWorld constructs the World of a test case: the class given to
// setWorldConstructor, or cucumber's World, called with {attach, log, link,
// parameters}; then decorated by the world hooks (page, context...).
func (vm *VM) NewWorld() (*goja.Object, error) {
	rt := vm.rt
	if vm.worldArgs == nil {
		// attach, log and link write to the current attachment target, so
		// one set serves every World; the parameters object is shared by
		// all Worlds, as in cucumber-js.
		vm.worldArgs = map[string]goja.Value{"parameters": vm.ToJS(vm.opts.WorldParameters)}
		vm.worldArgs["attach"], vm.worldArgs["log"], vm.worldArgs["link"] = vm.attachFunctions()
	}
	args := rt.NewObject()
	for _, k := range []string{"attach", "log", "link", "parameters"} {
		args.Set(k, vm.worldArgs[k])
	}
	ctorVal := vm.registry.worldCtor
	if ctorVal == nil {
		ctorVal = vm.prelude.Get("World")
	}
	ctor, _ := goja.AssertConstructor(ctorVal)
	w, err := ctor(nil, args)
	if err != nil {
		return nil, vm.toJSError(err)
	}
	for _, hook := range vm.worldHooks {
		if err := hook(w); err != nil {
			return nil, err
		}
	}
	if vm.setCurrentWorld == nil {
		vm.setCurrentWorld, _ = goja.AssertFunction(vm.prelude.Get("setCurrentWorld"))
	}
	vm.setCurrentWorld(goja.Undefined(), w)
	return w, nil
}

// DefaultWorldPrototype returns the prototype of every World this VM
// constructs when its code set no World constructor (nil when it did): a
// property defined there once is every World's, which costs less than
// decorating each World with a hook. Call it after the bundle loaded.
func (vm *VM) DefaultWorldPrototype() *goja.Object {
	if vm.registry.worldCtor != nil {
		return nil
	}
	return vm.prelude.Get("World").ToObject(vm.rt).Get("prototype").ToObject(vm.rt)
}

// RunHookThis is `this` of BeforeAll/AfterAll hooks: attach, log, link and
// the world parameters.
func (vm *VM) RunHookThis() *goja.Object {
	o := vm.rt.NewObject()
	attach, log, link := vm.attachFunctions()
	o.Set("attach", attach)
	o.Set("log", log)
	o.Set("link", link)
	o.Set("parameters", vm.ToJS(vm.opts.WorldParameters))
	return o
}

// ToJS converts a JSON-like Go value (what encoding/json produces or
// accepts) into a plain JS value. nil is an empty object; a value JSON
// cannot encode is undefined.
func (vm *VM) ToJS(v any) goja.Value {
	switch x := v.(type) {
	case nil:
		return vm.rt.NewObject()
	case goja.Value:
		return x
	}
	out, err := vm.marshalJS(v)
	if err != nil {
		return goja.Undefined()
	}
	return out
}

// marshalJS converts v to a fresh JS value through encoding/json and the
// JSON.parse captured before user code ran (nil is null).
func (vm *VM) marshalJS(v any) (goja.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return vm.toolsOf().parse(goja.Undefined(), vm.rt.ToValue(string(b)))
}

// StepArg is one matched argument of a step: the parameter type's name
// ("" for an anonymous regular-expression group) and the captured values
// handed to its transformer.
type StepArg struct {
	ParamType string
	Values    []*string
}

// Outcome is the result of running a step or hook.
type Outcome struct {
	Status messages.TestStepResultStatus
	// Err is the failure (FAILED) or the exception that made the step
	// PENDING/SKIPPED (PendingException, SkippedException); nil otherwise.
	Err error
	// Paused is the time the step's clock was paused (PauseStepClock):
	// time the step waited for what is not its own work (the browser's
	// start-up), which its duration leaves out.
	Paused time.Duration
}

// RunStep invokes a step definition with cucumber-js's calling convention.
// arg is the step's doc string or data table (nil when it has none).
func (vm *VM) RunStep(def *StepDef, world *goja.Object, args []StepArg, arg *messages.PickleStepArgument, timeout time.Duration) Outcome {
	rt := vm.rt
	if def.stub {
		return vm.outcomeOf(nil, errStub)
	}
	vals := make([]goja.Value, 0, len(args)+2)
	for _, a := range args {
		v, err := vm.transform(a, world, timeout)
		if err != nil {
			return vm.outcomeOf(nil, err)
		}
		vals = append(vals, v)
	}
	if arg != nil {
		switch {
		case arg.DocString != nil:
			vals = append(vals, rt.ToValue(arg.DocString.Content))
		case arg.DataTable != nil:
			vals = append(vals, vm.newDataTable(arg.DataTable))
		}
	}
	v, paused, err := vm.invokeStep(def.fn, def.fnLength, world, vals, timeout, vm.registry.TimeoutSource(def.Timeout, def.Source))
	out := vm.outcomeOf(v, err)
	out.Paused = paused
	return out
}

// HookArg is what Before/After/BeforeStep/AfterStep hooks receive, with
// cucumber-js 13's shapes (runtime/test_case_runner.js): a test-case hook
// that runs before the first pickle step gets gherkinDocument, pickle and
// testCaseStartedId; one that runs after it also gets result (the worst
// result of the test case's steps so far), error (the last pickle step's
// error) and willBeRetried. Step hooks get gherkinDocument, pickle,
// pickleStep, testCaseStartedId, testStepId, result and error (the step's
// own, undefined in BeforeStep hooks).
type HookArg struct {
	Pickle            *messages.Pickle
	GherkinDocument   *messages.GherkinDocument
	PickleStep        *messages.PickleStep
	TestCaseStartedID string
	TestStepID        string
	// AfterSteps says that a test-case hook runs after the pickle steps:
	// it then gets Result, Error and WillBeRetried.
	AfterSteps bool
	// Result is the worst result so far (test-case hooks after the steps)
	// or the step's (AfterStep); nil is undefined.
	Result        *messages.TestStepResult
	WillBeRetried bool
	// Error is what the last pickle step threw (test-case hooks) or the
	// step threw (AfterStep); nil is undefined.
	Error error
}

// RunHook invokes a hook. this is the World for test-case and step hooks,
// RunHookThis() for BeforeAll/AfterAll (arg nil).
func (vm *VM) RunHook(h *HookDef, this *goja.Object, arg *HookArg, timeout time.Duration) Outcome {
	if h.stub {
		return vm.outcomeOf(nil, errStub)
	}
	var vals []goja.Value
	if arg != nil {
		vals = append(vals, vm.hookArgValue(h.Kind, arg))
	}
	v, paused, err := vm.invokeStep(h.fn, h.fnLength, this, vals, timeout, vm.registry.TimeoutSource(h.Timeout, h.Source))
	out := vm.outcomeOf(v, err)
	out.Paused = paused
	return out
}

// hookArgValue is the hook's argument object, its keys in cucumber-js's
// order; the message-sized values are converted when first read.
func (vm *VM) hookArgValue(kind HookKind, arg *HookArg) goja.Value {
	rt := vm.rt
	o := rt.NewObject()
	lazy := func(name string, v any) {
		var cached goja.Value
		o.DefineAccessorProperty(name, rt.ToValue(func(goja.FunctionCall) goja.Value {
			if cached == nil {
				cached = vm.ToJS(v)
			}
			return cached
		}), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	result := func() {
		if arg.Result != nil {
			lazy("result", arg.Result)
		} else {
			o.Set("result", goja.Undefined())
		}
	}
	thrown := func() goja.Value {
		if je, ok := arg.Error.(*JSError); ok && je.Value != nil {
			return je.Value
		} else if arg.Error != nil {
			return ErrorValue(rt, arg.Error)
		}
		return goja.Undefined()
	}
	lazy("gherkinDocument", arg.GherkinDocument)
	lazy("pickle", arg.Pickle)
	if kind == BeforeStep || kind == AfterStep {
		lazy("pickleStep", arg.PickleStep)
		o.Set("testCaseStartedId", arg.TestCaseStartedID)
		o.Set("testStepId", arg.TestStepID)
		result()
		o.Set("error", thrown())
		return o
	}
	o.Set("testCaseStartedId", arg.TestCaseStartedID)
	if arg.AfterSteps {
		result()
		o.Set("error", thrown())
		o.Set("willBeRetried", arg.WillBeRetried)
	}
	return o
}

// invoke calls a step or hook function; a function declaring one more
// parameter than it is given uses the callback interface.
func (vm *VM) invoke(fn goja.Callable, length int, this goja.Value, args []goja.Value, clock *stepClock, timeout time.Duration) (goja.Value, error) {
	if length == len(args)+1 {
		rt := vm.rt
		p, resolve, reject := rt.NewPromise()
		cb := rt.ToValue(func(call goja.FunctionCall) goja.Value {
			if e := call.Argument(0); !goja.IsUndefined(e) && !goja.IsNull(e) {
				reject(e)
			} else {
				resolve(call.Argument(1))
			}
			return goja.Undefined()
		})
		args = append(args, cb)
		wrapper := func(this goja.Value, args ...goja.Value) (goja.Value, error) {
			if _, err := fn(this, args...); err != nil {
				return nil, err
			}
			return rt.ToValue(p), nil
		}
		return vm.callClocked(wrapper, this, args, clock, timeout, "function")
	}
	return vm.callClocked(fn, this, args, clock, timeout, "function")
}

// outcomeOf maps a step's return value or error to a status, as cucumber-js:
// 'pending' and 'skipped' results, PendingException/SkippedException.
func (vm *VM) outcomeOf(v goja.Value, err error) Outcome {
	if err != nil {
		if je, ok := err.(*JSError); ok {
			switch je.Type {
			case "PendingException":
				return Outcome{Status: messages.TestStepResultStatusPending, Err: je}
			case "SkippedException":
				return Outcome{Status: messages.TestStepResultStatusSkipped, Err: je}
			}
		}
		return Outcome{Status: messages.TestStepResultStatusFailed, Err: err}
	}
	if v != nil {
		if s, ok := v.Export().(string); ok {
			switch s {
			case "pending":
				return Outcome{Status: messages.TestStepResultStatusPending}
			case "skipped":
				return Outcome{Status: messages.TestStepResultStatusSkipped}
			}
		}
	}
	return Outcome{Status: messages.TestStepResultStatusPassed}
}

// transform converts a matched argument with its parameter type.
func (vm *VM) transform(a StepArg, world *goja.Object, timeout time.Duration) (goja.Value, error) {
	return vm.transformArg(a, world, func(fn goja.Callable, vals []goja.Value) (goja.Value, error) {
		return vm.Call(fn, world, vals, timeout, "parameter type "+a.ParamType+" transformer")
	})
}

// transformArg converts a matched argument: the built-in parameter types
// here, the others with their transformer, called through callTransformer.
func (vm *VM) transformArg(a StepArg, world goja.Value, callTransformer func(fn goja.Callable, vals []goja.Value) (goja.Value, error)) (goja.Value, error) {
	rt := vm.rt
	first := ""
	if len(a.Values) > 0 && a.Values[0] != nil {
		first = *a.Values[0]
	}
	switch a.ParamType {
	case "int", "byte", "short", "long":
		// The numeric built-ins give null for a group that did not
		// participate, as cucumber-js's do.
		if len(a.Values) == 0 || a.Values[0] == nil {
			return goja.Null(), nil
		}
		n, err := strconv.ParseInt(first, 10, 64)
		if err != nil {
			f, _ := strconv.ParseFloat(first, 64)
			return rt.ToValue(f), nil
		}
		return rt.ToValue(n), nil
	case "float", "double":
		if len(a.Values) == 0 || a.Values[0] == nil {
			return goja.Null(), nil
		}
		f, err := strconv.ParseFloat(first, 64)
		if err != nil {
			return rt.ToValue(math.NaN()), nil
		}
		return rt.ToValue(f), nil
	case "biginteger":
		if len(a.Values) == 0 || a.Values[0] == nil {
			return goja.Null(), nil
		}
		n, ok := new(big.Int).SetString(first, 10)
		if !ok {
			return goja.Undefined(), nil
		}
		return rt.ToValue(n), nil
	case "string":
		// {string} captures "..." or '...' in one of two groups.
		var s string
		for _, v := range a.Values {
			if v != nil {
				s = *v
				break
			}
		}
		s = strings.ReplaceAll(strings.ReplaceAll(s, `\"`, `"`), `\'`, `'`)
		return rt.ToValue(s), nil
	case "anonymous", "bigdecimal":
		// A RegExp group no parameter type claims: cucumber-js's anonymous
		// transform gives null for a group that did not participate.
		if len(a.Values) == 0 || a.Values[0] == nil {
			return goja.Null(), nil
		}
		return rt.ToValue(first), nil
	case "", "word":
		if len(a.Values) == 0 || a.Values[0] == nil {
			return goja.Undefined(), nil
		}
		return rt.ToValue(first), nil
	}
	// The last definition of a name wins: a project's parameter type
	// replaces the built-in library's of the same name (loaded first).
	for _, p := range slices.Backward(vm.registry.ParamTypes) {
		if p.Name != a.ParamType {
			continue
		}
		if p.stub {
			return nil, errStub
		}
		vals := make([]goja.Value, len(a.Values))
		for i, v := range a.Values {
			if v == nil {
				vals[i] = goja.Undefined()
			} else {
				vals[i] = rt.ToValue(*v)
			}
		}
		if p.transformer == nil {
			if len(vals) == 1 {
				return vals[0], nil
			}
			return rt.ToValue(vals), nil
		}
		return callTransformer(p.transformer, vals)
	}
	return nil, fmt.Errorf("unknown parameter type %q", a.ParamType)
}

func (vm *VM) newDataTable(t *messages.PickleTable) goja.Value {
	rt := vm.rt
	rows := make([]any, len(t.Rows))
	for i, r := range t.Rows {
		cells := make([]any, len(r.Cells))
		for j, c := range r.Cells {
			cells[j] = c.Value
		}
		rows[i] = rt.NewArray(cells...)
	}
	ctor, _ := goja.AssertConstructor(vm.prelude.Get("DataTable"))
	dt, err := ctor(nil, rt.NewArray(rows...))
	if err != nil {
		panic(err)
	}
	return dt
}
