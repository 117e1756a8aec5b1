package query

import (
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/messages"
)

func load(t *testing.T, sample string) *Query {
	t.Helper()
	envs := oracles.CCKStream(t, sample)
	q := New()
	for _, e := range envs {
		q.Update(e)
	}
	return q
}

func TestFinalAttemptsAndSeverity(t *testing.T) {
	q := load(t, "retry")
	all, final := q.AllTestCaseStartedInStreamOrder(), q.AllTestCaseStarted()
	if len(final) != len(q.TestCases()) || len(all) <= len(final) {
		t.Fatalf("%d attempts, %d final, %d test cases", len(all), len(final), len(q.TestCases()))
	}
	for _, tcs := range final {
		if !q.IsFinalAttempt(tcs) || q.TestCaseFinished(tcs.ID) == nil {
			t.Errorf("attempt %s is not a finished final attempt", tcs.ID)
		}
	}
	if n := len(q.AllTestCaseFinished()); n != len(final) {
		t.Errorf("%d finished final attempts, want %d", n, len(final))
	}
	failed := 0
	for _, tcs := range final {
		if r := q.MostSevereResult(tcs.ID); r != nil && r.Status == messages.TestStepResultStatusFailed {
			failed++
			if tcs.Attempt != 2 {
				t.Errorf("the failing test case ends on attempt %d, want 2 (retry 2)", tcs.Attempt)
			}
		}
	}
	if failed != 1 {
		t.Errorf("%d failed test cases, want 1", failed)
	}
}

func TestLineage(t *testing.T) {
	q := load(t, "examples-tables")
	seen := 0
	for _, p := range q.Pickles() {
		l := q.Lineage(p)
		if l == nil || l.Feature == nil || l.Scenario == nil || l.Example == nil || l.Examples == nil {
			t.Fatalf("%s: incomplete lineage %+v", p.Name, l)
		}
		if q.ScenarioLine(p) != l.Example.Location.Line || q.LocationOf(p).Line != p.Location.Line {
			t.Errorf("%s: line %d, want the examples row %d", p.Name, q.ScenarioLine(p), l.Example.Location.Line)
		}
		for _, s := range p.Steps {
			if q.StepOf(s) == nil || q.PickleStep(s.ID) != s {
				t.Errorf("%s: step %q not indexed", p.Name, s.Text)
			}
		}
		seen++
	}
	if seen == 0 {
		t.Fatal("no pickles")
	}
	r := load(t, "rules")
	for _, p := range r.Pickles() {
		if l := r.Lineage(p); l.Rule == nil || r.RuleOfScenario(l.Scenario.ID) != l.Rule {
			t.Errorf("%s: no rule in lineage", p.Name)
		}
	}
}

func TestStatusesAndTime(t *testing.T) {
	if Worst(messages.TestStepResultStatusPassed, messages.TestStepResultStatusUndefined, messages.TestStepResultStatusSkipped) != messages.TestStepResultStatusUndefined {
		t.Error("undefined is worse than skipped and passed")
	}
	if Worst() != messages.TestStepResultStatusUnknown || Ordinal(messages.TestStepResultStatusFailed) != len(Statuses)-1 {
		t.Error("precedence")
	}
	d := MillisToDuration(1234.5)
	if d.Seconds != 1 || d.Nanos != 234500000 {
		t.Errorf("MillisToDuration = %+v", d)
	}
	q := New() // lookups on an empty index must not panic
	if q.Lineage(nil) != nil || q.PickleOf(nil) != nil || q.MostSevereResult("x") != nil || q.LocationOf(nil) != nil {
		t.Error("empty lookups")
	}
	if _, ok := q.TestRunDuration(); ok {
		t.Error("no run, no duration")
	}
}
