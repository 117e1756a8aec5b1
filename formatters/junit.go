package formatters

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("junit", newJUnit) }

// newJUnit writes the JUnit XML report of @cucumber/junit-xml-formatter
// (the one cucumber-js uses): for the same stream, the same bytes. It is
// written when the run finishes (testRunFinished, or Close for a stream that
// ended without one).
//
// Two deliberate differences, neither of which shows on a complete stream
// with unique scenario names:
//   - when two test cases would get the same classname and name (two
//     scenarios with the same name in one feature), every one after the
//     first gets " (uri:line)" appended, because GitLab and Jenkins keep only
//     one of a set of duplicates;
//   - a test case that an interrupted run started but never finished, with
//     no failed step so far, is <skipped> with a note saying so (the
//     official formatter would report it as passed).
func newJUnit(o Options) (Formatter, error) {
	suite, err := optString(o.FormatOptions, "Cucumber", "junit", "suiteName")
	if err != nil {
		return nil, err
	}
	var testClassName *string
	if v, ok := lookup(o.FormatOptions, "junit", "testClassName"); ok && v != nil {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("format option junit.testClassName: want a string, got %v", v)
		}
		testClassName = &s
	}
	return newAtEnd(o.Out, "junit report", func(q *query.Query) ([]byte, error) {
		return []byte(xmlDocument(junitReport(q, suite, testClassName))), nil
	}), nil
}

// junitReport builds the <testsuite> element.
func junitReport(q *query.Query, suiteName string, testClassName *string) *xmlElement {
	suite := (&xmlElement{name: "testsuite"}).attr("name", suiteName)
	started := q.AllTestCaseStarted()
	skipped, failures := 0, 0
	for _, tcs := range started {
		r := junitResult(q, tcs)
		switch {
		case r == nil || r.Status == messages.TestStepResultStatusPassed:
		case r.Status == messages.TestStepResultStatusSkipped:
			skipped++
		default:
			failures++
		}
	}
	runTime := 0.0
	if d, ok := q.TestRunDuration(); ok {
		runTime = durationSeconds(d)
	}
	suite.attr("time", jsNumber(runTime))
	suite.attr("tests", fmt.Sprint(len(started)))
	suite.attr("skipped", fmt.Sprint(skipped))
	suite.attr("failures", fmt.Sprint(failures))
	suite.attr("errors", "0")
	if trs := q.TestRunStarted(); trs != nil {
		suite.attr("timestamp", isoTimestamp(trs.Timestamp))
	}

	// Test run hooks (BeforeAll/AfterAll) that did not pass become
	// testcases of their own, named after the hook's source location.
	for _, trhf := range q.AllTestRunHookFinished() {
		st := trhf.Result.Status
		if st == messages.TestStepResultStatusPassed || st == messages.TestStepResultStatusSkipped {
			continue
		}
		name := "(unknown)"
		if h := q.HookOfRun(trhf); h != nil {
			name = h.SourceReference.GetURI()
			if name == "" {
				name = "(unknown)"
			}
			if loc := h.SourceReference.Location; loc != nil {
				name += ":" + fmt.Sprint(loc.Line)
			}
		}
		d, _ := q.TestRunHookDuration(trhf)
		tc := suite.ele("testcase").attr("name", name).attr("time", jsNumber(durationSeconds(d)))
		junitFailure(tc, &trhf.Result)
	}

	type row struct {
		tcs    *messages.TestCaseStarted
		pickle *messages.Pickle
	}
	rows := make([]row, 0, len(started))
	for _, tcs := range started {
		rows = append(rows, row{tcs, q.PickleOf(tcs)})
	}
	coll := collate.New(language.Und)
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i].pickle, rows[j].pickle
		switch {
		case a == nil || b == nil:
			return a != nil && b == nil // test cases without a pickle go last
		case a.URI != b.URI:
			return coll.CompareString(a.URI, b.URI) < 0
		case a.Location == nil || b.Location == nil:
			return a.Location == nil && b.Location != nil
		}
		return a.Location.Line < b.Location.Line
	})

	seen := map[[2]string]bool{}
	for _, r := range rows {
		classname, name := junitNames(q, r.pickle, testClassName)
		if key := [2]string{classname, name}; seen[key] && r.pickle != nil {
			name = fmt.Sprintf("%s (%s:%d)", name, r.pickle.URI, q.ScenarioLine(r.pickle))
		}
		seen[[2]string{classname, name}] = true
		t := 0.0
		if d, ok := q.TestCaseDuration(r.tcs); ok {
			t = durationSeconds(d)
		}
		tc := suite.ele("testcase").attr("classname", classname).attr("name", name).attr("time", jsNumber(t))
		junitFailure(tc, junitResult(q, r.tcs))
		if out := junitSystemOut(q, r.tcs); out != "" {
			tc.ele("system-out").cdata(out)
		}
	}
	return suite
}

// interruptedNote explains the <skipped> of a test case an interrupted run
// never finished.
const interruptedNote = "The run was interrupted before this test case finished."

// junitResult is the result a test case is reported with: its most severe
// step result, or for an unfinished attempt without a failure a skip
// carrying interruptedNote.
func junitResult(q *query.Query, tcs *messages.TestCaseStarted) *messages.TestStepResult {
	r := q.MostSevereResult(tcs.ID)
	if q.TestCaseFinished(tcs.ID) == nil && (r == nil || r.Status == messages.TestStepResultStatusPassed) {
		return &messages.TestStepResult{Status: messages.TestStepResultStatusSkipped, Message: messages.Ptr(interruptedNote)}
	}
	return r
}

// junitNames returns the classname (the feature name, else the pickle's
// uri) and the name (the default naming strategy of junit-xml-formatter:
// rule, scenario, examples name and example number, joined with " - ").
func junitNames(q *query.Query, p *messages.Pickle, testClassName *string) (string, string) {
	if p == nil {
		return "(unknown)", "(unknown)"
	}
	l := q.Lineage(p)
	classname := p.URI
	if l != nil && l.Feature != nil {
		classname = l.Feature.Name
	}
	if testClassName != nil {
		classname = *testClassName
	}
	if l == nil {
		return classname, p.Name
	}
	return classname, JUnitTestName(l, p)
}

// JUnitTestName names a test case as @cucumber/junit-xml-formatter does by
// default: "Rule - Scenario - Examples - #e.r" where each part is present,
// and for an outline whose pickle name differs from the scenario name (a
// parameterised name) "#e.r: <pickle name>".
func JUnitTestName(l *query.Lineage, p *messages.Pickle) string {
	var parts []string
	if l.Rule != nil && l.Rule.Name != "" {
		parts = append(parts, l.Rule.Name)
	}
	if l.Scenario != nil && l.Scenario.Name != "" {
		parts = append(parts, l.Scenario.Name)
	} else {
		parts = append(parts, p.Name)
	}
	if l.Examples != nil && l.Examples.Name != "" {
		parts = append(parts, l.Examples.Name)
	}
	if l.Example != nil {
		num := fmt.Sprintf("#%d.%d", l.ExamplesIndex+1, l.ExampleIndex+1)
		scenarioName := ""
		if l.Scenario != nil {
			scenarioName = l.Scenario.Name
		}
		if scenarioName != p.Name {
			num += ": " + p.Name
		}
		parts = append(parts, num)
	}
	var kept []string
	for _, s := range parts {
		if s != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, " - ")
}

// junitFailure adds <failure> or <skipped> for a non-passing result.
func junitFailure(tc *xmlElement, r *messages.TestStepResult) {
	if r == nil || r.Status == messages.TestStepResultStatusPassed {
		return
	}
	kind := "failure"
	if r.Status == messages.TestStepResultStatusSkipped {
		kind = "skipped"
	}
	el := tc.ele(kind)
	var stack string
	if ex := r.Exception; ex != nil {
		if kind == "failure" && ex.Type != "" {
			el.attr("type", ex.Type)
		}
		if kind == "failure" && ex.GetMessage() != "" {
			el.attr("message", ex.GetMessage())
		}
		if ex.StackTrace != nil {
			stack = *ex.StackTrace
		} else {
			stack = r.GetMessage()
		}
	} else {
		stack = r.GetMessage()
	}
	if stack != "" {
		el.cdata(stack)
	}
}

// junitSystemOut lists the pickle steps of an attempt with their status,
// one per line, padded with dots to 76 characters.
func junitSystemOut(q *query.Query, tcs *messages.TestCaseStarted) string {
	var lines []string
	for _, sr := range q.StepResults(tcs.ID) {
		if sr.Step == nil || sr.Step.PickleStepID == nil {
			continue
		}
		ps := q.PickleStep(*sr.Step.PickleStepID)
		gs := q.StepOf(ps)
		if ps == nil || gs == nil {
			continue
		}
		text := jsTrim(gs.Keyword) + " " + jsTrim(ps.Text) + "."
		n := jsLen(text)
		for {
			text += "."
			n++
			if n >= 76 {
				break
			}
		}
		lines = append(lines, text+strings.ToLower(string(sr.Finished.TestStepResult.Status)))
	}
	return strings.Join(lines, "\n")
}

// durationSeconds converts a duration to seconds as the official formatter
// does (milliseconds / 1000 in floating point).
func durationSeconds(d messages.Duration) float64 {
	return query.DurationMillis(d) / 1000
}

// isoTimestamp formats a timestamp as luxon's toISO({suppressMilliseconds:
// true}) in UTC: milliseconds truncated, and left out when zero.
func isoTimestamp(ts messages.Timestamp) string {
	ms := int64(query.TimestampMillis(ts)) // truncates toward zero, as Date does
	t := time.UnixMilli(ms).UTC()
	if t.Nanosecond() == 0 {
		return t.Format("2006-01-02T15:04:05Z")
	}
	return t.Format("2006-01-02T15:04:05.000Z")
}
