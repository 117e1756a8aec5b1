package jsbridge

import (
	"errors"
	"math"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/internal/memwatch"
)

// StepCheck runs on the loop goroutine after a step or hook function has
// settled. It receives the function's error (nil when it passed) and
// returns the error to report. The browser layer uses it to fail a step at
// its end with the expect.soft failures and the errors of event handlers
// collected while the step ran, or with a browser crash.
type StepCheck func(err error) error

// stepState is the per-VM state of step invocations.
type stepState struct {
	checks []StepCheck
	// clock is the running step's or hook's timeout (nil between them).
	clock *stepClock
	// timeout and timeoutSource are its timeout and where it was set.
	timeout       time.Duration
	timeoutSource string
	// watchRejections is set while a step or hook function is awaited: an
	// unhandled promise rejection then fails it.
	watchRejections bool
	// exit is set by process.exit while a step or hook runs: it fails it,
	// even if the code caught the exception process.exit threw.
	exit *ExitError
	// memStop is set, from the memory watch's goroutine, when the running
	// step or hook grew the heap past VMOptions.MemoryLimit.
	memStop atomic.Pointer[MemoryError]
}

type stepStateKey struct{}

func (vm *VM) stepState() *stepState {
	return vm.Local(stepStateKey{}, func() any { return &stepState{} }).(*stepState)
}

// AddStepCheck adds a StepCheck to the VM; checks run in the order added.
// Loop goroutine only.
func (vm *VM) AddStepCheck(c StepCheck) {
	st := vm.stepState()
	st.checks = append(st.checks, c)
}

// StepDeadline returns when the running step or hook times out: zero when
// none is running or it has no timeout. Browser calls use it to give up
// just before the step does, so the step fails with their message rather
// than a bare timeout. Loop goroutine only.
func (vm *VM) StepDeadline() time.Time { return vm.stepState().clock.Deadline() }

// invokeStep invokes a step or hook function with its deadline known to
// StepDeadline, failing it with a promise rejection no handler takes while
// it is awaited, then passes its error through the step checks. source says
// where the timeout was set (a TimeoutError names it). paused is the time
// the step's clock was paused (PauseStepClock).
func (vm *VM) invokeStep(fn goja.Callable, length int, this goja.Value, args []goja.Value, timeout time.Duration, source string) (v goja.Value, paused time.Duration, err error) {
	st := vm.stepState()
	clock := newClock(timeout)
	st.clock, st.timeout, st.timeoutSource = clock, timeout, source
	if timeout <= 0 {
		st.timeoutSource = ""
	}
	vm.clock.Store(clock)
	// Unhandled promise rejections, as cucumber-js on Node: Node checks for
	// them once the microtasks of a macrotask have run and raises the first
	// as an uncaught exception, which cucumber-js reports as the failure of
	// the step or hook still running then. So a rejection found while the
	// function is awaited fails it; one found while no step runs (after a
	// synchronous step returned, between steps) is lost, as in cucumber-js.
	vm.UnhandledRejections()
	st.exit = nil
	st.watchRejections = true
	releaseMemory := vm.watchStepMemory(st)
	v, err = vm.invoke(fn, length, this, args, clock, timeout)
	if me := releaseMemory(err); me != nil {
		v, err = nil, me
	}
	st.watchRejections = false
	vm.clock.Store(nil)
	st.clock, st.timeout, st.timeoutSource = nil, 0, ""
	if exit := vm.exitRequested(); exit != nil {
		v, err = nil, exit
	}
	var te *TimeoutError
	if errors.As(err, &te) && te.Setting == "" {
		te.Setting = source
	}
	for _, c := range st.checks {
		err = c(err)
	}
	return v, clock.Paused(), err
}

// stepTimeLeft is stepTimeLeft() of module "ferridriver": the milliseconds
// before the running step or hook times out, Infinity when none is running
// or it has no timeout. Code that waits on its own (a polling assertion)
// stops in time to fail with its own message rather than a bare timeout.
func (vm *VM) stepTimeLeft(goja.FunctionCall) goja.Value {
	d := vm.StepDeadline()
	if d.IsZero() {
		return vm.rt.ToValue(math.Inf(1))
	}
	return vm.rt.ToValue(max(time.Until(d).Milliseconds(), 0))
}

// watchStepMemory watches the heap while a step or hook runs: once it has
// grown by more than VMOptions.MemoryLimit, the function's JavaScript is
// interrupted (and its await given up) with a *MemoryError. The returned
// release ends the watch; given the function's error, it returns the
// *MemoryError when the limit stopped it (its interrupt cleared, and the
// memory returned to the system), nil otherwise.
func (vm *VM) watchStepMemory(st *stepState) (release func(err error) *MemoryError) {
	limit := vm.opts.MemoryLimit
	if limit <= 0 {
		return func(error) *MemoryError { return nil }
	}
	st.memStop.Store(nil)
	// The growth is counted from what the last collection found live:
	// the heap now may hold garbage (an earlier test case's World) that
	// the collection made before any stop frees.
	base := memwatch.Live()
	stop := memwatch.Watch(base+uint64(limit), func(heap uint64) {
		me := &MemoryError{Limit: uint64(limit), Grown: heap - base, Heap: heap}
		vm.interruptMu.Lock()
		defer vm.interruptMu.Unlock()
		st.memStop.Store(me)
		vm.interrupted.Store(true)
		vm.rt.Interrupt(me)
		vm.loop.Wake()
	})
	return func(err error) *MemoryError {
		stop() // no interrupt comes after it
		me := st.memStop.Swap(nil)
		if me == nil {
			return nil
		}
		// Delivered or not, the interrupt must not reach the next call;
		// another's (an interrupted run's) is left to unwind to its owner.
		var intr *goja.InterruptedError
		if !errors.As(err, &intr) || intr.Value() == me {
			vm.rt.ClearInterrupt()
		}
		memwatch.Release()
		return me
	}
}

// stepClockNow is stepClock() of module "ferridriver": a clock in ms, as
// Date.now(), that stops while the running step waits for the browser's
// start-up (VM.PauseStepClock), so code that polls against its own
// deadline does not spend it on start-up. Outside a step it is Date.now().
func (vm *VM) stepClockNow(goja.FunctionCall) goja.Value {
	now := time.Now().Add(-vm.clock.Load().Paused())
	return vm.rt.ToValue(now.UnixMilli())
}
