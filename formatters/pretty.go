package formatters

import (
	"bufio"
	"fmt"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("pretty", newPretty) }

// prettyFormatter prints features, rules, scenarios and steps as they run,
// with status icons, step locations, data tables, doc strings, attachments
// and errors, then the summary (cucumber-js's `pretty`, i.e. the
// PrettyPrinter of @cucumber/pretty-formatter with summarise on).
//
// Options: pretty.includeFeatureLine, pretty.includeRuleLine,
// pretty.useStatusIcon (all default true), plus the terminal options
// (theme, includeAttachments).
type prettyFormatter struct {
	w    *bufio.Writer
	q    *query.Query
	t    term
	opts terminalOptions
	seed string

	includeFeatureLine, includeRuleLine, useStatusIcon bool

	scenarioIndent map[string]int // by testCaseStarted id
	maxContent     map[string]int // by testCaseStarted id
	printed        map[any]bool   // features and rules already printed
	finished       bool
}

func newPretty(o Options) (Formatter, error) {
	topts, err := resolveTerminalOptions(o)
	if err != nil {
		return nil, err
	}
	p := &prettyFormatter{
		w: bufio.NewWriter(o.Out), q: query.New(), opts: topts, seed: o.Seed,
		t:              term{theme: topts.theme, st: topts.style},
		scenarioIndent: map[string]int{}, maxContent: map[string]int{}, printed: map[any]bool{},
	}
	for _, b := range []struct {
		dst *bool
		key string
	}{{&p.includeFeatureLine, "includeFeatureLine"}, {&p.includeRuleLine, "includeRuleLine"}, {&p.useStatusIcon, "useStatusIcon"}} {
		if *b.dst, err = optBool(o.FormatOptions, true, "pretty", b.key); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *prettyFormatter) println(s string) { p.w.WriteString(s + "\n") }

func (p *prettyFormatter) Handle(e *messages.Envelope) error {
	if p.finished {
		return nil
	}
	p.q.Update(e)
	switch {
	case e.TestCaseStarted != nil:
		p.testCaseStarted(e.TestCaseStarted)
	case e.Attachment != nil:
		p.attachment(e.Attachment)
	case e.TestStepFinished != nil:
		p.testStepFinished(e.TestStepFinished)
	case e.TestRunFinished != nil:
		p.testRunFinished(e.TestRunFinished)
	}
	// Flush per test case so a user watching the terminal sees progress.
	if e.TestStepFinished != nil || e.TestCaseFinished != nil || e.TestRunFinished != nil {
		return p.flush()
	}
	return nil
}

func (p *prettyFormatter) flush() error {
	if err := p.w.Flush(); err != nil {
		return fmt.Errorf("write pretty output: %w", err)
	}
	return nil
}

func (p *prettyFormatter) Close() error {
	if !p.finished {
		// The stream ended without testRunFinished: still summarise.
		p.testRunFinished(nil)
	}
	return p.flush()
}

// stepIndent is where step arguments, errors and attachments start.
func (p *prettyFormatter) stepIndent(scenarioIndent int) int {
	n := scenarioIndent + gherkinIndent
	if p.useStatusIcon {
		n += gherkinIndent
	}
	return n
}

func (p *prettyFormatter) testCaseStarted(tcs *messages.TestCaseStarted) {
	pickle := p.q.PickleOf(tcs)
	l := p.q.Lineage(pickle)
	if pickle == nil || l == nil || l.Scenario == nil || l.Feature == nil {
		return
	}
	max := jsLen(stripANSI(p.t.pickleTitle(pickle, l.Scenario)))
	if tc := p.q.TestCaseOf(tcs); tc != nil {
		for _, ts := range tc.TestSteps {
			if ts.PickleStepID == nil {
				continue
			}
			ps := p.q.PickleStep(*ts.PickleStepID)
			gs := p.q.StepOf(ps)
			if ps == nil || gs == nil {
				continue
			}
			n := jsLen(indent(stripANSI(p.t.stepTitle(ts, ps, gs, messages.TestStepResultStatusUnknown, p.useStatusIcon)), gherkinIndent))
			if n > max {
				max = n
			}
		}
	}
	p.maxContent[tcs.ID] = max
	ind := 0
	if p.includeFeatureLine {
		ind += gherkinIndent
		if p.includeRuleLine && l.Rule != nil {
			ind += gherkinIndent
		}
	}
	p.scenarioIndent[tcs.ID] = ind

	if p.includeFeatureLine && !p.printed[l.Feature] {
		p.println("")
		p.println(p.t.featureTitle(l.Feature))
	}
	p.printed[l.Feature] = true
	if l.Rule != nil {
		if p.includeRuleLine && !p.printed[l.Rule] {
			p.println("")
			p.println(indent(p.t.ruleTitle(l.Rule), gherkinIndent))
		}
		p.printed[l.Rule] = true
	}
	p.println("")
	if len(pickle.Tags) > 0 {
		p.println(indent(p.t.tags(pickle.Tags), ind))
	}
	p.gherkinLine(p.t.pickleTitle(pickle, l.Scenario), p.t.pickleLocation(pickle, p.q.LocationOf(pickle)), ind, max)
}

func (p *prettyFormatter) gherkinLine(title, location string, indentBy, max int) {
	out := title
	if location != "" {
		out += indent(location, max-jsLen(stripANSI(title))+1)
	}
	p.println(indent(out, indentBy))
}

func (p *prettyFormatter) testStepFinished(f *messages.TestStepFinished) {
	ind := p.scenarioIndent[f.TestCaseStartedID]
	max := p.maxContent[f.TestCaseStartedID]
	ts := p.q.TestStep(f.TestStepID)
	if ts != nil && ts.PickleStepID != nil {
		ps := p.q.PickleStep(*ts.PickleStepID)
		gs := p.q.StepOf(ps)
		if ps != nil && gs != nil {
			loc := ""
			if sd := p.q.UnambiguousStepDefinition(ts); sd != nil {
				loc = p.t.sourceReference(sd.SourceReference)
			}
			p.gherkinLine(indent(p.t.stepTitle(ts, ps, gs, f.TestStepResult.Status, p.useStatusIcon), gherkinIndent), loc, ind, max)
			if ps.Argument != nil {
				p.println(indent(p.t.stepArgument(ps.Argument), p.stepIndent(ind)+stepArgIndent))
			}
			if f.TestStepResult.Status == messages.TestStepResultStatusAmbiguous {
				p.println(indent(p.t.ambiguousStep(p.q.StepDefinitionsOf(ts)), p.stepIndent(ind)+errorIndent))
			}
		}
	}
	if msg := reportableMessage(&f.TestStepResult); msg != "" {
		p.println(indent(p.t.errorText(msg, f.TestStepResult.Status), p.stepIndent(ind)+errorIndent))
	}
}

func (p *prettyFormatter) attachment(a *messages.Attachment) {
	if !p.opts.includeAttachments {
		return
	}
	ind := 0
	if id := a.GetTestCaseStartedID(); id != "" {
		ind = p.scenarioIndent[id]
	}
	p.println("\n" + indent(p.t.attachment(a), p.stepIndent(ind)+attachmentIndent) + "\n")
}

func (p *prettyFormatter) testRunFinished(trf *messages.TestRunFinished) {
	p.finished = true
	if trf != nil && trf.Exception != nil {
		msg := trf.Exception.GetStackTrace()
		if msg == "" {
			msg = trf.Exception.GetMessage()
		}
		if msg != "" {
			p.println(p.t.errorText(msg, messages.TestStepResultStatusFailed))
		}
	}
	p.w.WriteString(summary(p.q, p.t, p.opts.includeAttachments, p.seed))
}
