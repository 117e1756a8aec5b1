package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	tagexpressions "github.com/cucumber/tag-expressions/go/v6"

	"github.com/ferridriver/ferridriver/internal/slashpath"
	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/jsbridge/capability"
	"github.com/ferridriver/ferridriver/messages"
)

// Version is the implementation version reported in the meta message.
var Version = "0.1.0-dev"

// Run is a prepared test run: features parsed, step definitions loaded and
// matched, test cases planned. Nothing has been emitted yet, so a run that
// fails to prepare leaves no partial report behind.
type Run struct {
	opts   Options
	bundle *jsbridge.Bundle
	// stubs are the library's definitions when it is not loaded (nil when
	// it is, or when there is none).
	stubs    *jsbridge.LibraryIndex
	vm0      *jsbridge.VM
	features []*feature
	// inRun are the features with test cases in the whole run, before
	// sharding: every shard's stream has their sources and documents, so
	// that the shards of one run have the same files (formatters/merge
	// checks it) and an empty shard still says what was run.
	inRun   map[*feature]bool
	matcher *matcher
	planned map[string]*plannedMatch // by step text
	cases   []*plannedCase
	seed    string

	testRunStartedID string
	stepDefIDs       []string
	hookIDs          []string
	hookTags         []tagexpressions.Evaluatable
	definitions      []*messages.Envelope
	// libraryUsed says that the run reports built-in steps: its
	// undefined steps' suggestions then propose built-in steps too.
	libraryUsed bool
	// builtinHints are the undefined step texts whose close built-in
	// steps were printed on stderr (a run that does not use the library).
	builtinHints sync.Map

	// commands holds the persistent processes step code starts; shared by
	// the workers and closed at the end of the run.
	commands *capability.Session

	// flows finds the flows steps call; once is runOnce's store (flows.go).
	flows *flowFinder
	once  *jsbridge.OnceStore

	stream      *stream
	interrupt   atomic.Bool
	workersMu   sync.Mutex
	workerVMs   []*jsbridge.VM
	failedCases atomic.Int64
}

// Result summarises an executed run.
type Result struct {
	// Success is the testRunFinished success flag.
	Success bool
	// Interrupted is set when the context was cancelled during the run.
	Interrupted bool
	// TestCases is the number of test cases planned; NotRun of them did
	// not start (fail-fast, interrupt, BeforeAll failure).
	TestCases, NotRun int
}

// selectedPickle is a pickle that passed the filters.
type selectedPickle struct {
	pickle  *messages.Pickle
	feature *feature
	tags    []string
}

// Prepare discovers and parses the features, bundles and loads the step
// files and extensions, and plans the test cases. Its errors are the
// user's input problems (exit code 2): they carry file:line:column where
// there is one.
func Prepare(opts Options) (*Run, error) {
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		opts.Dir = wd
	}
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	if opts.Stderr == nil {
		opts.Stderr = os.Stderr
	}
	if opts.SnippetInterface == "" {
		opts.SnippetInterface = SnippetSynchronous
	}
	flowPaths := opts.FlowPaths
	if len(flowPaths) == 0 {
		flowPaths = opts.Paths
	}
	r := &Run{opts: opts, testRunStartedID: newID(), commands: capability.NewSession(),
		flows: newFlowFinder(opts.Dir, opts.Language, flowPaths), once: jsbridge.NewOnceStore()}
	kind, seed, err := ordering(opts.Order)
	if err != nil {
		return nil, err
	}
	r.seed = seed
	filter, err := newPickleFilter(opts.Tags, opts.Names)
	if err != nil {
		return nil, err
	}
	inShard, err := shard(opts.Shard, 0)
	if err != nil {
		return nil, err
	}

	// Parse features while the step files bundle and load.
	type parsed struct {
		features []*feature
		err      error
	}
	parsedCh := make(chan parsed, 1)
	files, err := discoverFeatures(opts.Dir, opts.Paths)
	if err != nil {
		return nil, err
	}
	go func() {
		fs, err := parseFeatures(opts.Dir, files, opts.Language)
		parsedCh <- parsed{fs, err}
	}()

	// Worker 0's VM is created while the features parse and the code
	// bundles. What it loads of the built-in library is builtinLibrary's
	// decision: when it does not depend on the features, the bundle loads
	// at once; otherwise once the pickles are selected.
	vm0 := r.startVM0()
	lib := newBuiltinLibrary(opts)
	entries, err := projectEntries(opts)
	var first *jsbridge.Bundle
	if err == nil {
		first, err = lib.bundle(entries)
	}
	if err == nil && lib.decided() {
		err = r.loadVM0(vm0, first, nil)
	}
	if err != nil {
		vm0.discard()
		<-parsedCh
		return nil, err
	}
	p := <-parsedCh
	if p.err != nil {
		vm0.discard()
		return nil, p.err
	}
	r.features = p.features

	var selected []selectedPickle
	for fi, f := range r.features {
		r.flows.addFeature(f)
		for _, pk := range f.pickles {
			tags := pickleTags(pk)
			if isFlow(tags) || !filter.matches(pk, tags) || !matchesLines(f, pk, files[fi].lines) {
				continue
			}
			selected = append(selected, selectedPickle{pickle: pk, feature: f, tags: tags})
		}
	}
	r.inRun = map[*feature]bool{}
	for _, sp := range selected {
		r.inRun[sp.feature] = true
	}
	// The whole run's pickles, before sharding: what the stream reports
	// of the built-in library is the same in every shard.
	wholeRun := slices.Clone(selected)
	kept := selected[:0]
	for i, sp := range selected {
		if inShard(i) {
			kept = append(kept, sp)
		}
	}
	selected = kept
	if !lib.decided() {
		b, stubs, err := lib.load(first, entries, selected)
		if err == nil {
			err = r.loadVM0(vm0, b, stubs)
		}
		if err != nil {
			vm0.discard()
			return nil, err
		}
	}
	if err := r.define(); err != nil {
		return nil, err
	}
	switch kind {
	case "reverse":
		for i, j := 0, len(selected)-1; i < j; i, j = i+1, j-1 {
			selected[i], selected[j] = selected[j], selected[i]
		}
	case "random":
		shuffle(selected, seed)
	}
	// Only the selected pickles are part of the stream.
	keep := map[*messages.Pickle]bool{}
	for _, sp := range selected {
		keep[sp.pickle] = true
	}
	for _, f := range r.features {
		ps := f.pickles[:0]
		for _, pk := range f.pickles {
			if keep[pk] {
				ps = append(ps, pk)
			}
		}
		f.pickles = ps
	}
	if err := r.plan(selected); err != nil {
		return nil, err
	}
	reported, used, err := lib.reported(r, wholeRun)
	if err != nil {
		return nil, err
	}
	r.definitions, r.libraryUsed = r.definitionMessages(reported), used
	return r, nil
}

func matchesLines(f *feature, p *messages.Pickle, lines []int64) bool {
	if lines == nil {
		return true
	}
	for _, l := range f.pickleLines(p) {
		for _, want := range lines {
			if l == want {
				return true
			}
		}
	}
	return false
}

// parseOne parses one feature file (a variable for tests).
var parseOne = parseFeature

// parseFeatures parses the files concurrently and returns them in order.
func parseFeatures(dir string, files []featureFile, language string) ([]*feature, error) {
	out := make([]*feature, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, ff := range files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			// A panic of the Gherkin library on some input is that file's
			// error, not the end of the process (an MCP server runs
			// features for its clients).
			defer func() {
				if p := recover(); p != nil {
					out[i], errs[i] = nil, fmt.Errorf("%s: the Gherkin reader failed on this file (%v); please report it", slashpath.Rel(dir, ff.path), p)
				}
			}()
			out[i], errs[i] = parseOne(ff.path, slashpath.Rel(dir, ff.path), language)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Seed returns the seed of a random order ("" for another order).
func (r *Run) Seed() string { return r.seed }

// TestCases returns the number of planned test cases.
func (r *Run) TestCases() int { return len(r.cases) }

// pendingVM is worker 0's VM while it is created (without a bundle).
type pendingVM chan vmResult

type vmResult struct {
	vm  *jsbridge.VM
	err error
}

// startVM0 creates worker 0's VM in the background.
func (r *Run) startVM0() pendingVM {
	ch := make(pendingVM, 1)
	go func() {
		vm, err := newVM(r.opts, nil, nil, 0, r.commands)
		ch <- vmResult{vm, err}
	}()
	return ch
}

// loadVM0 evaluates b in worker 0's VM, its registry starting with stubs
// when not nil, and makes it the run's first VM.
func (r *Run) loadVM0(p pendingVM, b *jsbridge.Bundle, stubs *jsbridge.LibraryIndex) error {
	res := <-p
	p <- vmResult{} // discard finds nothing left to close
	if res.err != nil {
		return res.err
	}
	if err := res.vm.Load(b, stubs); err != nil {
		res.vm.Close()
		return err
	}
	b.Remember(res.vm)
	r.connect(res.vm)
	r.bundle, r.stubs, r.vm0 = b, stubs, res.vm
	return nil
}

// discard closes the VM unless loadVM0 took it.
func (p pendingVM) discard() {
	if res := <-p; res.vm != nil {
		res.vm.Close()
	}
}

// loadBundle evaluates b in the first VM.
func (r *Run) loadBundle(b *jsbridge.Bundle) error {
	r.bundle = b
	vm, err := r.newVM(0)
	if err != nil {
		return err
	}
	r.vm0 = vm
	return nil
}

// projectEntries lists the step files and the extensions of opts, sorted.
func projectEntries(opts Options) ([]string, error) {
	stepPaths := opts.Steps
	if len(stepPaths) == 0 {
		stepPaths = DefaultStepPaths
	}
	steps, err := jsbridge.Discover(opts.Dir, stepPaths)
	if err != nil {
		return nil, err
	}
	exts, err := jsbridge.Discover(opts.Dir, opts.Extensions)
	if err != nil {
		return nil, err
	}
	entries := append(steps, exts...)
	sort.Strings(entries)
	return dedupe(entries), nil
}

// bundle bundles entries (projectEntries) with the library of opts, or,
// without withLibrary, leaving it out (Bundle.ImportsLeftOut says when the
// code imports it).
func bundle(opts Options, entries []string, withLibrary bool) (*jsbridge.Bundle, error) {
	bo := jsbridge.BundleOptions{Entries: entries, Dir: opts.Dir, Alias: opts.Alias, Cache: opts.Cache}
	if withLibrary {
		bo.Library = opts.Library
	} else {
		bo.LeftOut = opts.Library.Module
	}
	return jsbridge.Build(bo)
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

func (r *Run) newVM(worker int) (*jsbridge.VM, error) {
	vm, err := newVM(r.opts, r.bundle, r.stubs, worker, r.commands)
	if err != nil {
		return nil, err
	}
	r.connect(vm)
	return vm, nil
}

// connect gives a VM of the run what runStep, flow() and runOnce() need.
func (r *Run) connect(vm *jsbridge.VM) {
	vm.SetStepMatcher(r.stepByText)
	vm.SetFlowSource(r.flows.find)
	vm.SetOnceStore(r.once)
}

// newVM evaluates b in a new VM of worker, as opts configure it, its
// registry starting with stubs when the library is not loaded.
func newVM(opts Options, b *jsbridge.Bundle, stubs *jsbridge.LibraryIndex, worker int, commands *capability.Session) (*jsbridge.VM, error) {
	vm, err := jsbridge.NewVM(b, jsbridge.VMOptions{
		Stubs:           stubs,
		Host:            jsbridge.HostBDD,
		Dir:             opts.Dir,
		Env:             opts.Env,
		OnHiddenEnv:     opts.OnHiddenEnv,
		WorldParameters: opts.WorldParameters,
		Stdout:          opts.Stdout,
		Stderr:          opts.Stderr,
		WorkerID:        strconv.Itoa(worker),
		AttachmentLimit: limitOrDefault(opts.AttachmentLimit, DefaultAttachmentLimit),
		MemoryLimit:     limitOrDefault(opts.MemoryLimit, DefaultMemoryLimit),

		DefaultTimeout:       opts.StepTimeout,
		DefaultTimeoutSource: opts.StepTimeoutSource,
	})
	if err != nil {
		return nil, err
	}
	jsbridge.SetCommandSession(vm, commands)
	jsbridge.SetScriptCommands(vm, opts.ScriptCommands)
	return vm, nil
}

// define builds the matcher and gives every definition its id; parameter
// types and hooks get theirs in definitionMessages.
func (r *Run) define() error {
	reg := r.vm0.Registry()
	m, err := newMatcher(reg)
	if err != nil {
		return err
	}
	r.matcher = m
	if note := m.shadowedNote(reg); note != "" && r.opts.Stderr != nil {
		fmt.Fprintf(r.opts.Stderr, "ferridriver: %s\n", note)
	}
	r.stepDefIDs = make([]string, len(reg.Steps))
	r.hookIDs = make([]string, len(reg.Hooks))
	r.hookTags = make([]tagexpressions.Evaluatable, len(reg.Hooks))
	for _, h := range reg.Hooks {
		r.hookIDs[h.Index] = newID()
		if h.Tags != "" {
			e, err := parseTagExpression(h.Tags)
			if err != nil {
				return &DefinitionError{Source: h.Source, What: h.Kind.String() + " hook", Err: err}
			}
			r.hookTags[h.Index] = e
		}
	}
	for i := range reg.Steps {
		if !m.unavailable[i] {
			r.stepDefIDs[i] = newID()
		}
	}
	return nil
}

// definitionMessages returns the definition messages (parameter types,
// hooks, step definitions in the order the code registered them) of the
// definitions keep reports (builtinLibrary.reported).
func (r *Run) definitionMessages(keep func(jsbridge.Def) bool) []*messages.Envelope {
	reg, m := r.vm0.Registry(), r.matcher
	var out []*messages.Envelope
	ref := func(s jsbridge.SourceRef) messages.SourceReference {
		return messages.SourceReference{URI: messages.Ptr(s.URI), Location: &messages.Location{Line: int64(s.Line)}}
	}
	for _, d := range reg.Order {
		if !keep(d) {
			continue
		}
		switch d.Kind {
		case jsbridge.DefParamType:
			if m.shadowed[d.Index] {
				continue
			}
			p := reg.ParamTypes[d.Index]
			out = append(out, &messages.Envelope{ParameterType: &messages.ParameterType{
				ID: newID(), Name: p.Name, RegularExpressions: p.Regexps, PreferForRegularExpressionMatch: p.PreferForRegexpMatch,
				UseForSnippets: p.UseForSnippets, SourceReference: messages.Ptr(ref(p.Source)),
			}})
		case jsbridge.DefHook:
			h := reg.Hooks[d.Index]
			msg := &messages.Hook{ID: r.hookIDs[h.Index], SourceReference: ref(h.Source), Type: messages.Ptr(hookType(h.Kind))}
			if h.Name != "" {
				msg.Name = messages.Ptr(h.Name)
			}
			if h.Tags != "" {
				msg.TagExpression = messages.Ptr(h.Tags)
			}
			out = append(out, &messages.Envelope{Hook: msg})
		case jsbridge.DefStep:
			if m.unavailable[d.Index] {
				continue
			}
			s := reg.Steps[d.Index]
			if u, ok := m.undefinedParams[d.Index]; ok {
				out = append(out, &messages.Envelope{UndefinedParameterType: u})
				continue
			}
			kind := messages.StepDefinitionPatternTypeCucumberExpression
			if s.IsRegexp {
				kind = messages.StepDefinitionPatternTypeRegularExpression
			}
			out = append(out, &messages.Envelope{StepDefinition: &messages.StepDefinition{
				ID: r.stepDefIDs[d.Index], Pattern: messages.StepDefinitionPattern{Source: s.Pattern, Type: kind}, SourceReference: ref(s.Source),
			}})
		}
	}
	return out
}

func hookType(k jsbridge.HookKind) messages.HookType {
	switch k {
	case jsbridge.BeforeAll:
		return messages.HookTypeBeforeTestRun
	case jsbridge.AfterAll:
		return messages.HookTypeAfterTestRun
	case jsbridge.Before:
		return messages.HookTypeBeforeTestCase
	case jsbridge.After:
		return messages.HookTypeAfterTestCase
	case jsbridge.BeforeStep:
		return messages.HookTypeBeforeTestStep
	}
	return messages.HookTypeAfterTestStep
}

// interruptedError is the failure of a step cut short by Ctrl-C.
type interruptedError struct{}

func (interruptedError) Error() string { return "the run was interrupted" }

func (r *Run) interrupted() bool { return r.interrupt.Load() }

// Execute runs the planned test cases and emits the whole message stream
// to sink. Cancelling ctx interrupts the run: running steps are stopped,
// nothing new starts, and the stream still ends with testRunFinished.
func (r *Run) Execute(ctx context.Context, sink Sink) Result {
	r.stream = newStream(sink)
	res := Result{TestCases: len(r.cases)}
	now := func() messages.Timestamp { return messages.NewTimestamp(time.Now()) }
	r.stream.global(&messages.Envelope{Meta: meta()})
	for _, f := range r.features {
		if !r.inRun[f] {
			continue
		}
		r.stream.global(&messages.Envelope{Source: f.source})
		r.stream.global(&messages.Envelope{GherkinDocument: f.doc})
		for _, p := range f.pickles {
			r.stream.global(&messages.Envelope{Pickle: p})
		}
	}
	for _, d := range r.definitions {
		r.stream.global(d)
	}
	r.stream.global(&messages.Envelope{TestRunStarted: &messages.TestRunStarted{ID: messages.Ptr(r.testRunStartedID), Timestamp: now()}})

	stopWatch := context.AfterFunc(ctx, func() {
		r.interrupt.Store(true)
		r.workersMu.Lock()
		for _, vm := range r.workerVMs {
			vm.Interrupt(&interruptedError{})
		}
		r.workersMu.Unlock()
	})
	defer stopWatch()

	workers, setupErr := r.startWorkers()
	success := setupErr == nil
	if setupErr != nil {
		fmt.Fprintf(r.opts.Stderr, "ferridriver: %v\n", setupErr)
	}

	// BeforeAll hooks run on every worker (module state lives per VM); their
	// messages come worker by worker, before any test case.
	beforeFailed := r.testRunHooks(workers, jsbridge.BeforeAll)
	if beforeFailed || setupErr != nil {
		success = false
		res.NotRun = len(r.cases)
	} else {
		for _, tc := range r.cases {
			r.stream.global(&messages.Envelope{TestCase: tc.msg})
		}
		notRun := r.dispatch(workers)
		res.NotRun = notRun
		if r.failedCases.Load() > 0 {
			success = false
		}
	}
	if !r.interrupted() {
		if r.testRunHooks(workers, jsbridge.AfterAll) {
			success = false
		}
	}
	for _, w := range workers {
		if w.env != nil {
			w.env.Close()
		}
	}
	res.Interrupted = r.interrupted()
	if res.Interrupted {
		success = false
	}
	fin := &messages.TestRunFinished{TestRunStartedID: messages.Ptr(r.testRunStartedID), Timestamp: now(), Success: success}
	if res.Interrupted {
		fin.Message = messages.Ptr("the run was interrupted")
	}
	r.stream.global(&messages.Envelope{TestRunFinished: fin})
	if r.bundle != nil && r.vm0 != nil {
		// The polyfills the run's code required after loading too (the
		// formatter API in a hook...): the next run compiles them in the
		// background as it starts, not in the step that first needs them.
		r.bundle.Remember(r.vm0)
	}
	for _, w := range workers {
		w.vm.Close()
	}
	r.commands.Close()
	res.Success = success
	return res
}

func meta() *messages.Meta {
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	return &messages.Meta{
		ProtocolVersion: messages.ProtocolVersion,
		Implementation:  messages.Product{Name: "ferridriver", Version: messages.Ptr(Version)},
		Runtime:         messages.Product{Name: "go", Version: messages.Ptr(runtime.Version())},
		Os:              messages.Product{Name: runtime.GOOS},
		Cpu:             messages.Product{Name: arch},
		Ci:              detectCI(),
	}
}

// startWorkers creates the workers: worker 0 reuses the VM that was loaded
// while preparing; the others load theirs concurrently.
func (r *Run) startWorkers() ([]*worker, error) {
	n := r.opts.Parallel
	if n < 1 {
		n = 1
	}
	if n > len(r.cases) && len(r.cases) > 0 {
		n = len(r.cases)
	}
	workers := make([]*worker, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		workers[i] = &worker{id: i, run: r}
		if n > 1 {
			workers[i].workerID = messages.Ptr(strconv.Itoa(i))
		}
		if i == 0 {
			workers[i].vm = r.vm0
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			vm, err := r.newVM(i)
			if err == nil {
				err = sameRegistry(r.vm0.Registry(), vm.Registry())
			}
			workers[i].vm, errs[i] = vm, err
		}()
	}
	wg.Wait()
	var live []*worker
	for i, w := range workers {
		if errs[i] != nil {
			if w.vm != nil {
				w.vm.Close()
			}
			return live, fmt.Errorf("worker %d: %w", i, errs[i])
		}
		if r.opts.Environment != nil {
			env, err := r.opts.Environment.Worker(i, w.vm)
			if err != nil {
				return live, fmt.Errorf("worker %d: %w", i, err)
			}
			w.env = env
		}
		live = append(live, w)
	}
	r.workersMu.Lock()
	for _, w := range live {
		r.workerVMs = append(r.workerVMs, w.vm)
	}
	r.workersMu.Unlock()
	return live, nil
}

// sameRegistry checks that a worker's code registered what worker 0's did
// (code whose registrations depend on timing or randomness cannot be split
// across workers).
func sameRegistry(a, b *jsbridge.Registry) error {
	if len(a.Steps) != len(b.Steps) || len(a.Hooks) != len(b.Hooks) || len(a.ParamTypes) != len(b.ParamTypes) {
		return errors.New("step files registered different definitions in different workers")
	}
	for i := range a.Steps {
		if a.Steps[i].Pattern != b.Steps[i].Pattern {
			return fmt.Errorf("step definition %d differs between workers: %q vs %q", i, a.Steps[i].Pattern, b.Steps[i].Pattern)
		}
	}
	return nil
}

// testRunHooks runs BeforeAll or AfterAll on every worker concurrently and
// emits each worker's messages in worker order.
func (r *Run) testRunHooks(workers []*worker, kind jsbridge.HookKind) (failed bool) {
	if len(r.vm0.Registry().HooksOf(kind)) == 0 {
		return false
	}
	bufs := make([][]*messages.Envelope, len(workers))
	fails := make([]bool, len(workers))
	var wg sync.WaitGroup
	for i, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fails[i] = w.runTestRunHooks(kind, func(e *messages.Envelope) { bufs[i] = append(bufs[i], e) })
		}()
	}
	wg.Wait()
	for i := range workers {
		for _, e := range bufs[i] {
			r.stream.global(e)
		}
		failed = failed || fails[i]
	}
	return failed
}

// dispatch hands test cases to the workers in plan order and returns how
// many never started.
func (r *Run) dispatch(workers []*worker) int {
	var next atomic.Int64
	var notRun atomic.Int64
	stop := func() bool { return r.interrupted() || (r.opts.FailFast && r.failedCases.Load() > 0) }
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(r.cases) {
					return
				}
				if stop() {
					notRun.Add(1)
					r.stream.finish(i)
					continue
				}
				if w.runTestCase(i, r.cases[i]) {
					r.failedCases.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if r.interrupted() {
		r.stream.flushAll(len(r.cases))
	}
	return int(notRun.Load())
}
