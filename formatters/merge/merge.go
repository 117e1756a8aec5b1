// Package merge combines the message streams of the shards of one run
// (`ferridriver bdd --shard i/n`, each writing its own NDJSON) into the
// single stream of the whole run, so that any report can be rendered for
// all of it (`ferridriver report --from a.ndjson --from b.ndjson`).
//
// Ids are UUIDs, unique across shards, so test cases, attempts and results
// pass through unchanged. What every shard repeats is reconciled:
//
//   - meta: the first stream's is kept.
//   - source and gherkinDocument: one per uri (the first); the AST node ids
//     of a later shard's copy of the same document are mapped to the kept
//     copy's, node by node, so its pickles still find their scenarios.
//     Two shards with different text for one uri are not one run: error.
//   - pickle: one per (uri, AST nodes); a repeated pickle's id and step ids
//     are mapped to the kept one's.
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
// The merged stream is: meta, the definitions, testRunStarted, each
// stream's execution messages in turn (test cases, attempts, steps,
// attachments, hooks, suggestions; in their own order, ids mapped), then
// testRunFinished. A single stream is returned unchanged.
package merge

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ferridriver/ferridriver/messages"
)

// Streams merges the streams of the shards of one run.
func Streams(streams ...[]*messages.Envelope) ([]*messages.Envelope, error) {
	switch len(streams) {
	case 0:
		return nil, nil
	case 1:
		return streams[0], nil
	}
	m := &merger{
		ids: map[string]string{}, sources: map[string]*messages.Source{}, docs: map[string]*messages.GherkinDocument{},
		keys: map[string]string{}, seen: map[string]bool{},
	}
	var defs, exec []*messages.Envelope
	var meta *messages.Envelope
	var started *messages.TestRunStarted
	finished := &messages.TestRunFinished{Success: true}
	anyFinished := false
	for si, s := range streams {
		sawFinish := false
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
				keep, isDef, err := m.definition(e, si)
				if err != nil {
					return nil, fmt.Errorf("stream %d: %w", si+1, err)
				}
				switch {
				case isDef && keep:
					defs = append(defs, e)
				case !isDef:
					exec = append(exec, e)
				}
			}
		}
		if !sawFinish {
			finished.Success = false
		}
	}
	var out []*messages.Envelope
	if meta != nil {
		out = append(out, meta)
	}
	for _, e := range defs {
		out = append(out, m.rewrite(e))
	}
	if started != nil {
		out = append(out, &messages.Envelope{TestRunStarted: started})
	}
	for _, e := range exec {
		out = append(out, m.rewrite(e))
	}
	if anyFinished {
		if started != nil && started.ID != nil {
			finished.TestRunStartedID = started.ID
		}
		out = append(out, &messages.Envelope{TestRunFinished: finished})
	}
	return out, nil
}

type merger struct {
	ids     map[string]string // id in a later shard -> kept id
	sources map[string]*messages.Source
	docs    map[string]*messages.GherkinDocument
	keys    map[string]string // definition key -> kept id
	seen    map[string]bool   // value keys of id-less definitions
}

// definition reconciles a definition message. isDef is false for execution
// messages; keep is false for a repeat.
func (m *merger) definition(e *messages.Envelope, stream int) (keep, isDef bool, err error) {
	switch {
	case e.Source != nil:
		s := e.Source
		if old, ok := m.sources[s.URI]; ok {
			if old.Data != s.Data {
				return false, true, fmt.Errorf("%s differs from the first stream's: not shards of one run", s.URI)
			}
			return false, true, nil
		}
		m.sources[s.URI] = s
		return true, true, nil
	case e.GherkinDocument != nil:
		d := e.GherkinDocument
		old, ok := m.docs[d.GetURI()]
		if !ok {
			m.docs[d.GetURI()] = d
			return true, true, nil
		}
		a, b := astIDs(old), astIDs(d)
		if len(a) != len(b) {
			return false, true, fmt.Errorf("%s: Gherkin document differs from the first stream's: not shards of one run", d.GetURI())
		}
		for i := range a {
			if a[i] != b[i] {
				m.ids[b[i]] = a[i]
			}
		}
		return false, true, nil
	case e.Pickle != nil:
		p := e.Pickle
		key := "pickle\x00" + p.URI + "\x00" + strings.Join(m.mapAll(p.AstNodeIDs), ",")
		return m.dedupe(key, p.ID, func(kept string) {
			// Map step ids too: the kept pickle has the same steps in order.
			m.ids[p.ID] = kept
			for i, s := range p.Steps {
				m.ids[s.ID] = m.keys[key+"\x00step"+strconv.Itoa(i)]
			}
		}, func() {
			for i, s := range p.Steps {
				m.keys[key+"\x00step"+strconv.Itoa(i)] = s.ID
			}
		}), true, nil
	case e.StepDefinition != nil:
		sd := e.StepDefinition
		key := "stepdef\x00" + string(sd.Pattern.Type) + "\x00" + sd.Pattern.Source + "\x00" + sourceKey(sd.SourceReference)
		return m.dedupe(key, sd.ID, nil, nil), true, nil
	case e.Hook != nil:
		h := e.Hook
		typ := ""
		if h.Type != nil {
			typ = string(*h.Type)
		}
		key := "hook\x00" + typ + "\x00" + h.GetName() + "\x00" + h.GetTagExpression() + "\x00" + sourceKey(h.SourceReference)
		return m.dedupe(key, h.ID, nil, nil), true, nil
	case e.ParameterType != nil:
		pt := e.ParameterType
		return m.dedupe("paramtype\x00"+pt.Name, pt.ID, nil, nil), true, nil
	case e.UndefinedParameterType != nil:
		u := e.UndefinedParameterType
		return m.once("upt\x00" + u.Name + "\x00" + u.Expression), true, nil
	case e.ParseError != nil:
		pe := e.ParseError
		return m.once("parseerror\x00" + sourceKey(pe.Source) + "\x00" + pe.Message), true, nil
	}
	return false, false, nil
}

// dedupe keeps the first definition with key; a repeat's id is mapped to
// the kept one's.
func (m *merger) dedupe(key, id string, onRepeat func(kept string), onFirst func()) bool {
	if kept, ok := m.keys[key]; ok {
		if onRepeat != nil {
			onRepeat(kept)
		} else {
			m.ids[id] = kept
		}
		return false
	}
	m.keys[key] = id
	if onFirst != nil {
		onFirst()
	}
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
