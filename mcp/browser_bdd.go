package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/browserenv"
	"github.com/ferridriver/ferridriver/world/browsing"
)

// run_bdd: feature files, or Gherkin given inline, run with the project's
// steps, the built-in steps and the extensions on the session's live page
// (its current tab: no fresh context), with a result per scenario and
// step and a progress notification per scenario.

type runBDDArgs struct {
	common
	Features []string `json:"features"`
	Gherkin  string   `json:"gherkin"`
	Tags     string   `json:"tags"`
}

// BDDResult is run_bdd's structured result.
type BDDResult struct {
	Success    bool           `json:"success"`
	Scenarios  []BDDScenario  `json:"scenarios"`
	Counts     map[string]int `json:"counts"`
	DurationMs int64          `json:"durationMs"`
}

// BDDScenario is one test case's outcome.
type BDDScenario struct {
	Name   string    `json:"name"`
	URI    string    `json:"uri"`
	Line   int64     `json:"line,omitempty"`
	Status string    `json:"status"`
	Steps  []BDDStep `json:"steps"`
}

// BDDStep is one step's (or hook's) outcome.
type BDDStep struct {
	Text       string `json:"text"`
	Status     string `json:"status"`
	DurationMs int64  `json:"durationMs"`
	Error      string `json:"error,omitempty"`
}

// bddCollector builds BDDResult from the message stream.
type bddCollector struct {
	mu         sync.Mutex
	pickles    map[string]*messages.Pickle
	stepText   map[string]string // pickle step id -> text
	cases      map[string]*messages.TestCase
	started    map[string]*BDDScenario // testCaseStarted id
	stepOf     map[string]string       // test step id -> text
	out        []*BDDScenario
	onScenario func(done int, sc *BDDScenario)
}

var statusRank = map[string]int{"PASSED": 0, "SKIPPED": 1, "PENDING": 2, "UNDEFINED": 3, "AMBIGUOUS": 4, "FAILED": 5, "UNKNOWN": 1}

func (c *bddCollector) Handle(env *messages.Envelope) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case env.Pickle != nil:
		c.pickles[env.Pickle.ID] = env.Pickle
		for _, st := range env.Pickle.Steps {
			c.stepText[st.ID] = st.Text
		}
	case env.TestCase != nil:
		c.cases[env.TestCase.ID] = env.TestCase
		for _, ts := range env.TestCase.TestSteps {
			text := "hook"
			if ts.PickleStepID != nil {
				text = c.stepText[*ts.PickleStepID]
			}
			c.stepOf[ts.ID] = text
		}
	case env.TestCaseStarted != nil:
		tc := c.cases[env.TestCaseStarted.TestCaseID]
		sc := &BDDScenario{Status: "PASSED", Steps: []BDDStep{}}
		if tc != nil {
			if p := c.pickles[tc.PickleID]; p != nil {
				sc.Name, sc.URI = p.Name, p.URI
				if p.Location != nil {
					sc.Line = p.Location.Line
				}
			}
		}
		c.started[env.TestCaseStarted.ID] = sc
	case env.TestStepFinished != nil:
		f := env.TestStepFinished
		sc := c.started[f.TestCaseStartedID]
		if sc == nil {
			return
		}
		r := f.TestStepResult
		st := BDDStep{Text: c.stepOf[f.TestStepID], Status: string(r.Status),
			DurationMs: (r.Duration.Seconds*1e9 + r.Duration.Nanos) / 1e6}
		if r.Message != nil {
			st.Error = *r.Message
		}
		// Hooks that passed are noise for an agent.
		if st.Text == "hook" && st.Status == "PASSED" {
			return
		}
		sc.Steps = append(sc.Steps, st)
		if statusRank[st.Status] > statusRank[sc.Status] {
			sc.Status = st.Status
		}
	case env.TestCaseFinished != nil:
		sc := c.started[env.TestCaseFinished.TestCaseStartedID]
		if sc == nil || env.TestCaseFinished.WillBeRetried {
			return
		}
		c.out = append(c.out, sc)
		if c.onScenario != nil {
			c.onScenario(len(c.out), sc)
		}
	}
}

func (s *Server) addRunBDDTool() {
	s.browserTool(&sdk.Tool{
		Name:        "run_bdd",
		Description: "Runs features (paths, globs, file.feature:LINE) or inline gherkin on the session's current tab; returns each scenario's steps and status.",
		InputSchema: schema(nil, map[string]any{"features": strList, "gherkin": str, "tags": desc("string", "tag expression")}),
		Annotations: annAct,
	}, func() any { return &runBDDArgs{} }, func(ctx context.Context, ss *browsing.Session, a any) (*sdk.CallToolResult, error) {
		in := a.(*runBDDArgs)
		paths := in.Features
		if in.Gherkin != "" {
			tmp, err := os.MkdirTemp("", "ferridriver-run-bdd-")
			if err != nil {
				return nil, err
			}
			defer os.RemoveAll(tmp)
			f := filepath.Join(tmp, "inline.feature")
			if err := os.WriteFile(f, []byte(in.Gherkin), 0o644); err != nil {
				return nil, err
			}
			paths = append(paths, f)
		}
		if len(paths) == 0 {
			return nil, errors.New("give features or gherkin")
		}
		// Create the session's page now, so the scenarios run on it.
		if _, err := ss.Live(ctx); err != nil {
			return nil, err
		}
		var lib *jsbridge.Library
		if s.opts.Library != nil {
			var err error
			if lib, err = s.opts.Library(); err != nil {
				return nil, err
			}
		}
		env := browserenv.NewLive(s.browser.svc.Launcher(), func() (*world.Session, error) { return ss.Live(ctx) }, browserenv.Options{})
		var log strings.Builder
		lw := &limitWriter{w: &log, n: 64 << 10}
		opts := runner.Options{
			Dir: s.opts.Dir, Paths: paths, Steps: s.opts.Steps, Library: lib, Extensions: s.opts.Extensions, Alias: s.opts.Alias,
			Env: s.opts.Env, ScriptCommands: s.opts.ScriptCommands, Strict: true,
			Stdout: lw, Stderr: lw, Environment: env,
		}
		if in.Tags != "" {
			opts.Tags = []string{in.Tags}
		}
		run, err := runner.Prepare(opts)
		if err != nil {
			return nil, err
		}
		req := requestOf(ctx)
		total := 0
		col := &bddCollector{pickles: map[string]*messages.Pickle{}, stepText: map[string]string{}, cases: map[string]*messages.TestCase{},
			started: map[string]*BDDScenario{}, stepOf: map[string]string{}}
		col.onScenario = func(done int, sc *BDDScenario) {
			if req != nil && req.Params.GetProgressToken() != nil && req.Session != nil {
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(),
					Progress: float64(done), Total: float64(total), Message: fmt.Sprintf("%s: %s", sc.Name, sc.Status)})
			}
		}
		start := time.Now()
		total = 0
		res := run.Execute(ctx, runner.SinkFunc(func(e *messages.Envelope) {
			if e.TestCase != nil {
				total++
			}
			col.Handle(e)
		}))
		_ = env.Close()
		out := BDDResult{Success: res.Success, Scenarios: []BDDScenario{}, Counts: map[string]int{}, DurationMs: time.Since(start).Milliseconds()}
		for _, sc := range col.out {
			out.Scenarios = append(out.Scenarios, *sc)
			out.Counts[strings.ToLower(sc.Status)]++
		}
		// structuredContent carries the result; the text is a summary of
		// it, so the data is not sent twice.
		b, _ := json.Marshal(out)
		var sum strings.Builder
		fmt.Fprintf(&sum, "run_bdd: %d scenario(s)", len(out.Scenarios))
		for _, st := range []string{"passed", "failed", "undefined", "ambiguous", "pending", "skipped"} {
			if n := out.Counts[st]; n > 0 {
				fmt.Fprintf(&sum, ", %d %s", n, st)
			}
		}
		for _, sc := range out.Scenarios {
			fmt.Fprintf(&sum, "\n%s %s (%s:%d)", sc.Status, sc.Name, sc.URI, sc.Line)
			for _, step := range sc.Steps {
				if step.Error != "" || (step.Status != "PASSED" && step.Status != "SKIPPED") {
					fmt.Fprintf(&sum, "\n  %s %s", step.Status, step.Text)
					if step.Error != "" {
						fmt.Fprintf(&sum, ": %s", firstLine(step.Error))
					}
				}
			}
		}
		text := sum.String()
		if log.Len() > 0 {
			text += "\n\nConsole output:\n" + log.String()
		}
		page, err := ss.PageState(ctx, browsing.SnapDiff)
		if err == nil {
			if r, _ := textResult(page, nil); r != nil {
				text += "\n\n" + resultText(r)
			}
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: json.RawMessage(b), IsError: !res.Success}, nil
	})
}

func resultText(r *sdk.CallToolResult) string {
	if len(r.Content) > 0 {
		if t, ok := r.Content[0].(*sdk.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

type requestKey struct{}

// requestOf is the tool call's request, which browserTool puts in ctx
// (for progress notifications).
func requestOf(ctx context.Context) *sdk.CallToolRequest {
	r, _ := ctx.Value(requestKey{}).(*sdk.CallToolRequest)
	return r
}

// limitWriter keeps the first n bytes written.
type limitWriter struct {
	mu sync.Mutex
	w  *strings.Builder
	n  int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.n - l.w.Len(); room > 0 {
		if len(p) > room {
			l.w.Write(p[:room])
		} else {
			l.w.Write(p)
		}
	}
	return len(p), nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
