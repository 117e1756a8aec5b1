// Package merge combines the message streams of the shards of one run
// (`ferridriver bdd --shard i/n`, each writing its own NDJSON) into the
// single stream of the whole run, so that any report can be rendered for
// all of it (`ferridriver report --from 'shards/*.ndjson'`).
//
// Streams are shards of one run when they carry the same feature files
// (every shard emits the source of every file in which the whole run has
// test cases, with or without test cases of its own there), with the same
// text, and the same step definitions, hooks and parameter types; and when
// no test case ran in two of them. Anything else is refused with an error
// naming the difference.
//
// Ids are UUIDs, unique across shards, so test cases, attempts and results
// pass through unchanged. What every shard repeats is reconciled:
//
//   - meta: the first stream's is kept.
//   - source and gherkinDocument: one per uri (the first); the AST node ids
//     of a later shard's copy of the same document are mapped to the kept
//     copy's, node by node, so its pickles still find their scenarios.
//   - pickle: each shard's own; their AST node ids are mapped.
//   - stepDefinition, hook, parameterType: one per definition (pattern or
//     hook kind, name, tag expression and source location); repeats are
//     mapped to the kept one, so usage counts every shard's uses together.
//   - undefinedParameterType, parseError: one per distinct value.
//   - testRunStarted: one, at the earliest start, with the first stream's
//     id; every testRunStartedId is rewritten to it.
//   - testRunFinished: one, last, at the latest finish; success only if
//     every shard succeeded; the first exception or message is kept. A
//     shard that ended without one (killed) makes the run unsuccessful.
//
// The merged stream is laid out as a one-machine run in defined order
// writes its own: meta; each file's source, gherkinDocument and pickles (in
// document order); the other definitions; testRunStarted; the
// BeforeAll hook runs of every shard; the test cases, then each test
// case's attempts (started, steps, attachments, suggestions, finished), in
// document order; the AfterAll hook runs; testRunFinished. A single stream
// is returned unchanged.
package merge

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ferridriver/ferridriver/messages"
)

// Streams merges the streams of the shards of one run; errors name them
// "stream 1", "stream 2"...
func Streams(streams ...[]*messages.Envelope) ([]*messages.Envelope, error) {
	return Named(nil, streams)
}

// Named merges the streams of the shards of one run; errors name each
// stream by names[i] (its file), or "stream i+1" when names is short.
func Named(names []string, streams [][]*messages.Envelope) ([]*messages.Envelope, error) {
	switch len(streams) {
	case 0:
		return nil, nil
	case 1:
		return streams[0], nil
	}
	name := func(i int) string {
		if i < len(names) {
			return names[i]
		}
		return "stream " + strconv.Itoa(i+1)
	}
	if err := sameSuite(streams, name); err != nil {
		return nil, err
	}
	m := &merger{
		ids: map[string]string{}, docs: map[string]*messages.GherkinDocument{},
		keys: map[string]string{}, seen: map[string]bool{},
		pickles: map[string][]*messages.Envelope{}, ranIn: map[string]int{},
		pickleOf: map[string]*messages.Pickle{}, stepPickle: map[string]string{},
		casePickle: map[string]string{}, startedPickle: map[string]string{},
		hookType: map[string]messages.HookType{}, hookAfter: map[string]bool{},
		blocks: map[string][]*messages.Envelope{},
	}
	var meta *messages.Envelope
	var started *messages.TestRunStarted
	finished := &messages.TestRunFinished{Success: true}
	anyFinished := false
	for si, s := range streams {
		sawFinish, sawCase := false, false
		for _, e := range s {
			switch {
			case e.Meta != nil:
				if meta == nil {
					meta = e
				}
			case e.TestRunStarted != nil:
				trs := e.TestRunStarted
				if started == nil {
					cp := *trs
					started = &cp
				} else {
					if trs.ID != nil && started.ID != nil {
						m.ids[*trs.ID] = *started.ID
					}
					if compareTimestamps(trs.Timestamp, started.Timestamp) < 0 {
						started.Timestamp = trs.Timestamp
					}
				}
			case e.TestRunFinished != nil:
				sawFinish, anyFinished = true, true
				trf := e.TestRunFinished
				finished.Success = finished.Success && trf.Success
				if finished.Exception == nil {
					finished.Exception = trf.Exception
				}
				if finished.Message == nil {
					finished.Message = trf.Message
				}
				if compareTimestamps(trf.Timestamp, finished.Timestamp) > 0 {
					finished.Timestamp = trf.Timestamp
				}
			default:
				isDef, err := m.definition(e, si, name)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name(si), err)
				}
				if !isDef {
					sawCase = m.execution(e, sawCase)
				}
			}
		}
		if !sawFinish {
			finished.Success = false
		}
	}
	out := m.layout(meta, started)
	if anyFinished {
		if started != nil && started.ID != nil {
			finished.TestRunStartedID = started.ID
		}
		out = append(out, &messages.Envelope{TestRunFinished: finished})
	}
	return out, nil
}

// suite is what makes a stream part of a suite: its feature files and
// its definitions.
type suite struct {
	sources map[string]string // uri -> text
	defs    map[string]string // definition key -> description
}

func suiteOf(s []*messages.Envelope) suite {
	st := suite{sources: map[string]string{}, defs: map[string]string{}}
	for _, e := range s {
		switch {
		case e.Source != nil:
			st.sources[e.Source.URI] = e.Source.Data
		default:
			if key, desc := definitionKey(e); key != "" {
				st.defs[key] = desc
			}
		}
	}
	return st
}

// sameSuite returns an error naming the first difference between the
// suite of the first stream and another's.
func sameSuite(streams [][]*messages.Envelope, name func(int) string) error {
	first := suiteOf(streams[0])
	for i := 1; i < len(streams); i++ {
		other := suiteOf(streams[i])
		var diffs []string
		for _, uri := range slices.Sorted(maps.Keys(first.sources)) {
			data, ok := other.sources[uri]
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("%s is only in %s", uri, name(0)))
			case data != first.sources[uri]:
				diffs = append(diffs, fmt.Sprintf("%s has different text", uri))
			}
		}
		for _, uri := range slices.Sorted(maps.Keys(other.sources)) {
			if _, ok := first.sources[uri]; !ok {
				diffs = append(diffs, fmt.Sprintf("%s is only in %s", uri, name(i)))
			}
		}
		for _, key := range slices.Sorted(maps.Keys(first.defs)) {
			if _, ok := other.defs[key]; !ok {
				diffs = append(diffs, fmt.Sprintf("%s is only in %s", first.defs[key], name(0)))
			}
		}
		for _, key := range slices.Sorted(maps.Keys(other.defs)) {
			if _, ok := first.defs[key]; !ok {
				diffs = append(diffs, fmt.Sprintf("%s is only in %s", other.defs[key], name(i)))
			}
		}
		if len(diffs) > 0 {
			more := ""
			if len(diffs) > 3 {
				more = fmt.Sprintf("; and %d more differences", len(diffs)-3)
				diffs = diffs[:3]
			}
			return fmt.Errorf("%s and %s are not shards of one suite: %s%s (the shards of one suite have the same feature files, with the same text, and the same step definitions and hooks)",
				name(0), name(i), strings.Join(diffs, "; "), more)
		}
	}
	return nil
}

// definitionKey identifies a step definition, hook or parameter type
// independently of its id, with a description for errors ("" for other
// messages).
func definitionKey(e *messages.Envelope) (key, desc string) {
	switch {
	case e.StepDefinition != nil:
		sd := e.StepDefinition
		return "stepdef\x00" + string(sd.Pattern.Type) + "\x00" + sd.Pattern.Source + "\x00" + sourceKey(sd.SourceReference),
			fmt.Sprintf("step definition %q (%s)", sd.Pattern.Source, sourceKey(sd.SourceReference))
	case e.Hook != nil:
		h := e.Hook
		typ := ""
		if h.Type != nil {
			typ = string(*h.Type)
		}
		desc := "hook"
		if typ != "" {
			desc += " " + typ
		}
		if n := h.GetName(); n != "" {
			desc += fmt.Sprintf(" %q", n)
		}
		if t := h.GetTagExpression(); t != "" {
			desc += " " + t
		}
		return "hook\x00" + typ + "\x00" + h.GetName() + "\x00" + h.GetTagExpression() + "\x00" + sourceKey(h.SourceReference),
			desc + " (" + sourceKey(h.SourceReference) + ")"
	case e.ParameterType != nil:
		return "paramtype\x00" + e.ParameterType.Name, "parameter type {" + e.ParameterType.Name + "}"
	}
	return "", ""
}

type merger struct {
	ids  map[string]string // id in a later shard -> kept id
	docs map[string]*messages.GherkinDocument
	keys map[string]string // definition key -> kept id
	seen map[string]bool   // value keys of id-less definitions

	uris    []string                        // files in the order of the first stream
	defs    []*messages.Envelope            // kept definitions but pickles, in order
	pickles map[string][]*messages.Envelope // uri -> its pickles
	ranIn   map[string]int                  // pickle key -> stream that has it

	pickleOf      map[string]*messages.Pickle // pickle id -> pickle
	stepPickle    map[string]string           // pickle step id -> pickle id
	casePickle    map[string]string           // test case id -> pickle id
	startedPickle map[string]string           // test case started id -> pickle id
	hookType      map[string]messages.HookType
	hookAfter     map[string]bool // test run hook started id -> an AfterAll run

	before, after []*messages.Envelope            // test run hook runs
	cases         []*messages.Envelope            // testCase messages
	blocks        map[string][]*messages.Envelope // pickle id -> its attempts' messages
	orphans       []*messages.Envelope            // attempt messages of no known test case
}

// definition reconciles a definition message; isDef is false for
// execution messages.
func (m *merger) definition(e *messages.Envelope, stream int, name func(int) string) (isDef bool, err error) {
	switch {
	case e.Source != nil:
		if m.once("source\x00" + e.Source.URI) {
			m.uris = append(m.uris, e.Source.URI)
			m.defs = append(m.defs, e)
		}
		return true, nil
	case e.GherkinDocument != nil:
		d := e.GherkinDocument
		old, ok := m.docs[d.GetURI()]
		if !ok {
			m.docs[d.GetURI()] = d
			m.defs = append(m.defs, e)
			return true, nil
		}
		a, b := astIDs(old), astIDs(d)
		if len(a) != len(b) {
			return true, fmt.Errorf("%s: Gherkin document differs from the first stream's: not shards of one run", d.GetURI())
		}
		for i := range a {
			if a[i] != b[i] {
				m.ids[b[i]] = a[i]
			}
		}
		return true, nil
	case e.Pickle != nil:
		p := e.Pickle
		key := p.URI + "\x00" + strings.Join(m.mapAll(p.AstNodeIDs), ",")
		if first, ok := m.ranIn[key]; ok {
			where := p.URI
			if p.Location != nil {
				where += ":" + strconv.FormatInt(p.Location.Line, 10)
			}
			return true, fmt.Errorf("%s (%q) is also in %s: the shards of one run never share a test case (was one stream given twice?)", where, p.Name, name(first))
		}
		m.ranIn[key] = stream
		m.pickleOf[p.ID] = p
		for _, s := range p.Steps {
			m.stepPickle[s.ID] = p.ID
		}
		m.pickles[p.URI] = append(m.pickles[p.URI], e)
		return true, nil
	case e.StepDefinition != nil, e.Hook != nil, e.ParameterType != nil:
		key, _ := definitionKey(e)
		var id string
		switch {
		case e.StepDefinition != nil:
			id = e.StepDefinition.ID
		case e.Hook != nil:
			id = e.Hook.ID
			if e.Hook.Type != nil {
				m.hookType[id] = *e.Hook.Type
			}
		default:
			id = e.ParameterType.ID
		}
		if m.dedupe(key, id) {
			m.defs = append(m.defs, e)
		}
		return true, nil
	case e.UndefinedParameterType != nil:
		u := e.UndefinedParameterType
		if m.once("upt\x00" + u.Name + "\x00" + u.Expression) {
			m.defs = append(m.defs, e)
		}
		return true, nil
	case e.ParseError != nil:
		pe := e.ParseError
		if m.once("parseerror\x00" + sourceKey(pe.Source) + "\x00" + pe.Message) {
			m.defs = append(m.defs, e)
		}
		return true, nil
	}
	return false, nil
}

// execution files an execution message under the section it belongs to:
// a test case's block, or the BeforeAll or AfterAll runs. sawCase says
// whether the stream has had test case messages yet (a hook of unknown
// kind, or a message of unknown owner, is placed by it); it is returned
// updated.
func (m *merger) execution(e *messages.Envelope, sawCase bool) bool {
	section := func(after bool) {
		if after {
			m.after = append(m.after, e)
		} else {
			m.before = append(m.before, e)
		}
	}
	toBlock := func(pickle string, ok bool) {
		if ok {
			m.blocks[pickle] = append(m.blocks[pickle], e)
		} else {
			m.orphans = append(m.orphans, e)
		}
	}
	attachment := func(tcs, trhs *string) {
		switch {
		case tcs != nil:
			p, ok := m.startedPickle[*tcs]
			toBlock(p, ok)
		case trhs != nil:
			section(m.hookAfter[*trhs])
		default:
			section(sawCase)
		}
	}
	switch {
	case e.TestCase != nil:
		m.casePickle[e.TestCase.ID] = m.id(e.TestCase.PickleID)
		m.cases = append(m.cases, e)
		return true
	case e.TestCaseStarted != nil:
		p, ok := m.casePickle[e.TestCaseStarted.TestCaseID]
		if ok {
			m.startedPickle[e.TestCaseStarted.ID] = p
		}
		toBlock(p, ok)
		return true
	case e.TestStepStarted != nil:
		p, ok := m.startedPickle[e.TestStepStarted.TestCaseStartedID]
		toBlock(p, ok)
	case e.TestStepFinished != nil:
		p, ok := m.startedPickle[e.TestStepFinished.TestCaseStartedID]
		toBlock(p, ok)
	case e.TestCaseFinished != nil:
		p, ok := m.startedPickle[e.TestCaseFinished.TestCaseStartedID]
		toBlock(p, ok)
	case e.Suggestion != nil:
		p, ok := m.stepPickle[m.id(e.Suggestion.PickleStepID)]
		toBlock(p, ok)
	case e.Attachment != nil:
		attachment(e.Attachment.TestCaseStartedID, e.Attachment.TestRunHookStartedID)
	case e.ExternalAttachment != nil:
		attachment(e.ExternalAttachment.TestCaseStartedID, e.ExternalAttachment.TestRunHookStartedID)
	case e.TestRunHookStarted != nil:
		after := sawCase
		switch m.hookType[m.id(e.TestRunHookStarted.HookID)] {
		case messages.HookTypeAfterTestRun:
			after = true
		case messages.HookTypeBeforeTestRun:
			after = false
		}
		m.hookAfter[e.TestRunHookStarted.ID] = after
		section(after)
	case e.TestRunHookFinished != nil:
		after, ok := m.hookAfter[e.TestRunHookFinished.TestRunHookStartedID]
		section(after || (!ok && sawCase))
	default:
		section(sawCase)
	}
	return sawCase
}

// position orders pickles as a one-machine run in defined order does:
// by file, in the first stream's order of files, then by place in the
// document.
type position struct{ file, node int }

func (m *merger) positions() map[string]position {
	file := map[string]int{}
	for i, uri := range m.uris {
		file[uri] = i
	}
	node := map[string]map[string]int{}
	for uri, d := range m.docs {
		idx := map[string]int{}
		for i, id := range astIDs(d) {
			idx[id] = i
		}
		node[uri] = idx
	}
	pos := map[string]position{}
	for id, p := range m.pickleOf {
		at := position{file: len(m.uris), node: -1}
		if f, ok := file[p.URI]; ok {
			at.file = f
		}
		if n := len(p.AstNodeIDs); n > 0 {
			if i, ok := node[p.URI][m.id(p.AstNodeIDs[n-1])]; ok {
				at.node = i
			}
		}
		pos[id] = at
	}
	return pos
}

// layout returns the merged stream up to testRunFinished.
func (m *merger) layout(meta *messages.Envelope, started *messages.TestRunStarted) []*messages.Envelope {
	pos := m.positions()
	byPos := func(a, b string) int {
		pa, pb := pos[a], pos[b]
		return cmp.Or(cmp.Compare(pa.file, pb.file), cmp.Compare(pa.node, pb.node))
	}
	var out []*messages.Envelope
	add := func(e *messages.Envelope) { out = append(out, m.rewrite(e)) }
	if meta != nil {
		out = append(out, meta)
	}
	placed := map[string]bool{}
	addPickles := func(uri string) {
		ps := m.pickles[uri]
		slices.SortStableFunc(ps, func(a, b *messages.Envelope) int { return byPos(a.Pickle.ID, b.Pickle.ID) })
		for _, e := range ps {
			add(e)
		}
		placed[uri] = true
	}
	for _, e := range m.defs {
		add(e)
		if e.GherkinDocument != nil {
			addPickles(e.GherkinDocument.GetURI())
		}
	}
	for _, uri := range slices.Sorted(maps.Keys(m.pickles)) {
		if !placed[uri] {
			addPickles(uri)
		}
	}
	if started != nil {
		out = append(out, &messages.Envelope{TestRunStarted: started})
	}
	for _, e := range m.before {
		add(e)
	}
	slices.SortStableFunc(m.cases, func(a, b *messages.Envelope) int {
		return byPos(m.casePickle[a.TestCase.ID], m.casePickle[b.TestCase.ID])
	})
	seen := map[string]bool{}
	for _, e := range m.cases {
		add(e)
	}
	for _, e := range m.cases {
		p := m.casePickle[e.TestCase.ID]
		if !seen[p] {
			seen[p] = true
			for _, b := range m.blocks[p] {
				add(b)
			}
		}
	}
	// Attempts whose testCase message is missing, then those of no known
	// test case at all: kept, after the others.
	rest := slices.SortedFunc(maps.Keys(m.blocks), byPos)
	for _, p := range rest {
		if !seen[p] {
			for _, b := range m.blocks[p] {
				add(b)
			}
		}
	}
	for _, e := range m.orphans {
		add(e)
	}
	for _, e := range m.after {
		add(e)
	}
	return out
}

// dedupe keeps the first definition with key; a repeat's id is mapped to
// the kept one's.
func (m *merger) dedupe(key, id string) bool {
	if kept, ok := m.keys[key]; ok {
		m.ids[id] = kept
		return false
	}
	m.keys[key] = id
	return true
}

func (m *merger) once(key string) bool {
	if m.seen[key] {
		return false
	}
	m.seen[key] = true
	return true
}

func (m *merger) id(s string) string {
	if v, ok := m.ids[s]; ok {
		return v
	}
	return s
}

func (m *merger) ptr(s *string) *string {
	if s == nil {
		return nil
	}
	v := m.id(*s)
	return &v
}

func (m *merger) mapAll(ids []string) []string {
	out := make([]string, len(ids))
	for i, s := range ids {
		out[i] = m.id(s)
	}
	return out
}

// rewrite returns e with every reference mapped to the kept ids (a copy
// when anything changes; inputs are not modified).
func (m *merger) rewrite(e *messages.Envelope) *messages.Envelope {
	out := *e
	switch {
	case e.Pickle != nil:
		p := *e.Pickle
		p.AstNodeIDs = m.mapAll(p.AstNodeIDs)
		p.Steps = make([]*messages.PickleStep, len(e.Pickle.Steps))
		for i, s := range e.Pickle.Steps {
			cp := *s
			cp.AstNodeIDs = m.mapAll(s.AstNodeIDs)
			p.Steps[i] = &cp
		}
		p.Tags = make([]*messages.PickleTag, len(e.Pickle.Tags))
		for i, t := range e.Pickle.Tags {
			cp := *t
			cp.AstNodeID = m.id(t.AstNodeID)
			p.Tags[i] = &cp
		}
		out.Pickle = &p
	case e.TestCase != nil:
		tc := *e.TestCase
		tc.PickleID = m.id(tc.PickleID)
		tc.TestRunStartedID = m.ptr(tc.TestRunStartedID)
		tc.TestSteps = make([]*messages.TestStep, len(e.TestCase.TestSteps))
		for i, s := range e.TestCase.TestSteps {
			cp := *s
			cp.HookID = m.ptr(s.HookID)
			cp.PickleStepID = m.ptr(s.PickleStepID)
			if s.StepDefinitionIDs != nil {
				cp.StepDefinitionIDs = m.mapAll(s.StepDefinitionIDs)
			}
			tc.TestSteps[i] = &cp
		}
		out.TestCase = &tc
	case e.TestRunHookStarted != nil:
		h := *e.TestRunHookStarted
		h.HookID = m.id(h.HookID)
		h.TestRunStartedID = m.id(h.TestRunStartedID)
		out.TestRunHookStarted = &h
	case e.Attachment != nil:
		a := *e.Attachment
		a.TestRunStartedID = m.ptr(a.TestRunStartedID)
		out.Attachment = &a
	case e.Suggestion != nil:
		s := *e.Suggestion
		s.PickleStepID = m.id(s.PickleStepID)
		out.Suggestion = &s
	}
	return &out
}

func sourceKey(sr messages.SourceReference) string {
	k := sr.GetURI()
	if sr.Location != nil {
		k += ":" + strconv.FormatInt(sr.Location.Line, 10)
		if sr.Location.Column != nil {
			k += ":" + strconv.FormatInt(*sr.Location.Column, 10)
		}
	}
	if j := sr.JavaMethod; j != nil {
		k += j.ClassName + "#" + j.MethodName + "(" + strings.Join(j.MethodParameterTypes, ",") + ")"
	}
	if j := sr.JavaStackTraceElement; j != nil {
		k += j.ClassName + "#" + j.MethodName + "@" + j.FileName
	}
	return k
}

// astIDs lists the ids of a Gherkin document's nodes in document order, so
// that two parses of the same text line up node by node.
func astIDs(d *messages.GherkinDocument) []string {
	var ids []string
	tags := func(ts []*messages.Tag) {
		for _, t := range ts {
			ids = append(ids, t.ID)
		}
	}
	steps := func(ss []*messages.Step) {
		for _, s := range ss {
			ids = append(ids, s.ID)
			if s.DataTable != nil {
				for _, r := range s.DataTable.Rows {
					ids = append(ids, r.ID)
				}
			}
		}
	}
	background := func(b *messages.Background) {
		ids = append(ids, b.ID)
		steps(b.Steps)
	}
	scenario := func(s *messages.Scenario) {
		ids = append(ids, s.ID)
		tags(s.Tags)
		steps(s.Steps)
		for _, ex := range s.Examples {
			ids = append(ids, ex.ID)
			tags(ex.Tags)
			if ex.TableHeader != nil {
				ids = append(ids, ex.TableHeader.ID)
			}
			for _, r := range ex.TableBody {
				ids = append(ids, r.ID)
			}
		}
	}
	f := d.Feature
	if f == nil {
		return nil
	}
	tags(f.Tags)
	for _, c := range f.Children {
		switch {
		case c.Background != nil:
			background(c.Background)
		case c.Scenario != nil:
			scenario(c.Scenario)
		case c.Rule != nil:
			ids = append(ids, c.Rule.ID)
			tags(c.Rule.Tags)
			for _, rc := range c.Rule.Children {
				switch {
				case rc.Background != nil:
					background(rc.Background)
				case rc.Scenario != nil:
					scenario(rc.Scenario)
				}
			}
		}
	}
	return ids
}

func compareTimestamps(a, b messages.Timestamp) int {
	switch {
	case a.Seconds != b.Seconds:
		if a.Seconds < b.Seconds {
			return -1
		}
		return 1
	case a.Nanos < b.Nanos:
		return -1
	case a.Nanos > b.Nanos:
		return 1
	}
	return 0
}
