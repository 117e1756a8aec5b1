package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/world/browsing"
)

// page.pause() and browser_resume (@playwright/mcp's devtools group).
// Code run on the agent's page (browser_run_code_unsafe, run_script) that
// calls `await page.pause()` stops there; the call returns to the agent
// saying where, the page's turn given back so that the browser tools
// (browser_snapshot...) act on it; browser_resume lets the code go on and
// answers when it pauses again or ends, with the call's result then.
// step pauses again before the code's next Playwright call; location
// ("file:line") before the next call made from that line.

// debugState is a client's paused or pausable code.
type debugState struct {
	// turn is held by the pausable run going on.
	turn chan struct{}
	mu   sync.Mutex
	run  *pausableRun // the code of a call running, nil when none
	// step and runTo say where the resumed code pauses next.
	step  bool
	runTo string
}

// pausableRun is one call's code, which may outlive the call when it
// pauses.
type pausableRun struct {
	pauses chan string
	done   chan *sdk.CallToolResult
	// resume is closed to resume the paused code (nil when not paused);
	// where is where it paused. Under debugState.mu.
	resume chan struct{}
	where  string
	// detached is set when the call that started the code returned: its
	// end no longer stops the code.
	detached atomic.Bool
}

// runPausable runs a call's code (run) so that it may pause: the result
// is the code's, or that it paused.
func (s *Server) runPausable(ctx context.Context, sess *Session, run func(ctx context.Context) (*sdk.CallToolResult, error)) (*sdk.CallToolResult, error) {
	d := &sess.dbg
	d.mu.Lock()
	if pr := d.run; pr != nil && pr.resume != nil {
		where := pr.where
		d.mu.Unlock()
		return errorResult("code is paused at " + where + ": call browser_resume first"), nil
	}
	d.mu.Unlock()
	pr := &pausableRun{pauses: make(chan string, 1), done: make(chan *sdk.CallToolResult, 1)}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, func() {
		if !pr.detached.Load() {
			cancel()
		}
	})
	go func() {
		defer stop()
		defer cancel()
		// One pausable run at a time: pauses and resumes go to it.
		select {
		case d.turn <- struct{}{}:
		case <-runCtx.Done():
			pr.done <- errorResult(runCtx.Err().Error())
			return
		}
		d.mu.Lock()
		d.run, d.step, d.runTo = pr, false, ""
		d.mu.Unlock()
		out, err := run(runCtx)
		if err != nil {
			out = errorResult(err.Error())
		}
		d.mu.Lock()
		d.run = nil
		d.mu.Unlock()
		<-d.turn
		pr.done <- out
	}()
	return awaitRun(ctx, pr)
}

// awaitRun waits for the code to end or pause.
func awaitRun(ctx context.Context, pr *pausableRun) (*sdk.CallToolResult, error) {
	select {
	case out := <-pr.done:
		return out, nil
	case where := <-pr.pauses:
		pr.detached.Store(true)
		return textOnly("Paused at " + where + ". The page is yours: browser_snapshot and the other tools act on it; " +
			"browser_resume continues (step: true pauses before the next Playwright call; location: \"file:line\" before the next call from that line)."), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// pause holds the running code until browser_resume: the browser
// sessions it leased are given back meanwhile.
func (s *Session) pause(where string) error {
	d := &s.dbg
	d.mu.Lock()
	pr := d.run
	if pr == nil {
		// Code of no pausable call (an extension tool): nobody to resume it.
		d.mu.Unlock()
		return nil
	}
	resume := make(chan struct{})
	pr.resume, pr.where = resume, where
	d.mu.Unlock()
	jobCtx, released := s.releaseLeases()
	select {
	case pr.pauses <- where:
	default:
	}
	var err error
	select {
	case <-resume:
	case <-s.quit:
		err = errClosed
	case <-jobCtx.Done():
		err = jobCtx.Err()
	}
	if rerr := s.reacquire(jobCtx, released); err == nil {
		err = rerr
	}
	return err
}

// beforeCall pauses before a Playwright call when stepping, or when the
// call comes from the line to run to.
func (s *Session) beforeCall(api, where string) error {
	d := &s.dbg
	d.mu.Lock()
	hit := d.run != nil && (d.step || (d.runTo != "" && sameLocation(where, d.runTo)))
	if hit {
		d.step, d.runTo = false, ""
	}
	d.mu.Unlock()
	if !hit {
		return nil
	}
	return s.pause(where + " (before " + api + ")")
}

// sameLocation compares file:line locations by the file's base name.
func sameLocation(where, want string) bool {
	wf, wl, ok1 := cutLocation(where)
	f, l, ok2 := cutLocation(want)
	return ok1 && ok2 && wl == l && filepath.Base(wf) == filepath.Base(f)
}

func cutLocation(s string) (file string, line int, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	return s[:i], n, err == nil && n > 0
}

// releaseLeases gives back the turns of the browser sessions the running
// job holds; it returns the job's context and those sessions.
func (s *Session) releaseLeases() (context.Context, []*browsing.Session) {
	s.leaseMu.Lock()
	defer s.leaseMu.Unlock()
	j := s.job
	if j == nil {
		return context.Background(), nil
	}
	var out []*browsing.Session
	for bs, release := range j.leases {
		release()
		out = append(out, bs)
	}
	j.leases = nil
	return j.ctx, out
}

// reacquire takes the turns of the browser sessions back for the job.
func (s *Session) reacquire(ctx context.Context, list []*browsing.Session) error {
	for _, bs := range list {
		release, err := bs.Acquire(ctx)
		if err != nil {
			return fmt.Errorf("waiting for the browser session after the pause: %w", err)
		}
		s.leaseMu.Lock()
		if j := s.job; j != nil {
			if j.leases == nil {
				j.leases = map[*browsing.Session]func(){}
			}
			j.leases[bs] = release
		} else {
			release()
		}
		s.leaseMu.Unlock()
	}
	return nil
}

// Pause implements jsapi.Debugger for the client's VM.
func (p sessionPage) Pause(where string) error { return p.s.pause(where) }

// BeforeCall implements jsapi.Debugger for the client's VM.
func (p sessionPage) BeforeCall(api, where string) error { return p.s.beforeCall(api, where) }

type resumeArgs struct {
	common
	Step     bool   `json:"step"`
	Location string `json:"location"`
}

func (s *Server) addResumeTool() {
	if !s.caps["devtools"] || !s.caps["script"] {
		return
	}
	s.server.AddTool(&sdk.Tool{
		Name:        "browser_resume",
		Description: "Resumes code paused by page.pause(); answers when it pauses again or ends. step: pause before the next call; location: file:line to pause at.",
		InputSchema: schema(nil, map[string]any{"step": boolean, "location": str}),
		Annotations: annAct,
	}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var in resumeArgs
		if err := decodeArgs(req.Params.Arguments, &in); err != nil {
			return errorResult("invalid arguments for browser_resume: " + err.Error()), nil
		}
		if in.Location != "" {
			if _, _, ok := cutLocation(in.Location); !ok {
				return errorResult(fmt.Sprintf("invalid arguments for browser_resume: location %q: want <file>:<line>, e.g. \"script.js:12\"", in.Location)), nil
			}
		}
		sess, err := s.clientOf(req.Session)
		if err != nil {
			return errorResult(err.Error()), nil
		}
		d := &sess.dbg
		d.mu.Lock()
		pr := d.run
		if pr == nil || pr.resume == nil {
			d.mu.Unlock()
			return errorResult("browser_resume: nothing is paused (code run by browser_run_code_unsafe or run_script pauses at `await page.pause()`)"), nil
		}
		d.step, d.runTo = in.Step, in.Location
		close(pr.resume)
		pr.resume, pr.where = nil, ""
		d.mu.Unlock()
		out, err := awaitRun(ctx, pr)
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return errorResult("browser_resume: the code is still running"), nil
			}
			return nil, err
		}
		return out, nil
	})
}
