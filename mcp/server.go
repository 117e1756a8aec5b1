// Package mcp is ferridriver's MCP server (`ferridriver mcp`): it serves
// the extension tools that ask for it (defineTool with exposeAsTool) to AI
// agents over the Model Context Protocol, with the official Go SDK, plus
// the built-in tools ferridriver_extensions (what loaded, for review and
// reload) and run_script.
//
// Extension tools run in a script VM of host "mcp" through the same
// dispatch as plugins[...] calls (jsbridge.VM.CallTool): the inputSchema is
// enforced before the handler runs, timeoutMs applies, and the handler
// gets only the capabilities it declared. Failures are tool results with
// isError set, the message first and the detail (the stack mapped to the
// extension's source) after.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"sort"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/world/browsing"
)

// MaxCallTime caps one extension tool call however often it reports
// progress (see Options.Timeout), unless Timeout itself is longer.
const MaxCallTime = time.Hour

// DefaultTimeout is the server's limit on one tool call or script run when
// Options.Timeout is zero: the session-wide limit that applies to tools
// without timeoutMs.
const DefaultTimeout = 5 * time.Minute

// Options configure a Server.
type Options struct {
	// Dir is the project directory.
	Dir string
	// Extensions are the configured extension files and directories.
	Extensions []string
	// Alias maps import specifiers ([bundler] alias).
	Alias map[string]string
	// Env is process.env of the VM ([scripting] allowEnv applied).
	Env map[string]string
	// ScriptCommands is [scripting.allow.commands], granted to run_script.
	ScriptCommands *capability.CommandSet
	// Files is the MCP clients' filesystem grant ([mcp] allowRead and
	// allowWrite): what run_script's code may read and write, through
	// node:fs and the browser API. Nil grants nothing; extension tools
	// have their own allow.fs. The browser tools' grant is set on
	// Browsing (browsing.Service.SetFileAccess).
	Files *capability.FSPolicy
	// Timeout bounds one call (DefaultTimeout when zero; negative: none).
	// For extension tools it is an idle limit: every progress report of
	// the handler starts it again, up to MaxCallTime in all. When a call
	// outlives it the script VM is rebuilt.
	Timeout time.Duration
	// MemoryLimit is the heap (bytes) the server may grow to while an
	// extension tool or a script runs: past it the JavaScript is stopped,
	// the call fails and the VM is rebuilt (DefaultMemoryLimit when zero;
	// negative: none).
	MemoryLimit int64
	// NoRunScript leaves the run_script built-in out.
	NoRunScript bool
	// Caps turns tool groups on ("vision", "pdf", "network", "storage") or off ("-testing",
	// "-bdd", "-script"), as ResolveCaps reads them; nil: the default
	// groups (testing, bdd, script).
	Caps []string
	// Watch reloads the extensions when their files change (debounced),
	// as ferridriver_extensions {action: "reload"} does.
	Watch bool
	// Log receives console output of extensions and the server's notes
	// (never stdout, which carries the protocol). Nil discards them.
	Log io.Writer
	// Version is reported to clients.
	Version string
	// Browsing serves the built-in browser tools (browser_*,
	// session_export, run_bdd); nil leaves them out.
	Browsing *browsing.Service
	// Steps are the project's step-file globs ([test] steps), for run_bdd.
	Steps []string
	// Library loads the built-in step library for each run_bdd, so that a
	// run sees the page-object files as they are then (nil: none).
	Library func() (*jsbridge.Library, error)
	// Config returns the resolved configuration with its secrets hidden,
	// for browser_get_config (--caps config); nil leaves the tool out.
	Config func() (any, error)
}

// Server is an MCP server for one project. Each client (the stdio client,
// or each streamable-HTTP session) has its own Session: a script VM, its
// persistent processes and its browser sessions.
type Server struct {
	opts   Options
	server *sdk.Server
	ext    *extensions
	// reloadMu serialises reloads (the watcher's and the clients').
	reloadMu sync.Mutex

	mu      sync.Mutex
	exposed map[string]string // name -> JSON of the advertised tool
	// annotations are the exposed tools' annotations as declared (see
	// declaredAnnotationsMiddleware).
	annotations map[string]json.RawMessage

	browser *browserTools
	// caps are the tool groups served (ResolveCaps).
	caps map[string]bool

	clientsMu sync.Mutex
	clients   map[*sdk.ServerSession]*Session
	clientSeq int
	closed    bool
	// closing counts the Sessions of departed clients being closed.
	closing sync.WaitGroup
}

// New builds the extensions, loads them into a VM to learn their tools
// and registers the tools. A file that fails to bundle or load is reported
// by ferridriver_extensions and on Log; the other files' tools are served.
func New(opts Options) (*Server, error) {
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	} else if opts.Timeout < 0 {
		opts.Timeout = 0
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.MemoryLimit == 0 {
		opts.MemoryLimit = DefaultMemoryLimit
	} else if opts.MemoryLimit < 0 {
		opts.MemoryLimit = 0
	}
	if opts.Version == "" {
		opts.Version = jsbridge.Version
	}
	set, err := jsbridge.BuildExtensions(opts.Dir, opts.Extensions, opts.Alias)
	if err != nil {
		return nil, err
	}
	caps, err := ResolveCaps(opts.Caps)
	if err != nil {
		return nil, err
	}
	if opts.NoRunScript {
		caps["script"] = false
	}
	s := &Server{opts: opts, exposed: map[string]string{}, ext: &extensions{set: set}, clients: map[*sdk.ServerSession]*Session{}, caps: caps}
	s.server = sdk.NewServer(&sdk.Implementation{Name: "ferridriver", Version: opts.Version}, &sdk.ServerOptions{
		Instructions: instructionsFor(opts.Browsing != nil),
		Logger:       slog.New(slog.NewTextHandler(opts.Log, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
	})
	// recoverMiddleware is outermost: a panic anywhere below is one
	// request's error.
	s.server.AddReceivingMiddleware(s.recoverMiddleware, s.declaredAnnotationsMiddleware, argumentCapMiddleware)
	s.addBuiltins()
	s.addConfigTool()
	if opts.Browsing != nil {
		s.browser = &browserTools{svc: opts.Browsing}
		s.addBrowserTools()
	}
	report, err := s.loadTools()
	if err != nil {
		return nil, err
	}
	s.logReport(report)
	return s, nil
}

// loadTools loads the current extension build into a VM of its own to
// serve their tools, and reports what loaded. The clients' VMs load the
// same build when they are made.
func (s *Server) loadTools() (*Report, error) {
	set, _ := s.ext.current()
	vm, err := jsbridge.NewVM(nil, jsbridge.VMOptions{Host: jsbridge.HostMCP, Dir: s.opts.Dir, Env: s.opts.Env, Stdout: s.opts.Log, Stderr: s.opts.Log})
	if err != nil {
		return nil, fmt.Errorf("creating the script VM: %w", err)
	}
	defer vm.Close()
	loadErrs := set.Load(vm)
	s.syncTools(vm)
	return BuildReport(jsbridge.HostMCP, set, vm.Registry(), loadErrs, false), nil
}

// instructionsFor adds to instructions the conventions the browser tools
// share, said once here instead of in each tool's schema.
func instructionsFor(browser bool) string {
	if !browser {
		return instructions
	}
	return instructions + "\n" + browserInstructions
}

const browserInstructions = `Browser tools: target is a ref (e12) from the latest snapshot or a Playwright selector (role with name also works); element describes it.
session names a browser session (default "default"). snapshot (diff, full, none) sets what an action returns; default: what changed. filename saves a result to that project file instead.
Actions and browser_verify_* return the Playwright code and the Gherkin step they recorded; session_export writes the feature. A dialog or file chooser an action opens is reported: answer it with browser_handle_dialog or browser_file_upload.`

const instructions = `Extension tools come from the project's JS/TS files (defineTool); ferridriver_extensions lists them with their timeouts and capabilities.
A failed call returns isError: the message, then the detail (stack).`

// SDK returns the underlying SDK server.
func (s *Server) SDK() *sdk.Server { return s.server }

// Run serves the transport until the client disconnects or ctx ends, then
// closes the client's session (its persistent processes are killed, its
// browser contexts closed).
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	s.WatchExtensions(wctx)
	err := s.server.Run(ctx, t)
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, context.Canceled) {
		err = nil
	}
	return err
}

// WatchExtensions reloads the extensions whenever their files change,
// until ctx ends, when Options.Watch is set. Run does it for its
// transport; ServeHTTP does it too.
func (s *Server) WatchExtensions(ctx context.Context) {
	if s.opts.Watch {
		go s.watch(ctx)
	}
}

func (s *Server) logReport(r *Report) {
	exposed := 0
	for _, f := range r.Files {
		for _, t := range f.Tools {
			if t.Exposed {
				exposed++
			}
		}
	}
	fmt.Fprintf(s.opts.Log, "ferridriver mcp: %d tool(s) loaded from %d file(s), %d exposed\n", r.Count, len(r.Files), exposed)
	for _, e := range r.Errors {
		fmt.Fprintf(s.opts.Log, "ferridriver mcp: error: %s\n", e.Message)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(s.opts.Log, "ferridriver mcp: warning: %s: %s\n", w.Tool, w.Message)
	}
}

// advertised builds the tools/list entry of an exposed extension tool.
func advertised(def *jsbridge.ToolDef) *sdk.Tool {
	t := &sdk.Tool{Name: def.Name, Title: def.Title, Description: def.Description, InputSchema: json.RawMessage(`{"type":"object"}`)}
	if def.InputSchema != nil {
		t.InputSchema = def.InputSchema
	}
	if def.Annotations != nil {
		var a sdk.ToolAnnotations
		if json.Unmarshal(def.Annotations, &a) == nil {
			t.Annotations = &a
		}
	}
	return t
}

// syncTools makes the served extension tools those of vm's registry:
// removed ones are dropped, new or changed ones (re)added. The SDK sends
// notifications/tools/list_changed when the list changes. It returns the
// names added, removed and changed. Session goroutine.
func (s *Server) syncTools(vm *jsbridge.VM) (added, removed, changed []string) {
	want := map[string]*sdk.Tool{}
	for _, def := range vm.Registry().Tools {
		if ok, _ := Exposure(def); ok {
			want[def.Name] = advertised(def)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for name := range s.exposed {
		if _, ok := want[name]; !ok {
			removed = append(removed, name)
			delete(s.exposed, name)
		}
	}
	if len(removed) > 0 {
		s.server.RemoveTools(removed...)
	}
	s.annotations = map[string]json.RawMessage{}
	for _, def := range vm.Registry().Tools {
		if want[def.Name] != nil && def.Annotations != nil {
			s.annotations[def.Name] = def.Annotations
		}
	}
	for name, t := range want {
		b, _ := json.Marshal(t)
		prev, had := s.exposed[name]
		if had && prev == string(b) {
			continue
		}
		if had {
			changed = append(changed, name)
		} else {
			added = append(added, name)
		}
		s.exposed[name] = string(b)
		s.server.AddTool(t, s.extensionHandler(name))
	}
	sort.Strings(added)
	sort.Strings(removed)
	sort.Strings(changed)
	return added, removed, changed
}

// extensionHandler serves tools/call of an exposed extension tool.
func (s *Server) extensionHandler(name string) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		// Every tool advertises an object schema (a default one when it
		// declares none): hold callers to it before the handler runs.
		if a := bytes.TrimSpace(req.Params.Arguments); len(a) > 0 && !bytes.Equal(a, []byte("null")) && a[0] != '{' {
			return errorResult(fmt.Sprintf("invalid arguments for %s: the arguments must be a JSON object (its inputSchema is {\"type\":\"object\"}), got %.40s", name, a)), nil
		}
		progress, flush := progressSender(ctx, req)
		start := time.Now()
		var res json.RawMessage
		var callErr error
		// --timeout is an idle limit: each progress report of the handler
		// starts it again; MaxCallTime caps the call whatever it reports.
		callCtx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		limit, report := time.Duration(0), progress
		if idle := s.opts.Timeout; idle > 0 {
			limit = max(MaxCallTime, idle)
			timer := time.AfterFunc(idle, func() {
				cancel(&jsbridge.TimeoutError{What: "tool call", Ms: idle.Milliseconds()})
			})
			defer timer.Stop()
			report = func(p jsbridge.Progress) {
				timer.Reset(idle)
				if progress != nil {
					progress(p)
				}
			}
		}
		sess, err := s.clientOf(req.Session)
		if err != nil {
			return nil, err
		}
		err = sess.do(ctx, func(vm *jsbridge.VM) error {
			sess.noteJob("not recorded: the tool " + name + " used the page")
			stopWatch := watchMemory(uint64(s.opts.MemoryLimit), cancel)
			res, callErr = vm.CallTool(callCtx, name, req.Params.Arguments, jsbridge.CallOptions{Timeout: limit, Progress: report})
			stopWatch()
			if cause := context.Cause(callCtx); ctx.Err() == nil && cause != nil && !errors.Is(cause, context.Canceled) {
				callErr = cause // the idle limit or the memory limit passed
			}
			var te *jsbridge.TimeoutError
			var me *MemoryError
			switch {
			case errors.As(callErr, &te):
				// The call outlived the server's limit: its JS may have been
				// interrupted mid-work. Start the next call on a fresh VM.
				sess.resetVM()
			case errors.As(callErr, &me):
				sess.dropVMForMemory()
			}
			return nil
		})
		flush()
		if err != nil {
			return nil, err
		}
		if errors.Is(callErr, jsbridge.ErrUnknownTool) {
			return nil, callErr
		}
		return toolResult(name, res, callErr, time.Since(start), s.opts.Timeout), nil
	}
}

// progressSender returns a non-blocking progress callback for the VM and a
// flush function that delivers what is queued. Reports go out as
// notifications/progress when the request carries a progressToken, in
// order, and before the result.
func progressSender(ctx context.Context, req *sdk.CallToolRequest) (func(jsbridge.Progress), func()) {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil, func() {}
	}
	ch := make(chan jsbridge.Progress, 256)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for p := range ch {
			req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: p.Progress, Total: p.Total, Message: p.Message})
		}
	}()
	var once sync.Once
	closed := false
	var mu sync.Mutex
	send := func(p jsbridge.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if closed {
			return
		}
		select {
		case ch <- p:
		default: // best effort: a flood of reports is thinned, never blocks the VM
		}
	}
	flush := func() {
		once.Do(func() {
			mu.Lock()
			closed = true
			close(ch)
			mu.Unlock()
			<-done
		})
	}
	return send, flush
}

// argumentCapMiddleware answers a tools/call whose arguments are over
// MaxArgumentBytes with a tool error, whatever the tool.
func argumentCapMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method == "tools/call" {
			if p, ok := req.GetParams().(*sdk.CallToolParamsRaw); ok && len(p.Arguments) > MaxArgumentBytes {
				return errorResult(argumentsTooLarge(p.Name, len(p.Arguments))), nil
			}
		}
		return next(ctx, method, req)
	}
}

// declaredAnnotationsMiddleware makes tools/list advertise an extension
// tool's annotations exactly as declared: the SDK's ToolAnnotations type
// always writes idempotentHint (false when the tool did not say), which
// would put words in the tool's mouth.
func (s *Server) declaredAnnotationsMiddleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := res.(*sdk.ListToolsResult)
		if err != nil || method != "tools/list" || !ok {
			return res, err
		}
		s.mu.Lock()
		ann := maps.Clone(s.annotations)
		s.mu.Unlock()
		return listToolsAsDeclared{lr, ann}, nil
	}
}

// listToolsAsDeclared is a tools/list result whose tools' annotations are
// written as their extensions declared them.
type listToolsAsDeclared struct {
	*sdk.ListToolsResult
	annotations map[string]json.RawMessage
}

func (r listToolsAsDeclared) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(r.ListToolsResult)
	if err != nil || len(r.annotations) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return b, nil
	}
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(m["tools"], &tools); err != nil {
		return b, nil
	}
	for _, t := range tools {
		var name string
		json.Unmarshal(t["name"], &name)
		if a, ok := r.annotations[name]; ok {
			t["annotations"] = a
		}
	}
	m["tools"], _ = json.Marshal(tools)
	return json.Marshal(m)
}
