package godogworld

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/cucumber/godog"
	"github.com/dop251/goja"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/browserenv"
)

// jsLibrary is the project's JavaScript steps, loaded once per Suite.
type jsLibrary struct {
	lib     *runner.Library
	regexps []*regexp.Regexp // godog's regular expression of each step definition
	logf    func(format string, args ...any)
}

func loadJS(opts Options) (*jsLibrary, error) {
	lib, err := runner.LoadLibrary(runner.Options{
		Dir: opts.Dir, Steps: opts.Steps, Extensions: opts.Extensions, Alias: opts.Alias,
		WorldParameters: opts.WorldParameters, Env: opts.Env, ScriptCommands: opts.ScriptCommands,
		Stdout: opts.Stdout, Stderr: opts.Stderr,
	})
	if err != nil {
		return nil, err
	}
	res, err := jsStepRegexps(lib)
	if err != nil {
		lib.Close()
		return nil, err
	}
	return &jsLibrary{lib: lib, regexps: res, logf: opts.Logf}, nil
}

// jsWorker is a slot's VM, bound to the browser through browserenv: its
// World's this.page, this.context... are those of live, the running
// scenario's session.
type jsWorker struct {
	vm  *jsbridge.VM
	env *browserenv.Environment
	we  runner.WorkerEnvironment
	// live is the running scenario's session, shared with the Go steps
	// (closing it leaves the page open: the Suite closes the real one).
	live *world.Session
	// beforeAll is the failure of a BeforeAll hook: every scenario run on
	// this VM fails with it, as no test case runs after one in bdd.
	beforeAll error
}

func (js *jsLibrary) newWorker(id int, l *world.Launcher) (*jsWorker, error) {
	vm, err := js.lib.NewVM(id)
	if err != nil {
		return nil, err
	}
	w := &jsWorker{vm: vm}
	w.env = browserenv.NewLive(l, func() (*world.Session, error) {
		if w.live == nil {
			return nil, errors.New("no scenario is running")
		}
		return w.live, nil
	}, browserenv.Options{Logf: js.logf})
	if w.we, err = w.env.Worker(id, vm); err != nil {
		vm.Close()
		return nil, err
	}
	if err := w.testRunHooks(js, jsbridge.BeforeAll); err != nil {
		w.beforeAll = err
	}
	return w, nil
}

// testRunHooks runs the BeforeAll or AfterAll hooks; every one runs, the
// failures are joined.
func (w *jsWorker) testRunHooks(js *jsLibrary, kind jsbridge.HookKind) error {
	reg := w.vm.Registry()
	this := w.vm.RunHookThis()
	var errs []error
	for _, h := range js.lib.Hooks(kind, nil) {
		out := w.vm.RunHook(reg.Hooks[h.Index], this, nil, reg.TimeoutFor(h.Timeout))
		if out.Status == messages.TestStepResultStatusFailed {
			errs = append(errs, fmt.Errorf("%s hook (%s): %w", kind, h.Source, failure(out.Err)))
		}
	}
	return errors.Join(errs...)
}

// close runs the AfterAll hooks and releases the VM.
func (w *jsWorker) close(js *jsLibrary) error {
	err := w.testRunHooks(js, jsbridge.AfterAll)
	w.we.Close()
	w.vm.Close()
	_ = w.env.Close() // a live environment owns no browser
	return err
}

// jsScenario is the JavaScript side of a running scenario.
type jsScenario struct {
	world  *goja.Object
	pickle *messages.Pickle
	tags   []string
	// step is the step godog is running (set by the Suite's before-step
	// hook): a JavaScript step definition reads its text and argument.
	step *godog.Step
}

// begin gives the VM the scenario: the page to share, a new World, then
// the Before hooks whose tags match, in definition order; the first that
// does not pass ends the scenario with its status. The jsScenario is nil
// only when the VM cannot run scenarios at all.
func (w *jsWorker) begin(js *jsLibrary, pickle *godog.Scenario, session *world.Session, page playwright.Page) (*jsScenario, []godog.Attachment, error) {
	if w.beforeAll != nil {
		return nil, nil, w.beforeAll
	}
	shared, err := session.Shared(page)
	if err != nil {
		return nil, nil, err
	}
	p := &messages.Pickle{}
	if err := convert(pickle, p); err != nil {
		return nil, nil, err
	}
	w.live = shared
	w.we.BeginTestCase(p, 0)
	sc := &jsScenario{pickle: p}
	for _, t := range p.Tags {
		sc.tags = append(sc.tags, t.Name)
	}
	if sc.world, err = w.vm.NewWorld(); err != nil {
		return sc, nil, fmt.Errorf("constructing the World: %w", failure(err))
	}
	var atts []godog.Attachment
	w.vm.SetAttachTarget(collect(&atts))
	defer w.vm.SetAttachTarget(nil)
	reg := w.vm.Registry()
	for _, h := range js.lib.Hooks(jsbridge.Before, sc.tags) {
		out := w.vm.RunHook(reg.Hooks[h.Index], sc.world, &jsbridge.HookArg{Pickle: p}, reg.TimeoutFor(h.Timeout))
		if err := outcomeError(out); err != nil {
			return sc, atts, fmt.Errorf("Before hook (%s): %w", h.Source, err)
		}
	}
	return sc, atts, nil
}

// end runs the After hooks whose tags match, in reverse definition order,
// every one, and ends the VM's test case (contexts the JavaScript opened
// are closed; the scenario's own is the Suite's to close).
func (w *jsWorker) end(js *jsLibrary, sc *jsScenario, scenarioErr error, failed bool) ([]godog.Attachment, error) {
	var atts []godog.Attachment
	var errs []error
	if sc.world != nil {
		w.vm.SetAttachTarget(collect(&atts))
		reg := w.vm.Registry()
		res := resultOf(scenarioErr)
		arg := &jsbridge.HookArg{Pickle: sc.pickle, Result: &res, Error: scenarioErr}
		for _, h := range js.lib.Hooks(jsbridge.After, sc.tags) {
			out := w.vm.RunHook(reg.Hooks[h.Index], sc.world, arg, reg.TimeoutFor(h.Timeout))
			if out.Status == messages.TestStepResultStatusFailed {
				errs = append(errs, fmt.Errorf("After hook (%s): %w", h.Source, failure(out.Err)))
			}
		}
		w.vm.SetAttachTarget(nil)
	}
	w.we.EndTestCase(failed)
	w.live = nil
	return atts, errors.Join(errs...)
}

// jsStep is the godog step function of JavaScript step definition i. godog
// chose it by its regular expression; the arguments are matched again
// with bdd's semantics (parameter types and their transformers,
// JavaScript regular expressions), and the BeforeStep and AfterStep hooks
// run around it, as in bdd.
func (s *Suite) jsStep(i int) func(ctx context.Context) (context.Context, error) {
	return func(ctx context.Context) (context.Context, error) {
		sc := scenarioFrom(ctx)
		if sc == nil || sc.js == nil || sc.js.world == nil || sc.js.step == nil {
			return ctx, errors.New("godogworld: a JavaScript step ran outside a scenario started by Suite.ScenarioInitializer")
		}
		st, w := sc.js.step, sc.slot.js
		args, ok, err := s.js.lib.Match(i, st.Text)
		if err != nil {
			return ctx, err
		}
		reg := w.vm.Registry()
		def := reg.Steps[i]
		if !ok {
			return ctx, fmt.Errorf("godog matched %q with the step definition at %s, but its JavaScript expression does not match it", st.Text, def.Source)
		}
		var stepArg *messages.PickleStepArgument
		if st.Argument != nil {
			stepArg = &messages.PickleStepArgument{}
			if err := convert(st.Argument, stepArg); err != nil {
				return ctx, err
			}
		}
		pickleStep := &messages.PickleStep{}
		if err := convert(st, pickleStep); err != nil {
			return ctx, err
		}
		var atts []godog.Attachment
		w.vm.SetAttachTarget(collect(&atts))
		defer w.vm.SetAttachTarget(nil)
		arg := &jsbridge.HookArg{Pickle: sc.js.pickle, PickleStep: pickleStep}
		for _, h := range s.js.lib.Hooks(jsbridge.BeforeStep, sc.js.tags) {
			if out := w.vm.RunHook(reg.Hooks[h.Index], sc.js.world, arg, reg.TimeoutFor(h.Timeout)); out.Status != messages.TestStepResultStatusPassed {
				return godog.Attach(ctx, atts...), outcomeError(out)
			}
		}
		out := w.vm.RunStep(def, sc.js.world, args, stepArg, reg.TimeoutFor(def.Timeout))
		for _, h := range s.js.lib.Hooks(jsbridge.AfterStep, sc.js.tags) {
			res := resultOf(outcomeError(out))
			arg.Result = &res
			ho := w.vm.RunHook(reg.Hooks[h.Index], sc.js.world, arg, reg.TimeoutFor(h.Timeout))
			if ho.Status == messages.TestStepResultStatusFailed && out.Status != messages.TestStepResultStatusFailed {
				out = ho
			}
		}
		return godog.Attach(ctx, atts...), outcomeError(out)
	}
}

// outcomeError maps a step's or hook's outcome to what godog expects of a
// step function: nil, godog.ErrPending, godog.ErrSkip or the failure.
func outcomeError(out jsbridge.Outcome) error {
	switch out.Status {
	case messages.TestStepResultStatusPassed:
		return nil
	case messages.TestStepResultStatusPending:
		if out.Err != nil {
			return fmt.Errorf("%w: %v", godog.ErrPending, out.Err)
		}
		return godog.ErrPending
	case messages.TestStepResultStatusSkipped:
		if out.Err != nil {
			return fmt.Errorf("%w: %v", godog.ErrSkip, out.Err)
		}
		return godog.ErrSkip
	}
	if out.Err == nil {
		return fmt.Errorf("the step ended %s", out.Status)
	}
	return failure(out.Err)
}

// resultOf is the result JavaScript hooks see (their result argument) for
// a godog step or scenario error.
func resultOf(err error) messages.TestStepResult {
	status := messages.TestStepResultStatusFailed
	switch {
	case err == nil:
		status = messages.TestStepResultStatusPassed
	case errors.Is(err, godog.ErrPending):
		status = messages.TestStepResultStatusPending
	case errors.Is(err, godog.ErrSkip):
		status = messages.TestStepResultStatusSkipped
	case errors.Is(err, godog.ErrUndefined):
		status = messages.TestStepResultStatusUndefined
	case errors.Is(err, godog.ErrAmbiguous):
		status = messages.TestStepResultStatusAmbiguous
	}
	r := messages.TestStepResult{Status: status}
	if err != nil {
		r.Message = messages.Ptr(err.Error())
	}
	return r
}

// jsError is a JavaScript failure reported with its stack (the user's
// file:line, through the source map), as bdd reports it.
type jsError struct {
	err   error
	stack string
}

func (e *jsError) Error() string { return e.stack }
func (e *jsError) Unwrap() error { return e.err }

func failure(err error) error {
	var je *jsbridge.JSError
	if errors.As(err, &je) && je.Stack != "" {
		return &jsError{err: err, stack: je.Stack}
	}
	return err
}

// collect returns an attach target that appends the attachments of
// this.attach, this.log and this.link to *out, as godog attachments.
func collect(out *[]godog.Attachment) jsbridge.AttachFunc {
	return func(a *messages.Attachment) {
		body := []byte(a.Body)
		if a.ContentEncoding == messages.AttachmentContentEncodingBase64 {
			b, err := base64.StdEncoding.DecodeString(a.Body)
			if err != nil {
				return // the VM encodes it: cannot happen
			}
			body = b
		}
		name := ""
		if a.FileName != nil {
			name = *a.FileName
		}
		*out = append(*out, godog.Attachment{Body: body, FileName: name, MediaType: a.MediaType})
	}
}

// convert copies a godog message (Cucumber Messages v21) into ferridriver's
// protocol type through their common JSON form.
func convert(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}
