package runner

import (
	"errors"
	"fmt"
	"time"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/internal/memwatch"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

// worker runs test cases on its own VM.
type worker struct {
	id  int
	run *Run
	vm  *jsbridge.VM
	env WorkerEnvironment // nil without an Environment
	// workerID is TestCaseStarted.workerId when running in parallel.
	workerID *string
	// lastStarted is the id of the attempt running (or last run).
	lastStarted string
	// memoryStopped is set when a step or hook was stopped for its
	// memory: the memory the World held is returned once the next World
	// replaces it.
	memoryStopped bool
}

// status ranks, worst last, as Cucumber orders them.
var statusRank = map[messages.TestStepResultStatus]int{
	messages.TestStepResultStatusUnknown:   0,
	messages.TestStepResultStatusPassed:    1,
	messages.TestStepResultStatusSkipped:   2,
	messages.TestStepResultStatusPending:   3,
	messages.TestStepResultStatusUndefined: 4,
	messages.TestStepResultStatusAmbiguous: 5,
	messages.TestStepResultStatusFailed:    6,
}

func worse(a, b messages.TestStepResultStatus) bool { return statusRank[a] > statusRank[b] }

// attemptState follows the statuses of one attempt of a test case.
type attemptState struct {
	worst       messages.TestStepResultStatus
	worstResult messages.TestStepResult
	recorded    int   // test steps recorded
	userSkipped bool  // a step or hook asked to skip the rest
	failedish   bool  // a step failed, is pending, undefined or ambiguous
	failure     error // the first failure
	// stepsDone says that a pickle step was reached (run or not): the
	// test-case hooks after it are "after" hooks, as cucumber-js tells
	// them apart; lastStepErr is what that step's function threw.
	stepsDone   bool
	lastStepErr error
}

// record notes a step's result; ran says whether user code produced it
// (only a step or hook that ran and skipped makes the rest skip).
func (a *attemptState) record(r messages.TestStepResult, err error, ran bool) {
	// The first of the worst results is kept, as cucumber-js's
	// getWorstTestStepResult (a stable sort) picks it.
	if a.recorded == 0 || worse(r.Status, a.worst) {
		a.worst, a.worstResult = r.Status, r
	}
	a.recorded++
	switch r.Status {
	case messages.TestStepResultStatusSkipped:
		a.userSkipped = a.userSkipped || ran
	case messages.TestStepResultStatusFailed, messages.TestStepResultStatusPending,
		messages.TestStepResultStatusUndefined, messages.TestStepResultStatusAmbiguous:
		a.failedish = true
		if a.failure == nil && err != nil {
			a.failure = err
		}
	}
}

// runTestCase runs every attempt of tc (block i of the stream) and reports
// whether its final attempt failed the run.
func (w *worker) runTestCase(i int, tc *plannedCase) (failed bool) {
	emit := func(env *messages.Envelope) { w.run.stream.emit(i, env) }
	defer w.run.stream.finish(i)
	for attempt := 0; ; attempt++ {
		worst := w.runAttempt(emit, tc, attempt)
		willBeRetried := worst == messages.TestStepResultStatusFailed && tc.retryable && attempt < w.run.opts.Retry && !w.run.interrupted()
		emit(&messages.Envelope{TestCaseFinished: &messages.TestCaseFinished{
			TestCaseStartedID: w.lastStarted, Timestamp: messages.NewTimestamp(time.Now()), WillBeRetried: willBeRetried,
		}})
		if !willBeRetried {
			return w.run.causesFailure(worst)
		}
	}
}

func (w *worker) runAttempt(emit func(*messages.Envelope), tc *plannedCase, attempt int) messages.TestStepResultStatus {
	startedID := newID()
	w.lastStarted = startedID
	emit(&messages.Envelope{TestCaseStarted: &messages.TestCaseStarted{
		ID: startedID, TestCaseID: tc.msg.ID, Attempt: int64(attempt), Timestamp: messages.NewTimestamp(time.Now()), WorkerID: w.workerID,
	}})
	if w.env != nil {
		w.env.BeginTestCase(tc.pickle, attempt)
	}
	state := &attemptState{worst: messages.TestStepResultStatusPassed}
	var world *goja.Object
	var worldErr error
	if !w.run.opts.DryRun {
		world, worldErr = w.vm.NewWorld()
	}
	if w.memoryStopped {
		w.memoryStopped = false
		memwatch.Release()
	}
	var lastStepID string
	for _, st := range tc.steps {
		stepID := st.msg.ID
		lastStepID = stepID
		emit(&messages.Envelope{TestStepStarted: &messages.TestStepStarted{
			TestCaseStartedID: startedID, TestStepID: stepID, Timestamp: messages.NewTimestamp(time.Now()),
		}})
		w.vm.SetAttachTarget(func(a *messages.Attachment) {
			a.TestCaseStartedID = messages.Ptr(startedID)
			a.TestStepID = messages.Ptr(stepID)
			a.Timestamp = messages.Ptr(messages.NewTimestamp(time.Now()))
			emit(&messages.Envelope{Attachment: a})
		})
		start := time.Now()
		var out jsbridge.Outcome
		ran := false
		switch {
		case worldErr != nil:
			out = jsbridge.Outcome{Status: messages.TestStepResultStatusFailed, Err: fmt.Errorf("constructing the World: %w", worldErr)}
			worldErr = nil
			ran = true
		case st.hook != nil:
			out, ran = w.hookStep(st, tc, world, state, startedID, attempt)
		default:
			var stepErr error
			out, ran, stepErr = w.pickleStep(st, tc, world, state, startedID, emit)
			state.stepsDone, state.lastStepErr = true, stepErr
		}
		var duration time.Duration
		if ran {
			// The time the step waited for the browser to start is not
			// the step's (the environment reports it apart).
			duration = max(time.Since(start)-out.Paused, 0)
		}
		if out.Status == messages.TestStepResultStatusFailed && w.env != nil {
			for _, a := range w.env.StepFailed() {
				w.vm.SetAttachTarget(nil)
				a.TestCaseStartedID, a.TestStepID = messages.Ptr(startedID), messages.Ptr(stepID)
				a.Timestamp = messages.Ptr(messages.NewTimestamp(time.Now()))
				emit(&messages.Envelope{Attachment: a})
			}
		}
		result := w.run.result(out, duration)
		if errors.As(out.Err, new(*jsbridge.MemoryError)) {
			w.memoryStopped = true
		}
		if st.ambiguous != "" && out.Status == messages.TestStepResultStatusAmbiguous {
			result.Message = messages.Ptr(st.ambiguous)
		}
		state.record(result, out.Err, ran)
		emit(&messages.Envelope{TestStepFinished: &messages.TestStepFinished{
			TestCaseStartedID: startedID, TestStepID: stepID, TestStepResult: result, Timestamp: messages.NewTimestamp(time.Now()),
		}})
	}
	w.vm.SetAttachTarget(nil)
	if w.env != nil {
		for _, a := range w.env.EndTestCase(statusRank[state.worst] > statusRank[messages.TestStepResultStatusSkipped]) {
			if lastStepID == "" {
				continue
			}
			a.TestCaseStartedID, a.TestStepID = messages.Ptr(startedID), messages.Ptr(lastStepID)
			a.Timestamp = messages.Ptr(messages.NewTimestamp(time.Now()))
			emit(&messages.Envelope{Attachment: a})
		}
	}
	return state.worst
}

// hookStep runs a Before or After hook step. As in cucumber-js, a hook
// that comes before the first pickle step is skipped once the test case
// is skipping (a failure or a skip before it); one after the pickle steps
// always runs, and is given the worst result so far.
func (w *worker) hookStep(st *plannedStep, tc *plannedCase, world *goja.Object, state *attemptState, startedID string, attempt int) (jsbridge.Outcome, bool) {
	isBefore := !state.stepsDone
	// world is nil when its constructor failed: nothing can run then.
	if world == nil || w.run.opts.DryRun || w.run.interrupted() || (isBefore && (state.userSkipped || state.failedish)) {
		return jsbridge.Outcome{Status: messages.TestStepResultStatusSkipped}, false
	}
	arg := &jsbridge.HookArg{Pickle: tc.pickle, GherkinDocument: tc.feature.doc, TestCaseStartedID: startedID}
	if !isBefore {
		r := state.worstResult
		if state.recorded == 0 {
			r = messages.TestStepResult{Status: messages.TestStepResultStatusPassed, Duration: messages.NewDuration(0)}
		}
		arg.AfterSteps = true
		arg.Result = &r
		arg.Error = state.lastStepErr
		arg.WillBeRetried = state.worst == messages.TestStepResultStatusFailed && tc.retryable && attempt < w.run.opts.Retry
	}
	reg := w.vm.Registry()
	return w.vm.RunHook(reg.Hooks[st.hook.Index], world, arg, reg.TimeoutFor(st.hook.Timeout)), true
}

// pickleStep runs a step with cucumber-js's rules: ambiguous and undefined
// steps are reported as such even after a failure; after a failure (or a
// skip) the rest is skipped; BeforeStep/AfterStep hooks run around a step
// that runs, and their failure is the step's. stepErr is what the step's
// function threw (nil when it did not run or threw nothing).
func (w *worker) pickleStep(st *plannedStep, tc *plannedCase, world *goja.Object, state *attemptState, startedID string, emit func(*messages.Envelope)) (out jsbridge.Outcome, ran bool, stepErr error) {
	skipped := jsbridge.Outcome{Status: messages.TestStepResultStatusSkipped}
	switch {
	case state.userSkipped:
		return skipped, false, nil
	case len(st.defs) > 1:
		return jsbridge.Outcome{Status: messages.TestStepResultStatusAmbiguous}, false, nil
	case len(st.defs) == 0:
		// The code that would define the step, then, in a run that uses
		// the built-in library, the built-in steps that come close
		// (Gherkin snippets). A run that does not use it is a plain
		// cucumber-js project's: its stream has cucumber-js's snippets,
		// and the close built-in steps are said on stderr, once.
		outcome := st.pickleStep.Type != nil && *st.pickleStep.Type == messages.PickleStepTypeOutcome
		snippets := w.run.matcher.snippets(st.pickleStep, w.run.opts.SnippetInterface)
		if w.run.libraryUsed {
			snippets = append(snippets, w.run.matcher.builtinSnippets(st.pickleStep.Text, outcome)...)
		} else {
			w.run.hintBuiltins(st.pickleStep.Text, outcome)
		}
		emit(&messages.Envelope{Suggestion: &messages.Suggestion{ID: newID(), PickleStepID: st.pickleStep.ID, Snippets: snippets}})
		return jsbridge.Outcome{Status: messages.TestStepResultStatusUndefined}, false, nil
	case state.failedish || w.run.opts.DryRun || w.run.interrupted():
		return skipped, false, nil
	}
	reg := w.vm.Registry()
	arg := &jsbridge.HookArg{Pickle: tc.pickle, GherkinDocument: tc.feature.doc, PickleStep: st.pickleStep, TestCaseStartedID: startedID, TestStepID: st.msg.ID}
	// As cucumber-js: the BeforeStep hooks, the step unless one of them
	// failed, the AfterStep hooks (reverse definition order) with the
	// step's own result; the step's status is the worst of them all.
	var outcomes []jsbridge.Outcome
	stepsFailed := false
	for _, h := range tc.beforeStep {
		o := w.vm.RunHook(reg.Hooks[h.Index], world, arg, reg.TimeoutFor(h.Timeout))
		outcomes = append(outcomes, o)
		stepsFailed = stepsFailed || o.Status == messages.TestStepResultStatusFailed
	}
	if !stepsFailed {
		def := reg.Steps[st.defs[0]]
		w.vm.SetCurrentStep(tc.feature.currentStep(st.pickleStep))
		start := time.Now()
		o := w.vm.RunStep(def, world, st.args, st.pickleStep.Argument, reg.TimeoutFor(def.Timeout))
		w.vm.SetCurrentStep(nil)
		r := w.run.result(o, max(time.Since(start)-o.Paused, 0))
		arg.Result, arg.Error = &r, o.Err
		stepErr = o.Err
		outcomes = append(outcomes, o)
	}
	for k := len(tc.afterStep) - 1; k >= 0; k-- {
		h := tc.afterStep[k]
		outcomes = append(outcomes, w.vm.RunHook(reg.Hooks[h.Index], world, arg, reg.TimeoutFor(h.Timeout)))
	}
	out = outcomes[0]
	var paused time.Duration
	for _, o := range outcomes {
		if worse(o.Status, out.Status) {
			out = o
		}
		paused += o.Paused
	}
	// Start-up waited for in the step or in its hooks is not the step's.
	out.Paused = paused
	return out, true, stepErr
}

// result converts an outcome into the protocol's result.
func (r *Run) result(out jsbridge.Outcome, d time.Duration) messages.TestStepResult {
	res := messages.TestStepResult{Status: out.Status, Duration: messages.NewDuration(d)}
	if out.Err != nil {
		res.Exception = exceptionOf(out.Err)
		msg := res.Exception.GetStackTrace()
		if msg == "" {
			msg = out.Err.Error()
		}
		res.Message = messages.Ptr(msg)
	}
	return res
}

// exceptionOf describes an error as the protocol's Exception.
func exceptionOf(err error) *messages.Exception {
	var je *jsbridge.JSError
	if errors.As(err, &je) {
		return &messages.Exception{Type: je.Type, Message: messages.Ptr(je.Message), StackTrace: messages.Ptr(je.Stack)}
	}
	var te *jsbridge.TimeoutError
	if errors.As(err, &te) {
		msg := fmt.Sprintf("function timed out, ensure the promise resolves within %d milliseconds", te.Ms)
		if te.Setting != "" {
			msg += " (timeout: " + te.Setting + ")"
		}
		return &messages.Exception{Type: "TimeoutError", Message: messages.Ptr(msg), StackTrace: messages.Ptr("TimeoutError: " + msg)}
	}
	var me *jsbridge.MemoryError
	if errors.As(err, &me) {
		return &messages.Exception{Type: "RangeError", Message: messages.Ptr(me.Error()), StackTrace: messages.Ptr("RangeError: " + me.Error())}
	}
	var ie *interruptedError
	if errors.As(err, &ie) {
		return &messages.Exception{Type: "Interrupted", Message: messages.Ptr(ie.Error()), StackTrace: messages.Ptr("Interrupted: " + ie.Error())}
	}
	return &messages.Exception{Type: "Error", Message: messages.Ptr(err.Error()), StackTrace: messages.Ptr("Error: " + err.Error())}
}

// causesFailure says whether a final status fails the run, as cucumber-js:
// failed, ambiguous and undefined always; pending under --strict.
func (r *Run) causesFailure(s messages.TestStepResultStatus) bool {
	switch s {
	case messages.TestStepResultStatusFailed, messages.TestStepResultStatusAmbiguous, messages.TestStepResultStatusUndefined:
		return true
	case messages.TestStepResultStatusPending:
		return r.opts.Strict
	}
	return false
}

// runHooks runs BeforeAll or AfterAll hooks (AfterAll in reverse order) on
// this worker, emitting through emit, and reports whether one failed.
func (w *worker) runTestRunHooks(kind jsbridge.HookKind, emit func(*messages.Envelope)) bool {
	hooks := w.vm.Registry().HooksOf(kind)
	if kind == jsbridge.AfterAll {
		for i, j := 0, len(hooks)-1; i < j; i, j = i+1, j-1 {
			hooks[i], hooks[j] = hooks[j], hooks[i]
		}
	}
	failed := false
	this := w.vm.RunHookThis()
	for _, h := range hooks {
		startedID := newID()
		emit(&messages.Envelope{TestRunHookStarted: &messages.TestRunHookStarted{
			ID: startedID, TestRunStartedID: w.run.testRunStartedID, HookID: w.run.hookIDs[h.Index],
			WorkerID: w.workerID, Timestamp: messages.NewTimestamp(time.Now()),
		}})
		w.vm.SetAttachTarget(func(a *messages.Attachment) {
			a.TestRunHookStartedID = messages.Ptr(startedID)
			a.Timestamp = messages.Ptr(messages.NewTimestamp(time.Now()))
			emit(&messages.Envelope{Attachment: a})
		})
		start := time.Now()
		var out jsbridge.Outcome
		if w.run.opts.DryRun {
			out = jsbridge.Outcome{Status: messages.TestStepResultStatusSkipped}
		} else {
			out = w.vm.RunHook(h, this, nil, w.vm.Registry().TimeoutFor(h.Timeout))
		}
		w.vm.SetAttachTarget(nil)
		res := w.run.result(out, time.Since(start))
		if out.Status == messages.TestStepResultStatusFailed {
			failed = true
		}
		emit(&messages.Envelope{TestRunHookFinished: &messages.TestRunHookFinished{
			TestRunHookStartedID: startedID, Result: res, Timestamp: messages.NewTimestamp(time.Now()),
		}})
	}
	return failed
}
