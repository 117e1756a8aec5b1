package jsbridge

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// Extension tools: defineTool registers a ToolDef in the Registry; plugins,
// the MCP server and scripts invoke it through one dispatch (invoke.go)
// that validates the arguments, enforces timeoutMs and binds the tool's
// declared capabilities (fetch.go, commands.go) to its handler.

// ToolDef is a tool registered with defineTool.
type ToolDef struct {
	// Name is the tool's unique, non-empty name (the plugins key and the
	// MCP tool name).
	Name string
	// Title and Description are shown to MCP clients.
	Title       string
	Description string
	// InputSchema is the declared JSON Schema as JSON; nil when none was
	// declared. Every caller's arguments are validated against it.
	InputSchema json.RawMessage
	// Annotations are MCP tool annotations as JSON (nil when none).
	Annotations json.RawMessage
	// ExposeAsTool promotes the tool to a first-class MCP tool.
	ExposeAsTool bool
	// Timeout is timeoutMs: the bound of one invocation, for every caller;
	// zero means none (only the caller's own limit applies).
	Timeout time.Duration
	// Allow is the parsed capability manifest; never nil.
	Allow *capability.Allow
	// Source is where defineTool was called.
	Source SourceRef
	// File is the extension file being loaded when the tool registered
	// (slash-separated, relative to the project directory). In a BDD run,
	// where steps and extensions form one bundle, it is Source.URI.
	File string

	schema  *jsonschema.Schema
	handler goja.Callable
}

// Tool returns the tool registered under name, or nil.
func (r *Registry) Tool(name string) *ToolDef {
	for _, t := range r.Tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// manifestKeys are the keys defineTool accepts. Any other key is an error:
// a misspelt exposeAsTool or timeoutMs must not silently mean "no".
var manifestKeys = []string{"name", "title", "description", "inputSchema", "exposeAsTool", "timeoutMs", "allow", "handler", "annotations"}

var knownManifestKeys = func() map[string]bool {
	m := make(map[string]bool, len(manifestKeys))
	for _, k := range manifestKeys {
		m[k] = true
	}
	return m
}()

//go:embed tools.js
var toolsGlueSource string

const toolsGlueName = "<ferridriver-tools>"

var (
	toolsGlueOnce sync.Once
	toolsGluePrg  *goja.Program
	toolsGlueErr  error
)

// toolState is the per-VM state of the tools layer.
type toolState struct {
	// session holds the persistent processes started by commands.start;
	// ownSession is set when the VM created it (and closes it).
	session    *capability.Session
	ownSession bool
	// scriptCommands is [scripting.allow.commands]: the global `commands`
	// of first-party code (steps, scripts).
	scriptCommands *capability.CommandSet
	// scriptFiles is the filesystem grant of first-party code in the mcp
	// and script hosts (see SetScriptFiles); nil: none.
	scriptFiles *capability.FSPolicy
	browser     BrowserProvider
	// baseCtx is cancelled when the VM closes: in-flight HTTP requests and
	// commands of the VM stop with it.
	baseCtx    context.Context
	cancelBase context.CancelFunc
	// jars are the cookie jars of the HTTP clients, one per tool ("" for
	// first-party code): a tool never sees another tool's cookies.
	jars map[string]http.CookieJar
	// unit is the extension file being evaluated ("" outside Evaluate).
	unit string

	glue            *goja.Object
	stringify       goja.Callable
	parse           goja.Callable
	promiseResolve  goja.Callable
	promiseThen     goja.Callable
	abortController goja.Constructor
}

type toolStateKey struct{}

// toolsOf returns the VM's tools state. Loop goroutine only.
func (vm *VM) toolsOf() *toolState {
	return vm.Local(toolStateKey{}, func() any {
		ctx, cancel := context.WithCancel(context.Background())
		st := &toolState{baseCtx: ctx, cancelBase: cancel, jars: map[string]http.CookieJar{}}
		vm.OnClose(func() {
			cancel()
			if st.ownSession && st.session != nil {
				st.session.Close()
			}
		})
		return st
	}).(*toolState)
}

func init() {
	RegisterInit(initTools)
	RegisterModule("ferridriver", func(vm *VM) (goja.Value, error) {
		o := vm.rt.NewObject()
		g := vm.rt.GlobalObject()
		for _, name := range []string{"defineTool", "plugins", "fetch", "Headers", "Response"} {
			o.Set(name, g.Get(name))
		}
		return o, nil
	})
}

// initTools installs defineTool, plugins, fetch, Headers, Response, the
// first-party commands object and, in the script and mcp hosts, the page
// and context globals. It captures the builtins the tools layer relies on
// before user code can replace them.
func initTools(vm *VM) error {
	rt := vm.rt
	st := vm.toolsOf()
	jsonObj := rt.Get("JSON").ToObject(rt)
	st.stringify, _ = goja.AssertFunction(jsonObj.Get("stringify"))
	st.parse, _ = goja.AssertFunction(jsonObj.Get("parse"))
	promise := rt.Get("Promise").ToObject(rt)
	resolve, _ := goja.AssertFunction(promise.Get("resolve"))
	st.promiseResolve = func(this goja.Value, args ...goja.Value) (goja.Value, error) { return resolve(promise, args...) }
	st.promiseThen, _ = goja.AssertFunction(promise.Get("prototype").ToObject(rt).Get("then"))
	st.abortController, _ = goja.AssertConstructor(rt.Get("AbortController"))

	toolsGlueOnce.Do(func() {
		toolsGluePrg, toolsGlueErr = goja.Compile(toolsGlueName, toolsGlueSource, true)
	})
	if toolsGlueErr != nil {
		return fmt.Errorf("ferridriver tools glue: %w", toolsGlueErr)
	}
	v, err := rt.RunProgram(toolsGluePrg)
	if err != nil {
		return fmt.Errorf("ferridriver tools glue: %w", err)
	}
	fn, _ := goja.AssertFunction(v)
	exp, err := fn(goja.Undefined())
	if err != nil {
		return fmt.Errorf("ferridriver tools glue: %w", vm.toJSError(err))
	}
	st.glue = exp.ToObject(rt)

	g := rt.GlobalObject()
	g.Set("defineTool", vm.defineToolFunc)
	g.Set("plugins", rt.NewDynamicObject(&pluginsObject{vm: vm}))
	g.Set("Headers", st.glue.Get("Headers"))
	g.Set("Response", st.glue.Get("Response"))
	g.Set("fetch", vm.glueCall("makeFetch", rt.ToValue(vm.httpNative(nil))))
	g.Set("commands", vm.commandsObject(nil))
	if vm.opts.Host == HostScript || vm.opts.Host == HostMCP {
		vm.installBrowserGlobals()
	}
	fd := g.Get("ferridriver").ToObject(rt)
	fd.Set("defineTool", g.Get("defineTool"))
	fd.Set("plugins", g.Get("plugins"))
	return nil
}

// glueCall calls a function exported by tools.js (it cannot fail for
// well-formed arguments: a failure is a bug in ferridriver).
func (vm *VM) glueCall(name string, args ...goja.Value) goja.Value {
	fn, ok := goja.AssertFunction(vm.toolsOf().glue.Get(name))
	if !ok {
		panic(fmt.Sprintf("ferridriver tools glue: no function %s", name))
	}
	v, err := fn(goja.Undefined(), args...)
	if err != nil {
		panic(err)
	}
	return v
}

// SetCommandSession makes the VM's commands (tools' and first-party) use
// s, which holds the persistent processes. A host gives every VM of one
// session the same s, so a persistent process survives a VM rebuild; the
// host closes s when the session ends. Without it a VM uses a session of
// its own, closed with the VM. Loop goroutine only.
func SetCommandSession(vm *VM, s *capability.Session) {
	st := vm.toolsOf()
	if st.ownSession && st.session != nil {
		st.session.Close()
	}
	st.session, st.ownSession = s, false
}

// SetScriptCommands grants first-party code (steps, scripts, run_script)
// the commands of [scripting.allow.commands], through the global
// `commands` object. Tool handlers never inherit them. Loop goroutine only.
func SetScriptCommands(vm *VM, set *capability.CommandSet) {
	vm.toolsOf().scriptCommands = set
}

func (st *toolState) commandSession() *capability.Session {
	if st.session == nil {
		st.session, st.ownSession = capability.NewSession(), true
	}
	return st.session
}

// opContext is the context of one operation (an HTTP request, a command)
// started by frame's handler, or by first-party code when frame is nil. It
// is cancelled when the VM closes and when frame is abandoned (the cause
// is then frame.revoked()). cancel must be called when the operation ends.
func (st *toolState) opContext(frame *ToolFrame) (ctx context.Context, cancel context.CancelCauseFunc) {
	ctx, cancelCtx := context.WithCancelCause(st.baseCtx)
	if frame == nil {
		return ctx, cancelCtx
	}
	stop := context.AfterFunc(frame.ctx, func() { cancelCtx(frame.revoked()) })
	return ctx, func(cause error) {
		stop()
		cancelCtx(cause)
	}
}

// defineToolFunc implements defineTool(manifest) and
// defineTool(manifest, handler).
func (vm *VM) defineToolFunc(call goja.FunctionCall) goja.Value {
	vm.mustLoad("defineTool")
	src := vm.callerSource()
	fail := func(format string, args ...any) {
		vm.ThrowTypeError("defineTool: "+format, args...)
	}
	m, ok := call.Argument(0).(*goja.Object)
	if !ok || m.ClassName() == "Array" || m.ClassName() == "Function" {
		fail("the first argument must be a manifest object {name, description?, inputSchema?, exposeAsTool?, timeoutMs?, allow?, handler?}")
	}
	for _, k := range m.Keys() {
		if !knownManifestKeys[k] {
			fail("unknown manifest key %q (known: %s)", k, strings.Join(manifestKeys, ", "))
		}
	}
	get := func(k string) goja.Value {
		v := m.Get(k)
		if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
			return nil
		}
		return v
	}
	def := &ToolDef{Source: src}
	nameV := get("name")
	if nameV == nil {
		fail("name is required: a non-empty string, unique across all loaded extensions")
	}
	name, ok := nameV.Export().(string)
	if !ok || strings.TrimSpace(name) == "" {
		fail("name must be a non-empty string, got %s", describeJS(nameV))
	}
	if strings.TrimSpace(name) != name {
		fail("name %q must not start or end with white space", name)
	}
	def.Name = name
	failTool := func(format string, args ...any) {
		fail("tool %q: %s", name, fmt.Sprintf(format, args...))
	}
	str := func(k string) string {
		v := get(k)
		if v == nil {
			return ""
		}
		s, ok := v.Export().(string)
		if !ok {
			failTool("%s must be a string, got %s", k, describeJS(v))
		}
		return s
	}
	def.Title = str("title")
	def.Description = str("description")
	if v := get("exposeAsTool"); v != nil {
		b, ok := v.Export().(bool)
		if !ok {
			failTool("exposeAsTool must be a boolean, got %s", describeJS(v))
		}
		def.ExposeAsTool = b
	}
	if v := get("timeoutMs"); v != nil {
		ms, ok := numberOf(v)
		if !ok || math.IsNaN(ms) || math.IsInf(ms, 0) || ms <= 0 || ms > float64(math.MaxInt64/int64(time.Millisecond)) {
			failTool("timeoutMs must be a positive number of milliseconds, got %s", describeJS(v))
		}
		def.Timeout = time.Duration(ms * float64(time.Millisecond))
	}
	if v := get("allow"); v != nil {
		raw, err := vm.jsonValue(v)
		if err != nil {
			failTool("allow: %v", err)
		}
		a, err := capability.ParseAllow(raw)
		if err != nil {
			failTool("%v", err)
		}
		def.Allow = a
	} else {
		def.Allow, _ = capability.ParseAllow(nil)
	}
	if v := get("inputSchema"); v != nil {
		s, err := vm.JSONString(v)
		if err != nil || s == "" {
			failTool("inputSchema must be a JSON Schema (an object or a boolean): %v", err)
		}
		sch, err := compileSchema(s)
		if err != nil {
			failTool("invalid inputSchema: %v", err)
		}
		def.InputSchema, def.schema = json.RawMessage(s), sch
	}
	if v := get("annotations"); v != nil {
		s, err := vm.JSONString(v)
		if err != nil || !strings.HasPrefix(s, "{") {
			failTool("annotations must be an object")
		}
		def.Annotations = json.RawMessage(s)
	}
	handler := call.Argument(1)
	if goja.IsUndefined(handler) {
		if h := get("handler"); h != nil {
			handler = h
		}
	}
	fn, ok := goja.AssertFunction(handler)
	if !ok {
		failTool("no handler: pass defineTool({..., handler}) or defineTool(manifest, handler)")
	}
	def.handler = fn
	st := vm.toolsOf()
	def.File = st.unit
	if def.File == "" {
		def.File = src.URI
	}
	if prev := vm.registry.Tool(name); prev != nil {
		fail("duplicate tool name %q: already defined in %s, defined again in %s (tool names must be unique across all loaded extensions)",
			name, prev.Source.String(), src.String())
	}
	vm.registry.Tools = append(vm.registry.Tools, def)
	vm.registry.Order = append(vm.registry.Order, Def{Kind: DefTool, Index: len(vm.registry.Tools) - 1})
	return goja.Undefined()
}

// describeJS names a JS value's type for error messages.
func describeJS(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if goja.IsNull(v) {
		return "null"
	}
	switch x := v.Export().(type) {
	case string:
		return fmt.Sprintf("string %q", x)
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case int64, float64:
		return "number " + v.String()
	}
	if o, ok := v.(*goja.Object); ok {
		switch o.ClassName() {
		case "Array":
			return "an array"
		case "Function":
			return "a function"
		}
		return "an object"
	}
	return v.String()
}

func numberOf(v goja.Value) (float64, bool) {
	switch x := v.Export().(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// JSONString serialises v with the JSON.stringify captured before user
// code ran (so user code replacing JSON.stringify changes nothing). It
// returns "" for values JSON cannot represent (undefined, a function), and
// an error for cycles and BigInts.
func (vm *VM) JSONString(v goja.Value) (string, error) {
	out, err := vm.toolsOf().stringify(goja.Undefined(), v)
	if err != nil {
		err = vm.toJSError(err)
		if je, ok := err.(*JSError); ok {
			return "", fmt.Errorf("not JSON-serialisable: %s", je.Message)
		}
		return "", err
	}
	if goja.IsUndefined(out) {
		return "", nil
	}
	return out.String(), nil
}

// ResultJSON is JSONString for a result that must arrive whole: where
// JSON.stringify would silently drop a function or a symbol (or turn one
// in an array into null), it fails, naming the property.
func (vm *VM) ResultJSON(v goja.Value) (string, error) {
	var bad string
	replacer := vm.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		key, val := call.Argument(0).String(), call.Argument(1)
		_, isFn := goja.AssertFunction(val)
		_, isSym := val.(*goja.Symbol)
		if (isFn || isSym) && bad == "" {
			what := "a function"
			if isSym {
				what = "a symbol"
			}
			if key == "" {
				bad = "the value is " + what
			} else {
				bad = fmt.Sprintf("property %q is %s", key, what)
			}
		}
		return val
	})
	out, err := vm.toolsOf().stringify(goja.Undefined(), v, replacer)
	switch {
	case err != nil:
		err = vm.toJSError(err)
		if je, ok := err.(*JSError); ok {
			return "", fmt.Errorf("not JSON-serialisable: %s", je.Message)
		}
		return "", err
	case bad != "":
		return "", fmt.Errorf("not JSON-serialisable: %s, which JSON cannot carry", bad)
	case goja.IsUndefined(out):
		return "", nil
	}
	return out.String(), nil
}

// jsonValue is v as decoded JSON (map[string]any, []any, float64...): what
// capability.ParseAllow and friends expect.
func (vm *VM) jsonValue(v goja.Value) (any, error) {
	s, err := vm.JSONString(v)
	if err != nil {
		return nil, err
	}
	if s == "" {
		return nil, nil
	}
	var out any
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, err
	}
	return out, nil
}

// FromJSON parses JSON text into a fresh JS value ("" is undefined) with
// the JSON.parse captured before user code ran. It panics with a JS
// exception on malformed text: call it from JS-facing code.
func (vm *VM) FromJSON(s string) goja.Value {
	if s == "" {
		return goja.Undefined()
	}
	v, err := vm.toolsOf().parse(goja.Undefined(), vm.rt.ToValue(s))
	if err != nil {
		panic(err)
	}
	return v
}

// noLoader refuses every $ref that leaves the schema: a tool's schema must
// not make ferridriver read files or fetch URLs when it loads.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external $ref %q is not allowed (inputSchema must be self-contained)", url)
}

// schemaLocation is the resource URL every inputSchema is compiled under
// (each with its own compiler). It is a constant: a tool name in the URL
// would be parsed as one, and a name with "#" or "%" would break a valid
// schema.
const schemaLocation = "ferridriver-tool:///inputSchema.json"

// compileSchema compiles a tool's inputSchema (draft 2020-12 unless it
// says otherwise with $schema; formats are asserted, not just annotated).
func compileSchema(doc string) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaLocation, v); err != nil {
		return nil, err
	}
	sch, err := c.Compile(schemaLocation)
	if err != nil {
		return nil, cleanSchemaError(err, schemaLocation)
	}
	return sch, nil
}

// cleanSchemaError makes a compile error one readable line: the schema's
// violations of its metaschema, or the compiler's message without the
// internal resource URL.
func cleanSchemaError(err error, loc string) error {
	var sve *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	if errors.As(err, &sve) && errors.As(sve.Err, &ve) {
		return fmt.Errorf("not valid JSON Schema: %s", strings.Join(schemaProblems(ve), "; "))
	}
	msg := strings.ReplaceAll(err.Error(), "'"+loc+"'", "the schema")
	msg = strings.ReplaceAll(msg, "\""+loc+"\"", "the schema")
	msg = strings.ReplaceAll(msg, loc, "")
	return fmt.Errorf("%s", strings.Join(strings.Fields(msg), " "))
}

var schemaPrinter = message.NewPrinter(language.English)

// schemaProblems lists the leaves of a validation error tree (the actual
// violations, not the allOf/anyOf nodes above them) as "at /path: message",
// sorted and de-duplicated, at most 20.
func schemaProblems(ve *jsonschema.ValidationError) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		loc := "/" + strings.Join(e.InstanceLocation, "/")
		p := "at " + loc + ": " + e.ErrorKind.LocalizedString(schemaPrinter)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	walk(ve)
	sort.Strings(out)
	if len(out) > 20 {
		out = append(out[:20], fmt.Sprintf("… and %d more", len(out)-20))
	}
	return out
}

// ArgsError is a call whose arguments do not match the tool's inputSchema.
// The handler was not entered.
type ArgsError struct {
	Tool string
	// Problems are the schema violations, "at /path: message", sorted.
	Problems []string
}

func (e *ArgsError) Error() string {
	return fmt.Sprintf("invalid arguments for tool %q (they do not match its inputSchema): %s",
		e.Tool, strings.Join(e.Problems, "; "))
}

// validateArgs checks the JSON text of a call's arguments.
func (t *ToolDef) validateArgs(args string) error {
	if t.schema == nil {
		return nil
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(args))
	if err != nil {
		return &ArgsError{Tool: t.Name, Problems: []string{"arguments are not JSON: " + err.Error()}}
	}
	err = t.schema.Validate(v)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return &ArgsError{Tool: t.Name, Problems: []string{err.Error()}}
	}
	return &ArgsError{Tool: t.Name, Problems: schemaProblems(ve)}
}
