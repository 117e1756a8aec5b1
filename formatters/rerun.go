package formatters

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("rerun", newRerun) }

// newRerun lists the scenarios that did not pass, as
// `path:line:line` per feature file (cucumber-js's `rerun`), so that
// `ferridriver bdd @rerun.txt` runs them again. A scenario counts as not
// passed when its final attempt's worst step is anything but passed,
// including one that an interrupted run never finished. Option:
// rerun.separator (default "\n") between files.
func newRerun(o Options) (Formatter, error) {
	sep := "\n"
	if v, ok := lookup(o.FormatOptions, "rerun", "separator"); ok && v != nil {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("format option rerun.separator: want a string, got %v", v)
		}
		sep = s
	}
	return newAtEnd(o.Out, "rerun file", func(q *query.Query) ([]byte, error) {
		return []byte(rerunList(q, sep)), nil
	}), nil
}

// rerunList is the rerun report: path:line:line per feature file, the
// files joined by separator.
func rerunList(q *query.Query, separator string) string {
	var uris []string
	lines := map[string][]string{}
	for _, tcs := range q.AllTestCaseStartedInStreamOrder() {
		if !q.IsFinalAttempt(tcs) || attemptWorst(q, tcs) == messages.TestStepResultStatusPassed {
			continue
		}
		p := q.PickleOf(tcs)
		if p == nil {
			continue
		}
		if _, ok := lines[p.URI]; !ok {
			uris = append(uris, p.URI)
		}
		lines[p.URI] = append(lines[p.URI], strconv.FormatInt(q.ScenarioLine(p), 10))
	}
	parts := make([]string, len(uris))
	for i, u := range uris {
		parts[i] = u + ":" + strings.Join(lines[u], ":")
	}
	return strings.Join(parts, separator)
}

// attemptWorst is the worst result of an attempt as cucumber-js computes it
// for rerun: UNKNOWN until the attempt finishes, then the worst over every
// test step, a step without a result counting as UNKNOWN.
func attemptWorst(q *query.Query, tcs *messages.TestCaseStarted) messages.TestStepResultStatus {
	if q.TestCaseFinished(tcs.ID) == nil {
		return messages.TestStepResultStatusUnknown
	}
	tc := q.TestCaseOf(tcs)
	if tc == nil {
		return messages.TestStepResultStatusUnknown
	}
	var statuses []messages.TestStepResultStatus
	for _, ts := range tc.TestSteps {
		if r := q.StepResult(tcs.ID, ts.ID); r != nil {
			statuses = append(statuses, r.Status)
		}
	}
	return query.Worst(statuses...)
}
