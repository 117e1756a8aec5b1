package godogworld

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cucumber/godog"
	"github.com/playwright-community/playwright-go"
)

// abortShotTimeout bounds the failure screenshot taken when a step's
// context ends, before its browser context is closed: the pending calls
// wait that long at most for it.
const abortShotTimeout = 500 * time.Millisecond

// armStep runs before each step, after every other BeforeStep hook, with
// the context the step function gets: it applies Options.StepTimeout and
// starts watching that context.
func (s *Suite) armStep(ctx context.Context, _ *godog.Step) (context.Context, error) {
	sc := scenarioFrom(ctx)
	if sc == nil {
		return ctx, nil
	}
	sc.mu.Lock()
	skip := sc.aborted != nil || sc.ended
	sc.mu.Unlock()
	if skip {
		return ctx, nil
	}
	var step *stepContext
	if s.opts.StepTimeout > 0 {
		step = newStepContext(ctx, s.opts.StepTimeout)
		ctx = step
	}
	w := &stepWatch{sc: sc, ctx: ctx, step: step, done: make(chan struct{})}
	sc.mu.Lock()
	sc.watch = w
	sc.mu.Unlock()
	// A context that is done already fires at once: the step fails.
	w.stopFunc = context.AfterFunc(ctx, w.abort)
	return ctx, nil
}

// stepWatch watches one running step's context: when it is done, abort
// takes the failure screenshot and closes the scenario's browser context,
// so that the Playwright calls the step waits on fail at once.
type stepWatch struct {
	sc       *scenario
	ctx      context.Context
	step     *stepContext // nil without Options.StepTimeout
	stopFunc func() bool
	done     chan struct{} // closed when abort has finished

	cause error
	shot  *godog.Attachment
}

func (w *stepWatch) abort() {
	defer close(w.done)
	w.cause = fmt.Errorf("godogworld: the step's context is done, the scenario's browser context was closed: %w", w.contextError())
	w.shot = w.sc.failureScreenshot(abortShotTimeout)
	contexts := []playwright.BrowserContext{w.sc.context}
	if p := w.sc.world.Page; p != nil && p.Context() != w.sc.context {
		contexts = append(contexts, p.Context()) // a step's page of another context
	}
	for _, c := range contexts {
		if err := c.Close(); err != nil && !errors.Is(err, playwright.ErrTargetClosed) {
			w.sc.suite.opts.Logf("closing the context of scenario %q: %v", w.sc.pickle.Name, err)
		}
	}
}

// contextError is the watched context's error, with its cause when it has
// one (context.WithTimeoutCause, WithCancelCause, the step timeout).
func (w *stepWatch) contextError() error {
	err, cause := w.ctx.Err(), context.Cause(w.ctx)
	if cause == nil || cause == err {
		return err
	}
	return cause
}

// stop ends the watch when the step has ended; when the context ended
// during the step it returns the step's error and the screenshot taken
// then. Call it once.
func (w *stepWatch) stop() (error, *godog.Attachment) {
	if w.step != nil {
		w.step.disarm()
	}
	if w.stopFunc == nil || w.stopFunc() {
		return nil, nil
	}
	<-w.done
	return w.cause, w.shot
}

// stepContext is a step's context under Options.StepTimeout: done when
// the timeout passes while the step runs. A step may return a context
// derived from it to the next steps; once the step has ended its timer is
// disarmed, so those contexts stay live (done only with the scenario's).
type stepContext struct {
	context.Context // a cancelCtx of the step's parent context
	deadline        time.Time
	timer           *time.Timer
	armed           atomic.Bool
	once            sync.Once
}

// StepTimeoutError is the cause of a step context that Options.StepTimeout
// ended (errors.Is(err, context.DeadlineExceeded) holds).
type StepTimeoutError struct{ Timeout time.Duration }

func (e *StepTimeoutError) Error() string {
	return fmt.Sprintf("the step timeout passed (Options.StepTimeout = %v): %v", e.Timeout, context.DeadlineExceeded)
}

func (e *StepTimeoutError) Unwrap() error { return context.DeadlineExceeded }

func newStepContext(parent context.Context, timeout time.Duration) *stepContext {
	inner, cancel := context.WithCancelCause(parent)
	c := &stepContext{Context: inner, deadline: time.Now().Add(timeout)}
	c.armed.Store(true)
	c.timer = time.AfterFunc(timeout, func() {
		if c.armed.Load() {
			cancel(&StepTimeoutError{Timeout: timeout})
		}
	})
	return c
}

// Deadline is the step's deadline while the step runs (or the parent's
// when earlier), the parent's afterwards.
func (c *stepContext) Deadline() (time.Time, bool) {
	d, ok := c.Context.Deadline()
	if c.armed.Load() && (!ok || c.deadline.Before(d)) {
		return c.deadline, true
	}
	return d, ok
}

// Err is context.DeadlineExceeded when the step timeout ended the step
// (context.Cause gives the StepTimeoutError).
func (c *stepContext) Err() error {
	err := c.Context.Err()
	if _, timeout := context.Cause(c.Context).(*StepTimeoutError); timeout && err == context.Canceled {
		return context.DeadlineExceeded
	}
	return err
}

func (c *stepContext) disarm() {
	c.once.Do(func() {
		c.armed.Store(false)
		c.timer.Stop()
	})
}

// TestContext returns a context for godog.Options.DefaultContext that is
// done shortly before t's deadline (`go test -timeout`): 5 s before it,
// or a tenth of the time left when that is shorter. A scenario running
// then fails with context.DeadlineExceeded (its pending Playwright calls
// end, see Suite), later scenarios fail at once, and godog ends the run
// and writes its reports, instead of go test killing the process with
// none. Without a deadline (-timeout 0) the context is only done when the
// test ends.
func TestContext(t interface {
	Deadline() (time.Time, bool)
	Cleanup(func())
}) context.Context {
	d, ok := t.Deadline()
	if !ok {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		return ctx
	}
	margin := min(5*time.Second, time.Until(d)/10)
	ctx, cancel := context.WithDeadlineCause(context.Background(), d.Add(-margin),
		fmt.Errorf("the go test deadline is %s away (-timeout): %w", margin.Round(time.Millisecond), context.DeadlineExceeded))
	t.Cleanup(cancel)
	return ctx
}
