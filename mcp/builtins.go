package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dop251/goja"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/world/browsing"
)

func (s *Server) addBuiltins() {
	s.server.AddTool(&sdk.Tool{
		Name:        ToolExtensions,
		Description: "Lists loaded extension files, their tools and capabilities; action reload re-reads them.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"include_schema":{"type":"boolean"},` +
			`"action":{"type":"string","enum":["list","reload"]}}}`),
		Annotations: &sdk.ToolAnnotations{IdempotentHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)},
	}, s.extensionsTool)
	if !s.caps["script"] {
		return
	}
	s.server.AddTool(&sdk.Tool{
		Name: ToolRunScript,
		Description: "Runs JavaScript (an async function body; return gives the result) in the session's VM (page, args, plugins[name](args), fetch, commands). " +
			"Answers {status: \"ok\", value} or {status: \"error\", error} and console output.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"source":{"type":"string"},` +
			`"args":{"type":"array"},` +
			`"timeout_ms":{"type":"integer","minimum":1}},` +
			`"required":["source"]}`),
		Annotations: annAct,
	}, s.runScriptTool)
}

// decodeArgs decodes a built-in's arguments strictly.
func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func errorResult(msg string) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}

// ReloadReport says what a reload changed.
type ReloadReport struct {
	Added           []string `json:"added"`
	Removed         []string `json:"removed"`
	Changed         []string `json:"changed"`
	ToolListChanged bool     `json:"toolListChanged"`
}

func (s *Server) extensionsTool(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in struct {
		IncludeSchema bool   `json:"include_schema"`
		Action        string `json:"action"`
	}
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return errorResult("invalid arguments for ferridriver_extensions: " + err.Error()), nil
	}
	var out struct {
		*Report
		Reloaded *ReloadReport `json:"reloaded,omitempty"`
	}
	switch in.Action {
	case "", "list":
	case "reload":
		rep, _, err := s.reload()
		if err != nil {
			return errorResult("ferridriver_extensions: " + err.Error()), nil
		}
		out.Reloaded = rep
	default:
		return errorResult(fmt.Sprintf("ferridriver_extensions: unknown action %q (list or reload)", in.Action)), nil
	}
	sess, err := s.clientOf(req.Session)
	if err != nil {
		return nil, err
	}
	// The client's VM loads the current build before the job runs.
	err = sess.do(ctx, func(vm *jsbridge.VM) error {
		set, _ := s.ext.current()
		out.Report = BuildReport(jsbridge.HostMCP, set, vm.Registry(), sess.loadErrs, in.IncludeSchema)
		return nil
	})
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(out)
	res := jsonText(b)
	// A reload that met errors says so: the report's errors name the files.
	res.IsError = out.Reloaded != nil && len(out.Report.Errors) > 0
	return res, nil
}

// reload rebuilds the extension files; a file that no longer builds keeps
// its last good build (and is reported). Every client's VM loads the new
// build before its next job. It syncs the served tools (from a VM of its
// own), which sends notifications/tools/list_changed only when they
// changed, and returns what changed and the load errors.
func (s *Server) reload() (*ReloadReport, []*jsbridge.FileError, error) {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	set, err := jsbridge.BuildExtensions(s.opts.Dir, s.opts.Extensions, s.opts.Alias)
	if err != nil {
		return nil, nil, err
	}
	s.ext.replace(set)
	set, _ = s.ext.current()
	vm, err := jsbridge.NewVM(nil, jsbridge.VMOptions{Host: jsbridge.HostMCP, Dir: s.opts.Dir, Env: s.opts.Env, Stdout: s.opts.Log, Stderr: s.opts.Log})
	if err != nil {
		return nil, nil, fmt.Errorf("creating the script VM: %w", err)
	}
	defer vm.Close()
	loadErrs := set.Load(vm)
	a, r, c := s.syncTools(vm)
	return &ReloadReport{Added: nonNil(a), Removed: nonNil(r), Changed: nonNil(c), ToolListChanged: len(a)+len(r)+len(c) > 0}, loadErrs, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ScriptResult is run_script's result (also its structuredContent).
type ScriptResult struct {
	Status     string       `json:"status"` // "ok" or "error"
	Value      any          `json:"value,omitempty"`
	Error      *ScriptError `json:"error,omitempty"`
	DurationMs int64        `json:"durationMs"`
	Console    string       `json:"console"`
}

// ScriptError describes a script that threw or timed out.
type ScriptError struct {
	Name    string `json:"name"`
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"`
}

const runScriptName = "run_script.js"

func (s *Server) runScriptTool(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in struct {
		Source    *string `json:"source"`
		Args      []any   `json:"args"`
		TimeoutMs *int64  `json:"timeout_ms"`
	}
	if err := decodeArgs(req.Params.Arguments, &in); err != nil {
		return errorResult("invalid arguments for run_script: " + err.Error()), nil
	}
	if in.Source == nil {
		return errorResult("invalid arguments for run_script: source is required"), nil
	}
	limit := s.opts.Timeout
	if in.TimeoutMs != nil {
		if *in.TimeoutMs < 1 {
			return errorResult("invalid arguments for run_script: timeout_ms must be >= 1"), nil
		}
		if d := time.Duration(*in.TimeoutMs) * time.Millisecond; limit == 0 || d < limit {
			limit = d
		}
	}
	if in.Args == nil {
		in.Args = []any{}
	}
	progress, flush := progressSender(ctx, req)
	report := func(p float64, msg string) {
		if progress != nil {
			progress(jsbridge.Progress{Progress: p, Total: 1, Message: msg})
		}
	}
	res := &ScriptResult{Status: "ok"}
	start := time.Now()
	sess, err := s.clientOf(req.Session)
	if err != nil {
		return nil, err
	}
	return s.runPausable(ctx, sess, func(ctx context.Context) (*sdk.CallToolResult, error) {
		err := sess.do(ctx, func(vm *jsbridge.VM) error {
			// What the script did on the page is recorded as steps when its
			// statements are actions built-in steps do, marked otherwise.
			sess.onPage(func(bs *browsing.Session) {
				if res.Status == "ok" {
					bs.RecordScript("run_script", *in.Source)
				} else {
					bs.Note(fmt.Sprintf("not recorded: run_script ran %s and failed (%s)", codeSummary(*in.Source), firstLine(res.Error.Message)))
				}
			})
			report(0, "executing script")
			stop := sess.console.startCapture()
			defer func() { res.Console = stop() }()
			fn, serr := compileFunction(vm, runScriptName, "(async function (args) {"+*in.Source+"\n})")
			if serr != nil {
				res.Status, res.Error = "error", serr
				return nil
			}
			v, serr := s.callJS(ctx, sess, vm, "run_script", "the script", fn, []goja.Value{vm.ToJS(in.Args)}, limit, progress)
			if serr != nil {
				res.Status, res.Error = "error", serr
				return nil
			}
			var err error
			if res.Value, err = exportJSON(vm, v); err != nil {
				res.Status, res.Error = "error", &ScriptError{Name: "TypeError", Message: "the script's value is " + err.Error()}
				return nil
			}
			report(1, "done")
			return nil
		})
		flush()
		if err != nil {
			return nil, err
		}
		res.DurationMs = time.Since(start).Milliseconds()
		b, _ := json.Marshal(res)
		if len(b) > MaxResultBytes {
			n := len(b)
			res.Status, res.Value = "error", nil
			res.Error = &ScriptError{Name: "RangeError", Message: fmt.Sprintf("the script's value is %d bytes of JSON; the limit for one result is %d bytes (%d MiB)", n, MaxResultBytes, MaxResultBytes>>20)}
			b, _ = json.Marshal(res)
		}
		return jsonText(b), nil
	})
}

// compileFunction evaluates source, which must give a function, in vm.
func compileFunction(vm *jsbridge.VM, name, source string) (goja.Callable, *ScriptError) {
	prg, err := goja.Compile(name, source, false)
	if err != nil {
		return nil, &ScriptError{Name: "SyntaxError", Message: err.Error()}
	}
	fnv, err := vm.Runtime().RunProgram(prg)
	if err != nil {
		return nil, &ScriptError{Name: "SyntaxError", Message: err.Error()}
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return nil, &ScriptError{Name: "TypeError", Message: "the code is not a function: write it as async (page) => { ... }"}
	}
	return fn, nil
}

// callJS calls fn in the client's VM with the server's limits: limit
// (a timeout, after which the VM is rebuilt), the memory limit, the
// client's cancellation; what names the code in errors ("the script").
// Session goroutine (a job of sess).
func (s *Server) callJS(ctx context.Context, sess *Session, vm *jsbridge.VM, tool, what string, fn goja.Callable, args []goja.Value, limit time.Duration, progress func(jsbridge.Progress)) (goja.Value, *ScriptError) {
	var v goja.Value
	var err error
	callCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stopWatch := watchMemory(uint64(s.opts.MemoryLimit), cancel)
	vm.WithCaller(callCtx, progress, func() {
		v, err = vm.CallContext(callCtx, fn, goja.Undefined(), args, limit, tool)
	})
	stopWatch()
	if err == nil {
		return v, nil
	}
	var te *jsbridge.TimeoutError
	var je *jsbridge.JSError
	var me *MemoryError
	switch {
	case errors.As(err, &me):
		sess.dropVMForMemory()
		return nil, &ScriptError{Name: "RangeError", Message: what + " was stopped: " + me.Error() + "; the script VM was rebuilt"}
	case errors.As(err, &te):
		sess.resetVM()
		return nil, &ScriptError{Name: "TimeoutError", Message: fmt.Sprintf("%s did not finish within %s; the script VM was rebuilt", what, limit)}
	case errors.As(err, &je):
		return nil, &ScriptError{Name: je.Type, Message: je.Message, Stack: je.Stack}
	}
	return nil, &ScriptError{Name: "Error", Message: err.Error()}
}

// exportJSON is v as JSON data (serialised with the VM's own
// JSON.stringify, whatever the script did to the global; undefined is nil).
func exportJSON(vm *jsbridge.VM, v goja.Value) (any, error) {
	if v == nil || goja.IsUndefined(v) {
		return nil, nil
	}
	s, err := vm.ResultJSON(v)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(s), nil
}
