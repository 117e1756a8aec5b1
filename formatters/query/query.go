// Package query indexes the Cucumber Messages of one run so that report
// formats can look things up instead of each re-deriving them: pickles,
// Gherkin AST nodes by id with their lineage (feature, rule, scenario,
// examples, row), test cases and steps, test case attempts with their step
// results and attachments, hooks, step definitions, suggestions, and the
// final attempt of each test case.
//
// It is the Go analogue of the npm package @cucumber/query, which the
// official JUnit, pretty, progress and summary formatters are built on; its
// methods keep that package's semantics (which attempts count, in which
// order, which result is "most severe") so that our formats agree with the
// official ones on the same stream.
//
// A Query is fed with Update in stream order and is not safe for concurrent
// use. Every lookup tolerates a truncated or inconsistent stream: a missing
// reference yields nil or an empty slice, never a panic.
package query

import (
	"sort"

	"github.com/ferridriver/ferridriver/messages"
)

// Lineage is the chain of Gherkin AST nodes a pickle comes from.
type Lineage struct {
	GherkinDocument *messages.GherkinDocument
	Feature         *messages.Feature
	Background      *messages.Background
	Rule            *messages.Rule
	RuleBackground  *messages.Background
	Scenario        *messages.Scenario
	// Examples and Example are set for a pickle made from an examples row.
	Examples      *messages.Examples
	ExamplesIndex int
	Example       *messages.TableRow
	ExampleIndex  int
}

// StepResult pairs a finished test step with its definition in the test case.
type StepResult struct {
	Finished *messages.TestStepFinished
	Step     *messages.TestStep // nil if the stream never declared it
}

// Query is an index over the envelopes of one run.
type Query struct {
	meta            *messages.Meta
	testRunStarted  *messages.TestRunStarted
	testRunFinished *messages.TestRunFinished

	gherkinDocuments []*messages.GherkinDocument
	// unindexed are the documents whose AST nodes are not in the maps
	// below yet: they are indexed on the first lookup, so that a run
	// whose formatters never look one up does not pay for it.
	unindexed        []*messages.GherkinDocument
	unindexedPickles []*messages.Pickle
	sources          map[string]*messages.Source
	lineageByID      map[string]*Lineage
	stepByID         map[string]*messages.Step
	scenarioByID     map[string]*messages.Scenario
	ruleByScenarioID map[string]*messages.Rule

	pickles      []*messages.Pickle
	pickleByID   map[string]*messages.Pickle
	pickleStepBy map[string]*messages.PickleStep

	hooks            []*messages.Hook
	hookByID         map[string]*messages.Hook
	stepDefinitions  []*messages.StepDefinition
	stepDefByID      map[string]*messages.StepDefinition
	parameterTypes   []*messages.ParameterType
	undefinedParams  []*messages.UndefinedParameterType
	parseErrors      []*messages.ParseError
	suggestionsByPSI map[string][]*messages.Suggestion

	testCases      []*messages.TestCase
	testCaseByID   map[string]*messages.TestCase
	testStepByID   map[string]*messages.TestStep
	testCaseOrder  []*messages.TestCaseStarted // stream order, every attempt
	tcsByID        map[string]*messages.TestCaseStarted
	tcfByTCSID     map[string]*messages.TestCaseFinished
	tcfOrder       []*messages.TestCaseFinished
	attemptsByTCID map[string][]*messages.TestCaseStarted

	stepsStartedByTCSID  map[string][]*messages.TestStepStarted
	stepsFinishedByTCSID map[string][]*messages.TestStepFinished
	attachmentsByTCSID   map[string][]*messages.Attachment
	attachmentsByTRHSID  map[string][]*messages.Attachment
	attachments          []*messages.Attachment

	trhsOrder  []*messages.TestRunHookStarted
	trhsByID   map[string]*messages.TestRunHookStarted
	trhfOrder  []*messages.TestRunHookFinished
	trhfByTRHS map[string]*messages.TestRunHookFinished

	lastTimestamp *messages.Timestamp
}

// New returns an empty Query.
func New() *Query {
	return &Query{
		sources:              map[string]*messages.Source{},
		lineageByID:          map[string]*Lineage{},
		stepByID:             map[string]*messages.Step{},
		scenarioByID:         map[string]*messages.Scenario{},
		ruleByScenarioID:     map[string]*messages.Rule{},
		pickleByID:           map[string]*messages.Pickle{},
		pickleStepBy:         map[string]*messages.PickleStep{},
		hookByID:             map[string]*messages.Hook{},
		stepDefByID:          map[string]*messages.StepDefinition{},
		suggestionsByPSI:     map[string][]*messages.Suggestion{},
		testCaseByID:         map[string]*messages.TestCase{},
		testStepByID:         map[string]*messages.TestStep{},
		tcsByID:              map[string]*messages.TestCaseStarted{},
		tcfByTCSID:           map[string]*messages.TestCaseFinished{},
		attemptsByTCID:       map[string][]*messages.TestCaseStarted{},
		stepsStartedByTCSID:  map[string][]*messages.TestStepStarted{},
		stepsFinishedByTCSID: map[string][]*messages.TestStepFinished{},
		attachmentsByTCSID:   map[string][]*messages.Attachment{},
		attachmentsByTRHSID:  map[string][]*messages.Attachment{},
		trhsByID:             map[string]*messages.TestRunHookStarted{},
		trhfByTRHS:           map[string]*messages.TestRunHookFinished{},
	}
}

// Update indexes one envelope.
func (q *Query) Update(e *messages.Envelope) {
	switch {
	case e.Meta != nil:
		q.meta = e.Meta
	case e.Source != nil:
		q.sources[e.Source.URI] = e.Source
	case e.GherkinDocument != nil:
		q.gherkinDocuments = append(q.gherkinDocuments, e.GherkinDocument)
		q.unindexed = append(q.unindexed, e.GherkinDocument)
	case e.Pickle != nil:
		q.unindexedPickles = append(q.unindexedPickles, e.Pickle)
	case e.Hook != nil:
		if _, dup := q.hookByID[e.Hook.ID]; !dup {
			q.hooks = append(q.hooks, e.Hook)
		}
		q.hookByID[e.Hook.ID] = e.Hook
	case e.StepDefinition != nil:
		if _, dup := q.stepDefByID[e.StepDefinition.ID]; !dup {
			q.stepDefinitions = append(q.stepDefinitions, e.StepDefinition)
		}
		q.stepDefByID[e.StepDefinition.ID] = e.StepDefinition
	case e.ParameterType != nil:
		q.parameterTypes = append(q.parameterTypes, e.ParameterType)
	case e.UndefinedParameterType != nil:
		q.undefinedParams = append(q.undefinedParams, e.UndefinedParameterType)
	case e.ParseError != nil:
		q.parseErrors = append(q.parseErrors, e.ParseError)
	case e.Suggestion != nil:
		s := e.Suggestion
		q.suggestionsByPSI[s.PickleStepID] = append(q.suggestionsByPSI[s.PickleStepID], s)
	case e.TestRunStarted != nil:
		q.testRunStarted = e.TestRunStarted
		q.seen(e.TestRunStarted.Timestamp)
		q.presize()
	case e.TestCase != nil:
		tc := e.TestCase
		if _, dup := q.testCaseByID[tc.ID]; !dup {
			q.testCases = append(q.testCases, tc)
		}
		q.testCaseByID[tc.ID] = tc
		for _, s := range tc.TestSteps {
			q.testStepByID[s.ID] = s
		}
	case e.TestCaseStarted != nil:
		s := e.TestCaseStarted
		q.testCaseOrder = append(q.testCaseOrder, s)
		q.tcsByID[s.ID] = s
		q.attemptsByTCID[s.TestCaseID] = append(q.attemptsByTCID[s.TestCaseID], s)
		q.seen(s.Timestamp)
	case e.TestStepStarted != nil:
		s := e.TestStepStarted
		q.stepsStartedByTCSID[s.TestCaseStartedID] = append(q.stepsStartedByTCSID[s.TestCaseStartedID], s)
		q.seen(s.Timestamp)
	case e.Attachment != nil:
		a := e.Attachment
		q.attachments = append(q.attachments, a)
		if id := a.GetTestCaseStartedID(); id != "" {
			q.attachmentsByTCSID[id] = append(q.attachmentsByTCSID[id], a)
		}
		if id := a.GetTestRunHookStartedID(); id != "" {
			q.attachmentsByTRHSID[id] = append(q.attachmentsByTRHSID[id], a)
		}
	case e.TestStepFinished != nil:
		f := e.TestStepFinished
		q.stepsFinishedByTCSID[f.TestCaseStartedID] = append(q.stepsFinishedByTCSID[f.TestCaseStartedID], f)
		q.seen(f.Timestamp)
	case e.TestCaseFinished != nil:
		f := e.TestCaseFinished
		if _, dup := q.tcfByTCSID[f.TestCaseStartedID]; !dup {
			q.tcfOrder = append(q.tcfOrder, f)
		} else {
			for i, old := range q.tcfOrder {
				if old.TestCaseStartedID == f.TestCaseStartedID {
					q.tcfOrder[i] = f
				}
			}
		}
		q.tcfByTCSID[f.TestCaseStartedID] = f
		q.seen(f.Timestamp)
	case e.TestRunHookStarted != nil:
		s := e.TestRunHookStarted
		q.trhsOrder = append(q.trhsOrder, s)
		q.trhsByID[s.ID] = s
		q.seen(s.Timestamp)
	case e.TestRunHookFinished != nil:
		f := e.TestRunHookFinished
		if _, dup := q.trhfByTRHS[f.TestRunHookStartedID]; !dup {
			q.trhfOrder = append(q.trhfOrder, f)
		}
		q.trhfByTRHS[f.TestRunHookStartedID] = f
		q.seen(f.Timestamp)
	case e.TestRunFinished != nil:
		q.testRunFinished = e.TestRunFinished
		q.seen(e.TestRunFinished.Timestamp)
	}
}

func (q *Query) seen(t messages.Timestamp) {
	if q.lastTimestamp == nil || CompareTimestamps(t, *q.lastTimestamp) > 0 {
		q.lastTimestamp = &t
	}
}

// index indexes the documents not indexed yet.
func (q *Query) index() {
	for _, doc := range q.unindexed {
		q.indexGherkinDocument(doc)
	}
	q.unindexed = nil
}

// indexPickles indexes the pickles not indexed yet, in a map made large
// enough for all of them at once.
func (q *Query) indexPickles() {
	if len(q.unindexedPickles) == 0 {
		return
	}
	if len(q.pickleByID) == 0 {
		steps := 0
		for _, p := range q.unindexedPickles {
			steps += len(p.Steps)
		}
		q.pickleByID = make(map[string]*messages.Pickle, len(q.unindexedPickles))
		q.pickleStepBy = make(map[string]*messages.PickleStep, steps)
	}
	for _, p := range q.unindexedPickles {
		if _, dup := q.pickleByID[p.ID]; !dup {
			q.pickles = append(q.pickles, p)
		}
		q.pickleByID[p.ID] = p
		for _, s := range p.Steps {
			q.pickleStepBy[s.ID] = s
		}
	}
	q.unindexedPickles = nil
}

// presize makes room in the maps of test cases and attempts for as many
// as there are pickles (known when the run starts), which growing them
// one by one cost a formatter a tenth of a fast run.
func (q *Query) presize() {
	n := len(q.unindexedPickles) + len(q.pickles)
	if n < 64 || len(q.testCaseByID) > 0 {
		return
	}
	steps := 0
	for _, p := range append(q.unindexedPickles, q.pickles...) {
		steps += len(p.Steps)
	}
	q.testCaseByID = make(map[string]*messages.TestCase, n)
	q.testStepByID = make(map[string]*messages.TestStep, steps+n)
	q.tcsByID = make(map[string]*messages.TestCaseStarted, n)
	q.tcfByTCSID = make(map[string]*messages.TestCaseFinished, n)
	q.attemptsByTCID = make(map[string][]*messages.TestCaseStarted, n)
	q.stepsStartedByTCSID = make(map[string][]*messages.TestStepStarted, n)
	q.stepsFinishedByTCSID = make(map[string][]*messages.TestStepFinished, n)
}

func (q *Query) indexGherkinDocument(doc *messages.GherkinDocument) {
	f := doc.Feature
	if f == nil {
		return
	}
	base := Lineage{GherkinDocument: doc, Feature: f}
	for _, c := range f.Children {
		switch {
		case c.Background != nil:
			base.Background = c.Background
			q.indexSteps(c.Background.Steps)
		case c.Scenario != nil:
			q.indexScenario(c.Scenario, base)
		case c.Rule != nil:
			ruleBase := base
			ruleBase.Rule = c.Rule
			for _, rc := range c.Rule.Children {
				switch {
				case rc.Background != nil:
					ruleBase.RuleBackground = rc.Background
					q.indexSteps(rc.Background.Steps)
				case rc.Scenario != nil:
					q.ruleByScenarioID[rc.Scenario.ID] = c.Rule
					q.indexScenario(rc.Scenario, ruleBase)
				}
			}
		}
	}
}

func (q *Query) indexScenario(s *messages.Scenario, base Lineage) {
	q.scenarioByID[s.ID] = s
	l := base
	l.Scenario = s
	q.lineageByID[s.ID] = &l
	for ei, ex := range s.Examples {
		le := l
		le.Examples, le.ExamplesIndex = ex, ei
		q.lineageByID[ex.ID] = &le
		for ri, row := range ex.TableBody {
			lr := le
			lr.Example, lr.ExampleIndex = row, ri
			q.lineageByID[row.ID] = &lr
		}
	}
	q.indexSteps(s.Steps)
}

func (q *Query) indexSteps(steps []*messages.Step) {
	for _, s := range steps {
		q.stepByID[s.ID] = s
	}
}

// Meta returns the meta message, or nil.
func (q *Query) Meta() *messages.Meta { return q.meta }

// TestRunStarted returns the testRunStarted message, or nil.
func (q *Query) TestRunStarted() *messages.TestRunStarted { return q.testRunStarted }

// TestRunFinished returns the testRunFinished message, or nil when the
// stream ended without one.
func (q *Query) TestRunFinished() *messages.TestRunFinished { return q.testRunFinished }

// LastTimestamp returns the latest timestamp seen on any message, for
// completing a report of a stream that ended without testRunFinished.
func (q *Query) LastTimestamp() (messages.Timestamp, bool) {
	if q.lastTimestamp == nil {
		return messages.Timestamp{}, false
	}
	return *q.lastTimestamp, true
}

// Source returns the source text of uri, or nil.
func (q *Query) Source(uri string) *messages.Source { return q.sources[uri] }

// GherkinDocuments returns the Gherkin documents in stream order.
func (q *Query) GherkinDocuments() []*messages.GherkinDocument { return q.gherkinDocuments }

// GherkinDocument returns the last Gherkin document parsed from uri, or nil.
func (q *Query) GherkinDocument(uri string) *messages.GherkinDocument {
	for i := len(q.gherkinDocuments) - 1; i >= 0; i-- {
		if q.gherkinDocuments[i].GetURI() == uri {
			return q.gherkinDocuments[i]
		}
	}
	return nil
}

// Pickles returns the pickles in stream order.
func (q *Query) Pickles() []*messages.Pickle {
	q.indexPickles()
	return q.pickles
}

// Pickle returns the pickle with id, or nil.
func (q *Query) Pickle(id string) *messages.Pickle {
	q.indexPickles()
	return q.pickleByID[id]
}

// PickleStep returns the pickle step with id, or nil.
func (q *Query) PickleStep(id string) *messages.PickleStep {
	q.indexPickles()
	return q.pickleStepBy[id]
}

// Step returns the Gherkin step with AST node id, or nil.
func (q *Query) Step(astNodeID string) *messages.Step {
	q.index()
	return q.stepByID[astNodeID]
}

// Scenario returns the Gherkin scenario with AST node id, or nil.
func (q *Query) Scenario(astNodeID string) *messages.Scenario {
	q.index()
	return q.scenarioByID[astNodeID]
}

// RuleOfScenario returns the rule a scenario belongs to, or nil.
func (q *Query) RuleOfScenario(scenarioID string) *messages.Rule {
	q.index()
	return q.ruleByScenarioID[scenarioID]
}

// StepOf returns the Gherkin step a pickle step was made from, or nil.
func (q *Query) StepOf(ps *messages.PickleStep) *messages.Step {
	if ps == nil || len(ps.AstNodeIDs) == 0 {
		return nil
	}
	q.index()
	return q.stepByID[ps.AstNodeIDs[0]]
}

// Lineage returns the AST lineage of a pickle (looked up by its deepest AST
// node id: the examples row for an outline, else the scenario), or nil.
func (q *Query) Lineage(p *messages.Pickle) *Lineage {
	if p == nil || len(p.AstNodeIDs) == 0 {
		return nil
	}
	q.index()
	return q.lineageByID[p.AstNodeIDs[len(p.AstNodeIDs)-1]]
}

// LocationOf returns where a pickle is in its feature file: the pickle's own
// location, else its examples row, else its scenario.
func (q *Query) LocationOf(p *messages.Pickle) *messages.Location {
	if p == nil {
		return nil
	}
	if p.Location != nil {
		return p.Location
	}
	l := q.Lineage(p)
	switch {
	case l == nil:
		return nil
	case l.Example != nil:
		return &l.Example.Location
	case l.Scenario != nil:
		return &l.Scenario.Location
	}
	return nil
}

// ScenarioLine returns the line cucumber-js reports for a pickle: the
// examples row of an outline, else the scenario line; 0 if unknown.
func (q *Query) ScenarioLine(p *messages.Pickle) int64 {
	l := q.Lineage(p)
	switch {
	case l != nil && l.Example != nil:
		return l.Example.Location.Line
	case l != nil && l.Scenario != nil:
		return l.Scenario.Location.Line
	case p != nil && p.Location != nil:
		return p.Location.Line
	}
	return 0
}

// Hooks returns the hooks in stream order.
func (q *Query) Hooks() []*messages.Hook { return q.hooks }

// Hook returns the hook with id, or nil.
func (q *Query) Hook(id string) *messages.Hook { return q.hookByID[id] }

// HookOf returns the hook a test step runs, or nil for a pickle step.
func (q *Query) HookOf(ts *messages.TestStep) *messages.Hook {
	if ts == nil || ts.HookID == nil {
		return nil
	}
	return q.hookByID[*ts.HookID]
}

// HookOfRun returns the hook a test run hook execution ran, or nil.
func (q *Query) HookOfRun(f *messages.TestRunHookFinished) *messages.Hook {
	s := q.trhsByID[f.TestRunHookStartedID]
	if s == nil {
		return nil
	}
	return q.hookByID[s.HookID]
}

// StepDefinitions returns the step definitions in stream order.
func (q *Query) StepDefinitions() []*messages.StepDefinition { return q.stepDefinitions }

// StepDefinition returns the step definition with id, or nil.
func (q *Query) StepDefinition(id string) *messages.StepDefinition { return q.stepDefByID[id] }

// StepDefinitionsOf returns the step definitions a test step matched
// (several when ambiguous); unknown ids are left out.
func (q *Query) StepDefinitionsOf(ts *messages.TestStep) []*messages.StepDefinition {
	if ts == nil {
		return nil
	}
	var out []*messages.StepDefinition
	for _, id := range ts.StepDefinitionIDs {
		if sd := q.stepDefByID[id]; sd != nil {
			out = append(out, sd)
		}
	}
	return out
}

// UnambiguousStepDefinition returns the one step definition a test step
// matched, or nil when it matched none or several.
func (q *Query) UnambiguousStepDefinition(ts *messages.TestStep) *messages.StepDefinition {
	if ts == nil || len(ts.StepDefinitionIDs) != 1 {
		return nil
	}
	return q.stepDefByID[ts.StepDefinitionIDs[0]]
}

// ParameterTypes returns the parameter types in stream order.
func (q *Query) ParameterTypes() []*messages.ParameterType { return q.parameterTypes }

// UndefinedParameterTypes returns the undefined parameter types in stream order.
func (q *Query) UndefinedParameterTypes() []*messages.UndefinedParameterType {
	return q.undefinedParams
}

// ParseErrors returns the Gherkin parse errors in stream order.
func (q *Query) ParseErrors() []*messages.ParseError { return q.parseErrors }

// Suggestions returns the suggestions made for an undefined pickle step.
func (q *Query) Suggestions(pickleStepID string) []*messages.Suggestion {
	return q.suggestionsByPSI[pickleStepID]
}

// SuggestionsOfPickle returns the suggestions for the steps of a pickle, in
// step order.
func (q *Query) SuggestionsOfPickle(p *messages.Pickle) []*messages.Suggestion {
	if p == nil {
		return nil
	}
	var out []*messages.Suggestion
	for _, s := range p.Steps {
		out = append(out, q.suggestionsByPSI[s.ID]...)
	}
	return out
}

// TestCases returns the test cases in stream order.
func (q *Query) TestCases() []*messages.TestCase { return q.testCases }

// TestCase returns the test case with id, or nil.
func (q *Query) TestCase(id string) *messages.TestCase { return q.testCaseByID[id] }

// TestStep returns the test step with id, or nil.
func (q *Query) TestStep(id string) *messages.TestStep { return q.testStepByID[id] }

// TestCaseStarted returns the attempt with id, or nil.
func (q *Query) TestCaseStarted(id string) *messages.TestCaseStarted { return q.tcsByID[id] }

// TestCaseOf returns the test case an attempt runs, or nil.
func (q *Query) TestCaseOf(tcs *messages.TestCaseStarted) *messages.TestCase {
	if tcs == nil {
		return nil
	}
	return q.testCaseByID[tcs.TestCaseID]
}

// PickleOf returns the pickle an attempt runs, or nil.
func (q *Query) PickleOf(tcs *messages.TestCaseStarted) *messages.Pickle {
	tc := q.TestCaseOf(tcs)
	if tc == nil {
		return nil
	}
	q.indexPickles()
	return q.pickleByID[tc.PickleID]
}

// TestCaseFinished returns how an attempt finished, or nil if it never did
// (an interrupted run).
func (q *Query) TestCaseFinished(testCaseStartedID string) *messages.TestCaseFinished {
	return q.tcfByTCSID[testCaseStartedID]
}

// Attempts returns every attempt of a test case in stream order.
func (q *Query) Attempts(testCaseID string) []*messages.TestCaseStarted {
	return q.attemptsByTCID[testCaseID]
}

// AllTestCaseStartedInStreamOrder returns every attempt, retried or not,
// in stream order.
func (q *Query) AllTestCaseStartedInStreamOrder() []*messages.TestCaseStarted {
	return q.testCaseOrder
}

// IsFinalAttempt reports whether an attempt counts in results: it was not
// followed by a retry (unfinished attempts count, so an interrupted run
// still reports the test case it was running).
func (q *Query) IsFinalAttempt(tcs *messages.TestCaseStarted) bool {
	f := q.tcfByTCSID[tcs.ID]
	return f == nil || !f.WillBeRetried
}

// AllTestCaseStarted returns the final attempts, ordered by start time then
// id (as @cucumber/query's findAllTestCaseStarted).
func (q *Query) AllTestCaseStarted() []*messages.TestCaseStarted {
	var out []*messages.TestCaseStarted
	for _, s := range q.testCaseOrder {
		if q.IsFinalAttempt(s) {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := TimestampMillis(out[i].Timestamp), TimestampMillis(out[j].Timestamp)
		if a != b {
			return a < b
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// AllTestCaseFinished returns how the final attempts finished, ordered by
// finish time (stable for equal times), as @cucumber/query's
// findAllTestCaseFinished.
func (q *Query) AllTestCaseFinished() []*messages.TestCaseFinished {
	var out []*messages.TestCaseFinished
	for _, f := range q.tcfOrder {
		if !f.WillBeRetried {
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return TimestampMillis(out[i].Timestamp) < TimestampMillis(out[j].Timestamp)
	})
	return out
}

// TestStepsStarted returns the step starts of an attempt in stream order.
func (q *Query) TestStepsStarted(testCaseStartedID string) []*messages.TestStepStarted {
	return q.stepsStartedByTCSID[testCaseStartedID]
}

// TestStepsFinished returns the step results of an attempt in stream order.
func (q *Query) TestStepsFinished(testCaseStartedID string) []*messages.TestStepFinished {
	return q.stepsFinishedByTCSID[testCaseStartedID]
}

// StepResults returns the finished steps of an attempt with their test steps.
func (q *Query) StepResults(testCaseStartedID string) []StepResult {
	fs := q.stepsFinishedByTCSID[testCaseStartedID]
	out := make([]StepResult, 0, len(fs))
	for _, f := range fs {
		out = append(out, StepResult{Finished: f, Step: q.testStepByID[f.TestStepID]})
	}
	return out
}

// StepResult returns the result of one test step in an attempt, or nil if
// the step never finished.
func (q *Query) StepResult(testCaseStartedID, testStepID string) *messages.TestStepResult {
	fs := q.stepsFinishedByTCSID[testCaseStartedID]
	for i := len(fs) - 1; i >= 0; i-- {
		if fs[i].TestStepID == testStepID {
			return &fs[i].TestStepResult
		}
	}
	return nil
}

// MostSevereResult returns the most severe step result of an attempt (the
// last one among equally severe results, as @cucumber/query), or nil when no
// step finished.
func (q *Query) MostSevereResult(testCaseStartedID string) *messages.TestStepResult {
	var worst *messages.TestStepResult
	for _, f := range q.stepsFinishedByTCSID[testCaseStartedID] {
		if worst == nil || Ordinal(f.TestStepResult.Status) >= Ordinal(worst.Status) {
			worst = &f.TestStepResult
		}
	}
	return worst
}

// Attachments returns the attachments made during one test step of an attempt.
func (q *Query) Attachments(testCaseStartedID, testStepID string) []*messages.Attachment {
	var out []*messages.Attachment
	for _, a := range q.attachmentsByTCSID[testCaseStartedID] {
		if a.GetTestStepID() == testStepID {
			out = append(out, a)
		}
	}
	return out
}

// AttachmentsOfAttempt returns every attachment of an attempt.
func (q *Query) AttachmentsOfAttempt(testCaseStartedID string) []*messages.Attachment {
	return q.attachmentsByTCSID[testCaseStartedID]
}

// AttachmentsOfRunHook returns the attachments made by a test run hook.
func (q *Query) AttachmentsOfRunHook(testRunHookStartedID string) []*messages.Attachment {
	return q.attachmentsByTRHSID[testRunHookStartedID]
}

// AllAttachments returns every attachment in stream order.
func (q *Query) AllAttachments() []*messages.Attachment { return q.attachments }

// AllTestRunHookStarted returns the test run hook executions in stream order.
func (q *Query) AllTestRunHookStarted() []*messages.TestRunHookStarted { return q.trhsOrder }

// AllTestRunHookFinished returns the finished test run hooks in stream order.
func (q *Query) AllTestRunHookFinished() []*messages.TestRunHookFinished { return q.trhfOrder }

// TestRunHookStarted returns a test run hook execution by id, or nil.
func (q *Query) TestRunHookStarted(id string) *messages.TestRunHookStarted { return q.trhsByID[id] }

// TestRunHookFinished returns how a test run hook execution finished, or nil.
func (q *Query) TestRunHookFinished(testRunHookStartedID string) *messages.TestRunHookFinished {
	return q.trhfByTRHS[testRunHookStartedID]
}

// AllTestStepFinished returns every step result of every attempt, grouped
// by attempt in order of first appearance.
func (q *Query) AllTestStepFinished() []*messages.TestStepFinished {
	var out []*messages.TestStepFinished
	seen := map[string]bool{}
	for _, s := range q.testCaseOrder {
		if seen[s.ID] {
			continue
		}
		seen[s.ID] = true
		out = append(out, q.stepsFinishedByTCSID[s.ID]...)
	}
	return out
}
