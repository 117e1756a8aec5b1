package jsapi

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/world/pwerror"
)

// settled is the outcome of a blocking call made off the loop.
type settled[T any] struct {
	v   T
	err error
}

// async runs work on its own goroutine and returns a Promise settled on
// the loop: resolved with conv(result) (undefined when conv is nil), or
// rejected with a Playwright-style Error "<api>: <message>" whose stack is
// the JS stack of the call, so a failure points at the user's line.
// Loop goroutine only.
func async[T any](r *Runtime, api string, work func() (T, error), conv func(T) goja.Value) goja.Value {
	stack := r.rt.CaptureCallStack(0, nil)
	dbg := r.debugger()
	return r.loop.Promise(func() (any, error) {
		if dbg != nil && api != "page.pause" {
			// Stepping or running to a line pauses before the call.
			if err := dbg.BeforeCall(api, callerWhere(stack)); err != nil {
				return settled[T]{err: err}, nil
			}
		}
		v, err := safely(work)
		if err != nil {
			err = r.explain(err)
		}
		return settled[T]{v, err}, nil
	}, func(_ *goja.Runtime, x any) (res goja.Value, err error) {
		s := x.(settled[T])
		if s.err != nil {
			return nil, &jsbridge.JSError{Value: r.apiError(api, s.err, stack)}
		}
		if conv == nil {
			return goja.Undefined(), nil
		}
		defer func() {
			if p := recover(); p != nil {
				err = &jsbridge.JSError{Value: r.apiError(api, panicError(p), stack)}
			}
		}()
		return conv(s.v), nil
	})
}

// asyncErr is async for calls that return only an error.
func asyncErr(r *Runtime, api string, work func() error) goja.Value {
	return async(r, api, func() (struct{}, error) { return struct{}{}, work() }, nil)
}

// safely runs work, turning a panic (playwright-go panics on some values)
// into an error.
func safely[T any](work func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = panicError(p)
		}
	}()
	return work()
}

func panicError(p any) error {
	if e, ok := p.(error); ok {
		var ex *goja.Exception
		if errors.As(e, &ex) {
			return e
		}
		return fmt.Errorf("internal error: %w", e)
	}
	return fmt.Errorf("internal error: %v\n%s", p, debug.Stack())
}

// apiError builds the Error a failed call rejects with, as Playwright
// words it: "<api>: <protocol message>", named TimeoutError for timeouts.
func (r *Runtime) apiError(api string, err error, stack []goja.StackFrame) goja.Value {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return ex.Value()
	}
	name := "Error"
	if errors.Is(err, playwright.ErrTimeout) {
		name = "TimeoutError"
	}
	// Playwright's call log, when the driver sent one, trimmed to the
	// lines that say why (pwerror).
	msg := pwerror.Format(pwerror.Failure{Message: api + ": " + pwMessage(err)})
	return r.newError(name, msg, stack)
}

// pwMessage is the message of a playwright-go error without the prefixes
// playwright-go adds ("playwright: timeout: ...", "Frame.Goto <url>: ..."):
// the driver's own message, which is what Playwright's JS client shows.
func pwMessage(err error) string {
	var pe *playwright.Error
	full := err.Error()
	if errors.As(err, &pe) {
		// An error that wraps a Playwright error (a crash explanation)
		// keeps its own words.
		if !strings.HasSuffix(full, pe.Message) {
			return full
		}
		return pe.Message
	}
	for _, p := range []string{"playwright: ", "timeout: ", "target closed: "} {
		full = strings.TrimPrefix(full, p)
	}
	return full
}

// newError makes an Error (or TimeoutError) with the given message and a
// stack made of frames (captured when the call was made).
func (r *Runtime) newError(name, msg string, frames []goja.StackFrame) goja.Value {
	ctorName := "Error"
	if name == "TimeoutError" {
		ctorName = "TimeoutError"
	}
	var ctor goja.Value
	if ctorName == "TimeoutError" && r.support != nil {
		ctor = r.support.Get("TimeoutError")
	} else {
		ctor = r.rt.Get("Error")
	}
	obj, err := r.rt.New(ctor, r.rt.ToValue(msg))
	if err != nil {
		obj = r.rt.NewGoError(errors.New(msg))
	}
	var b bytes.Buffer
	b.WriteString(name)
	b.WriteString(": ")
	b.WriteString(msg)
	for i := range frames {
		b.WriteString("\n\tat ")
		frames[i].Write(&b)
	}
	_ = obj.Set("stack", b.String())
	return obj
}

// throwError throws an Error made like apiError, synchronously.
func (r *Runtime) throwError(api string, err error) {
	panic(r.apiError(api, err, r.rt.CaptureCallStack(0, nil)))
}

// stepMargin is how long before the running step's own timeout a browser
// call gives up, so that its message, not "function timed out", is what
// the report shows.
const stepMargin = 250 * time.Millisecond

// timeout is the timeout of a browser call on page p (nil: an object with
// no page): the one given in options; else, when the running step would
// time out before p's default (see defaultTimeout) does, the time left in
// the step minus a margin; else nil (Playwright applies that same default,
// which setDefaultTimeout also set on the playwright-go object).
func (r *Runtime) timeout(o opts, p playwright.Page) *float64 {
	given := o.f("timeout")
	if given != nil {
		return given
	}
	if t, capped := r.timeoutMs(nil, r.defaultTimeout(p)); capped {
		return &t
	}
	return nil
}

// timeoutMs is the timeout in ms of a wait whose default is def (0: no
// timeout): given, when set; else the smaller of def and the time left in
// the running step (capped reports that the step's time was the smaller).
func (r *Runtime) timeoutMs(given *float64, def float64) (ms float64, capped bool) {
	if given != nil {
		return *given, false
	}
	if left, ok := r.stepLeft(); ok && (def == 0 || left < def) {
		return left, true
	}
	return def, false
}

// defaultTimeout is the default timeout of calls on page p: set by
// page.setDefaultTimeout, else by its context's setDefaultTimeout, else
// the host's action timeout.
func (r *Runtime) defaultTimeout(p playwright.Page) float64 {
	if p != nil {
		if o, ok := r.objects[p]; ok {
			if w, ok := o.Export().(*pageW); ok {
				if t := w.em.defaultTimeout; t != nil {
					return *t
				}
				return r.contextDefaultTimeout(p.Context())
			}
		}
	}
	return r.actionTimeout()
}

// contextDefaultTimeout is the default timeout of calls in context c: set
// by its setDefaultTimeout, else the host's action timeout.
func (r *Runtime) contextDefaultTimeout(c playwright.BrowserContext) float64 {
	if c != nil {
		if o, ok := r.objects[c]; ok {
			if w, ok := o.Export().(*contextW); ok && w.em.defaultTimeout != nil {
				return *w.em.defaultTimeout
			}
		}
	}
	return r.actionTimeout()
}

// minCallTime is the least time a browser call is started with when the
// running step's time caps its timeout: with less, the call would only
// time out (a Playwright "Timeout 1ms exceeded" names a limit nobody set),
// so it fails at once saying that the step's time is used up.
const minCallTime = 50 * time.Millisecond

// stepLeft returns the ms left before the running step times out, minus
// stepMargin; false when no step with a timeout runs. With less than
// minCallTime left it throws a TimeoutError that says the step's time is
// used up, and which timeout that is.
func (r *Runtime) stepLeft() (float64, bool) {
	d := r.vm.StepDeadline()
	if d.IsZero() {
		return 0, false
	}
	until := time.Until(d)
	left := until - stepMargin
	if left < minCallTime {
		timeout, source := r.vm.StepTimeout()
		msg := fmt.Sprintf("the step has used %d ms of its %d ms timeout; the %d ms left are too little to start this browser call",
			(timeout - max(until, 0)).Milliseconds(), timeout.Milliseconds(), max(until, 0).Milliseconds())
		if source != "" {
			msg += " (timeout: " + source + ")"
		}
		panic(r.newError("TimeoutError", msg, r.rt.CaptureCallStack(0, nil)))
	}
	return float64(left.Milliseconds()), true
}
