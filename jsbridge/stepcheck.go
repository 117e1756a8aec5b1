package jsbridge

import (
	"math"
	"time"

	"github.com/dop251/goja"
)

// StepCheck runs on the loop goroutine after a step or hook function has
// settled. It receives the function's error (nil when it passed) and
// returns the error to report. The browser layer uses it to fail a step at
// its end with the expect.soft failures and the errors of event handlers
// collected while the step ran, or with a browser crash.
type StepCheck func(err error) error

// stepState is the per-VM state of step invocations.
type stepState struct {
	checks   []StepCheck
	deadline time.Time
	// watchRejections is set while a step or hook function is awaited: an
	// unhandled promise rejection then fails it.
	watchRejections bool
	// exit is set by process.exit while a step or hook runs: it fails it,
	// even if the code caught the exception process.exit threw.
	exit *ExitError
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
func (vm *VM) StepDeadline() time.Time { return vm.stepState().deadline }

// invokeStep invokes a step or hook function with its deadline known to
// StepDeadline, failing it with a promise rejection no handler takes while
// it is awaited, then passes its error through the step checks.
func (vm *VM) invokeStep(fn goja.Callable, length int, this goja.Value, args []goja.Value, timeout time.Duration) (goja.Value, error) {
	st := vm.stepState()
	st.deadline = time.Time{}
	if timeout > 0 {
		st.deadline = time.Now().Add(timeout)
	}
	// Unhandled promise rejections, as cucumber-js on Node: Node checks for
	// them once the microtasks of a macrotask have run and raises the first
	// as an uncaught exception, which cucumber-js reports as the failure of
	// the step or hook still running then. So a rejection found while the
	// function is awaited fails it; one found while no step runs (after a
	// synchronous step returned, between steps) is lost, as in cucumber-js.
	vm.UnhandledRejections()
	st.exit = nil
	st.watchRejections = true
	v, err := vm.invoke(fn, length, this, args, timeout)
	st.watchRejections = false
	st.deadline = time.Time{}
	if exit := vm.exitRequested(); exit != nil {
		v, err = nil, exit
	}
	for _, c := range st.checks {
		err = c(err)
	}
	return v, err
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
