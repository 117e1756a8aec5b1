package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// The built-in browser tools (browser_*, session_export) map tool calls
// onto the browser-session service (world/browsing), one file per family:
// browser_nav.go, browser_input.go, browser_page.go, browser_verify.go,
// browser_export.go. This file holds what they share: schemas, the
// session an argument names, and the text of a result.

// browserTools are the MCP clients' browser sessions: the service, which
// keys them by client (Session.key); a client's close with its Session.
type browserTools struct {
	svc *browsing.Service
}

// common are the arguments every browser tool takes.
type common struct {
	Session string `json:"session"`
}

// targetArgs name an element.
type targetArgs struct {
	Element  string `json:"element"`
	Ref      string `json:"ref"`
	Target   string `json:"target"`
	Selector string `json:"selector"`
	Role     string `json:"role"`
	Name     string `json:"name"`
}

var refPattern = regexp.MustCompile(`^e\d+$`)

func (a targetArgs) target() browsing.Target {
	t := browsing.Target{Ref: a.Ref, Selector: a.Selector, Role: a.Role, Name: a.Name}
	if a.Target != "" && t.Ref == "" && t.Selector == "" {
		if refPattern.MatchString(a.Target) {
			t.Ref = a.Target
		} else {
			t.Selector = a.Target
		}
	}
	return t
}

// snapArg is the snapshot wanted in an action's result.
type snapArg struct {
	Snapshot string `json:"snapshot"`
}

func (a snapArg) mode() (browsing.SnapMode, error) {
	switch a.Snapshot {
	case "", "diff":
		return browsing.SnapDiff, nil
	case "full":
		return browsing.SnapFull, nil
	case "none":
		return browsing.SnapNone, nil
	}
	return 0, fmt.Errorf("snapshot must be diff, full or none, not %q", a.Snapshot)
}

// Schema fragments, shared by the tools. Every byte here is sent to the
// agent's model with tools/list on every turn, so a schema lists only what
// an agent needs to call the tool as @playwright/mcp's agents do: no
// property descriptions where the name and the tool's description say
// enough. ferridriver's extras that every browser tool shares (session,
// snapshot, role with name; ref and selector, the spellings of older
// versions) are said once in the server's instructions
// (browserInstructions) and accepted by the handlers (decodeArgs), not
// listed in each schema.
var (
	str         = map[string]any{"type": "string"}
	boolean     = map[string]any{"type": "boolean"}
	number      = map[string]any{"type": "number"}
	strList     = map[string]any{"type": "array", "items": str}
	targetProps = map[string]any{"element": str, "target": str}
	// filename (the result saved to a project file instead of returned)
	// is said in the instructions.
	filenameProp = str
)

// desc is a property with a description.
func desc(typ, d string) map[string]any { return map[string]any{"type": typ, "description": d} }

// enum is a string property with its values.
func enum(values ...string) map[string]any { return map[string]any{"type": "string", "enum": values} }

// schema builds an object schema from property maps (later ones win). It
// does not say additionalProperties: false (bytes on every tools/list): the
// handler refuses unknown arguments (decodeArgs), naming them, and accepts
// the shared extras and older spellings the schema leaves out.
func schema(required []string, props ...map[string]any) json.RawMessage {
	all := map[string]any{}
	for _, p := range props {
		for k, v := range p {
			all[k] = v
		}
	}
	s := map[string]any{"type": "object", "properties": all}
	if len(required) > 0 {
		s["required"] = required
	}
	b, _ := json.Marshal(s)
	return b
}

// browserTool registers a browser tool whose handler gets the named
// session with its turn held (calls on one session run one at a time).
// args is the tool's argument struct (embedding common) to decode into.
func (s *Server) browserTool(t *sdk.Tool, newArgs func() any, run func(ctx context.Context, ss *browsing.Session, args any) (*sdk.CallToolResult, error)) {
	if !s.offered(t.Name) {
		return
	}
	s.server.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		args := newArgs()
		if err := decodeArgs(req.Params.Arguments, args); err != nil {
			return errorResult(fmt.Sprintf("invalid arguments for %s: %v", t.Name, err)), nil
		}
		name := ""
		if c, ok := args.(interface{ session() string }); ok {
			name = c.session()
		}
		client, err := s.clientOf(req.Session)
		if err != nil {
			return errorResult(err.Error()), nil
		}
		ss, err := s.browser.svc.Session(client.key, name)
		if err != nil {
			return errorResult(err.Error()), nil
		}
		var out *sdk.CallToolResult
		ctx = context.WithValue(ctx, requestKey{}, req)
		ctx = withProgress(ctx, req)
		if err := s.awaitBrowser(ctx); err != nil {
			return errorResult(t.Name + ": " + err.Error()), nil
		}
		err = ss.Do(ctx, func() error {
			var rerr error
			out, rerr = run(ctx, ss, args)
			return rerr
		})
		if err != nil {
			return errorResult(t.Name + ": " + err.Error()), nil
		}
		return out, nil
	})
}

func (c *common) session() string { return c.Session }

// textResult renders an action's result for the agent: the code and step,
// the page when it changed, the tool's output, the snapshot.
func textResult(r *browsing.Result, err error) (*sdk.CallToolResult, error) {
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if r.Code != "" {
		fmt.Fprintf(&b, "Code: %s\n", strings.ReplaceAll(r.Code, "\n", "\n      "))
	}
	for _, st := range r.Steps {
		fmt.Fprintf(&b, "Step: %s\n", st)
	}
	if r.NotRecorded != "" {
		fmt.Fprintf(&b, "Not recorded: %s\n", r.NotRecorded)
	}
	if r.Modal != "" {
		label := "Dialog"
		if strings.Contains(r.Modal, "file chooser") {
			label = "Modal state"
		}
		fmt.Fprintf(&b, "%s: %s\n", label, r.Modal)
	}
	if r.URL != "" || r.Title != "" {
		fmt.Fprintf(&b, "Page: %s", r.URL)
		if r.Title != "" {
			fmt.Fprintf(&b, " (%s)", r.Title)
		}
		b.WriteByte('\n')
	}
	if r.Output != "" {
		b.WriteString(r.Output)
		b.WriteByte('\n')
	}
	switch {
	case r.SnapshotIsDiff && r.Snapshot == "":
		b.WriteString("Snapshot: unchanged\n")
	case r.SnapshotIsDiff:
		b.WriteString("Snapshot changes:\n")
		b.WriteString(r.Snapshot)
	case r.Snapshot != "":
		b.WriteString("Snapshot:\n")
		b.WriteString(r.Snapshot)
	}
	out := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.TrimRight(b.String(), "\n")}}}
	if r.Image != nil {
		out.Content = append(out.Content, &sdk.ImageContent{Data: r.Image, MIMEType: r.ImageMIME})
	}
	return out, nil
}

// progressEvery is the interval of a long built-in's progress reports.
const progressEvery = time.Second

// progress sends one call's progress notifications when the call carries
// a progressToken: one counter per call, so that the notifications of the
// browser's start-up and of the tool itself keep increasing, as MCP
// requires.
type progress struct {
	req *sdk.CallToolRequest
	mu  sync.Mutex
	n   float64
}

type progressKey struct{}

// withProgress gives ctx the call's progress sender (none without a
// progressToken).
func withProgress(ctx context.Context, req *sdk.CallToolRequest) context.Context {
	if req == nil || req.Session == nil || req.Params.GetProgressToken() == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, &progress{req: req})
}

// progressOf is ctx's progress sender, nil when the call has no
// progressToken.
func progressOf(ctx context.Context) *progress {
	if p, _ := ctx.Value(progressKey{}).(*progress); p != nil {
		return p
	}
	if req := requestOf(ctx); req != nil && req.Session != nil && req.Params.GetProgressToken() != nil {
		return &progress{req: req}
	}
	return nil
}

// send notifies the next progress with msg; final sets the total to it.
func (p *progress) send(ctx context.Context, msg string, final bool) {
	p.mu.Lock()
	n := p.n
	p.n++
	p.mu.Unlock()
	total := 0.0
	if final {
		total = n
	}
	_ = p.req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: p.req.Params.GetProgressToken(), Progress: n, Total: total, Message: msg})
}

// ticking sends what at once, then every progressEvery what with the
// seconds spent, until the returned stop is called.
func (p *progress) ticking(ctx context.Context, what string) (stop func()) {
	p.send(ctx, what, false)
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		began := time.Now()
		for {
			select {
			case <-tick.C:
				p.send(ctx, fmt.Sprintf("%s (%.0f s)", what, time.Since(began).Seconds()), false)
			case <-quit:
				return
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(quit); <-done }) }
}

// awaitBrowser waits, when the server's browser is still starting (see
// browsing.Service.Start), for it to be up, reporting the wait as
// progress: the tool's own time then starts with a browser ready.
func (s *Server) awaitBrowser(ctx context.Context) error {
	ch := s.browser.svc.Starting()
	if ch == nil {
		return nil
	}
	began := time.Now()
	var stop func()
	if p := progressOf(ctx); p != nil {
		stop = p.ticking(ctx, "starting the browser")
	}
	select {
	case <-ch:
	case <-ctx.Done():
		if stop != nil {
			stop()
		}
		return ctx.Err()
	}
	if stop != nil {
		stop()
		progressOf(ctx).send(ctx, fmt.Sprintf("the browser is up (waited %.1f s)", time.Since(began).Seconds()), false)
	}
	return nil
}

// heartbeat reports a long built-in's progress when its call carries a
// progressToken: what at once, then every progressEvery the seconds spent,
// and "done" when the returned stop is called (before the result is
// sent). A client that restarts its timeout on progress keeps waiting for
// a slow page instead of giving up.
func heartbeat(ctx context.Context, what string) (stop func()) {
	p := progressOf(ctx)
	if p == nil {
		return func() {}
	}
	stopTicking := p.ticking(ctx, what)
	var once sync.Once
	return func() {
		once.Do(func() {
			stopTicking()
			p.send(ctx, "done", true)
		})
	}
}

func ptr[T any](v T) *T { return &v }

// Annotation sets. MCP defines each hint's default (readOnly false,
// destructive true, idempotent false, openWorld true): a set says only
// what differs, and a tool with all defaults (annAct) sends none, the
// same meaning in fewer bytes.
var (
	annRead     = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	annAct      *sdk.ToolAnnotations
	annSafe     = &sdk.ToolAnnotations{DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
	annNavigate = &sdk.ToolAnnotations{DestructiveHint: ptr(false)}
)

// addBrowserTools registers the browser tools (when the server has a
// browser).
func (s *Server) addBrowserTools() {
	s.addNavTools()
	s.addInputTools()
	s.addPageTools()
	s.addVerifyTools()
	s.addInspectTools()
	s.addVisionTools()
	s.addStorageTools()
	s.addDevtoolsTools()
	s.addVideoTools()
	s.addUserRecordingTools()
	s.addAnnotateTool()
	s.addExportTool()
	s.addRunBDDTool()
	if s.caps["script"] {
		s.addRunCodeTool()
	}
	s.addResumeTool()
}
