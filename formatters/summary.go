package formatters

import (
	"fmt"
	"strings"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("summary", newSummary) }

// newSummary prints, when the run ends, the non-passing scenarios
// (with feature file:line, the failing step and its error), undefined
// parameter types, failed test run hooks, counts of scenarios and steps by
// status, durations, the random seed of --order random, and the snippets
// suggested for undefined steps (cucumber-js's `summary`, i.e. the
// SummaryPrinter of @cucumber/pretty-formatter).
func newSummary(o Options) (Formatter, error) {
	topts, err := resolveTerminalOptions(o)
	if err != nil {
		return nil, err
	}
	t := term{theme: topts.theme, st: topts.style}
	return newAtEnd(o.Out, "summary", func(q *query.Query) ([]byte, error) {
		return []byte(summary(q, t, topts.includeAttachments, o.Seed)), nil
	}), nil
}

// summary renders the end-of-run summary shared by summary, pretty,
// progress and progress-bar.
func summary(q *query.Query, t term, includeAttachments bool, seed string) string {
	var b strings.Builder
	println := func(s string) { b.WriteString(s + "\n") }

	// Non-passing scenarios, grouped by their most severe status.
	byStatus := map[messages.TestStepResultStatus][]*messages.TestCaseFinished{}
	for _, f := range q.AllTestCaseFinished() {
		if r := q.MostSevereResult(f.TestCaseStartedID); r != nil && !nonReportable(r.Status) {
			byStatus[r.Status] = append(byStatus[r.Status], f)
		}
	}
	for _, st := range query.Statuses {
		if len(byStatus[st]) == 0 {
			continue
		}
		println("")
		println(t.forStatus(st, statusName(st)+" scenarios:"))
		for i, f := range byStatus[st] {
			println(indentNumbered(scenarioSummary(q, t, f, includeAttachments), 2, i+1))
		}
	}

	if upts := q.UndefinedParameterTypes(); len(upts) > 0 {
		println("")
		println(t.forStatus(messages.TestStepResultStatusUndefined, "These parameters are missing a parameter type definition:"))
		for i, u := range upts {
			println(indentNumbered(undefinedParameterType(u), gherkinIndent, i+1))
		}
	}

	var failedHooks []*messages.TestRunHookFinished
	for _, f := range q.AllTestRunHookFinished() {
		if f.Result.Status == messages.TestStepResultStatusFailed {
			failedHooks = append(failedHooks, f)
		}
	}
	if len(failedHooks) > 0 {
		println("")
		println(t.forStatus(messages.TestStepResultStatusFailed, "Failed hooks:"))
		for i, f := range failedHooks {
			println(indentNumbered(globalHookSummary(q, t, f), gherkinIndent, i+1))
		}
	}

	if trf := q.TestRunFinished(); trf != nil && trf.Exception != nil {
		println(t.forStatus(messages.TestStepResultStatusFailed, "Failed test run:"))
		msg := trf.Exception.GetStackTrace()
		if msg == "" {
			msg = trf.Exception.GetMessage()
		}
		if msg != "" {
			b.WriteString(indent(t.errorText(msg, messages.TestStepResultStatusFailed), 7))
		}
	}

	println("")
	println(stats(q, t))
	if seed != "" {
		println("Random order seed: " + seed + " (run again in this order with --order random:" + seed + ")")
	}
	if sn := snippetsBlock(q); sn != "" {
		println(sn)
	}
	return b.String()
}

func undefinedParameterType(u *messages.UndefinedParameterType) string {
	return "'" + u.Name + "' in '" + u.Expression + "'"
}

// scenarioSummary renders one non-passing scenario: its name and location,
// then the first non-passing step and every later step that failed.
func scenarioSummary(q *query.Query, t term, f *messages.TestCaseFinished, includeAttachments bool) string {
	tcs := q.TestCaseStarted(f.TestCaseStartedID)
	if tcs == nil {
		return "(unknown test case)"
	}
	pickle := q.PickleOf(tcs)
	if pickle == nil {
		return "(unknown test case)"
	}
	attempt := ""
	if tcs.Attempt > 0 {
		attempt = fmt.Sprintf(", after %d attempts", tcs.Attempt+1)
	}
	lines := []string{pickle.Name + attempt + " " + t.pickleLocation(pickle, q.LocationOf(pickle))}
	found := false
	for _, sr := range q.StepResults(tcs.ID) {
		st := sr.Finished.TestStepResult.Status
		if found {
			if nonReportable(st) {
				continue
			}
		} else if st == messages.TestStepResultStatusPassed {
			continue
		}
		found = true
		lines = append(lines, stepSummary(q, t, sr, includeAttachments)...)
	}
	return strings.Join(lines, "\n")
}

func stepSummary(q *query.Query, t term, sr query.StepResult, includeAttachments bool) []string {
	var lines []string
	res := &sr.Finished.TestStepResult
	ts := sr.Step
	switch {
	case ts == nil:
	case ts.PickleStepID != nil:
		ps := q.PickleStep(*ts.PickleStepID)
		gs := q.StepOf(ps)
		if ps == nil || gs == nil {
			break
		}
		loc := ""
		if sd := q.UnambiguousStepDefinition(ts); sd != nil {
			loc = t.sourceReference(sd.SourceReference)
		}
		lines = append(lines, indent(joinTruthy(t.stepTitle(ts, ps, gs, res.Status, false), loc), gherkinIndent))
		if ps.Argument != nil {
			lines = append(lines, indent(t.stepArgument(ps.Argument), gherkinIndent+stepArgIndent))
		}
		if res.Status == messages.TestStepResultStatusAmbiguous {
			lines = append(lines, indent(t.ambiguousStep(q.StepDefinitionsOf(ts)), gherkinIndent+errorIndent))
		}
		if res.Status == messages.TestStepResultStatusUndefined {
			if s := t.stepSuggestions(q.Suggestions(ps.ID)); s != "" {
				lines = append(lines, indent(s, gherkinIndent+errorIndent))
			}
		}
	case ts.HookID != nil:
		h := q.HookOf(ts)
		loc := ""
		if h != nil {
			loc = t.sourceReference(h.SourceReference)
		}
		lines = append(lines, indent(joinTruthy(t.hookTitle(h, res.Status), loc), gherkinIndent))
	}
	if msg := reportableMessage(res); msg != "" {
		lines = append(lines, indent(t.errorText(msg, res.Status), gherkinIndent+errorIndent))
	}
	if includeAttachments {
		for _, a := range q.Attachments(sr.Finished.TestCaseStartedID, sr.Finished.TestStepID) {
			lines = append(lines, "", indent(t.attachment(a), gherkinIndent+attachmentIndent))
		}
	}
	return lines
}

// globalHookSummary renders a failed BeforeAll/AfterAll hook.
func globalHookSummary(q *query.Query, t term, f *messages.TestRunHookFinished) string {
	h := q.HookOfRun(f)
	loc := ""
	if h != nil {
		loc = t.sourceReference(h.SourceReference)
	}
	// The official summary prints the hook title unstyled.
	plain := term{theme: &Theme{}, st: t.st}
	lines := []string{joinTruthy(plain.hookTitle(h, f.Result.Status), loc)}
	if f.Result.Status == messages.TestStepResultStatusFailed {
		msg := ""
		if ex := f.Result.Exception; ex != nil {
			msg = ex.GetStackTrace()
			if msg == "" {
				msg = ex.GetMessage()
			}
		}
		if msg == "" {
			msg = f.Result.GetMessage()
		}
		if msg != "" {
			lines = append(lines, indent(t.errorText(msg, f.Result.Status), gherkinIndent))
		}
	}
	return strings.Join(lines, "\n")
}

// stats renders the counts of test runs, hooks, scenarios and steps by
// status and the durations.
func stats(q *query.Query, t term) string {
	var lines []string
	if trf := q.TestRunFinished(); trf != nil && trf.Exception != nil {
		lines = append(lines, "", t.counts("test run", "test runs", map[messages.TestStepResultStatus]int{messages.TestStepResultStatusFailed: 1}))
	}
	if hooks := q.AllTestRunHookFinished(); len(hooks) > 0 {
		c := map[messages.TestStepResultStatus]int{}
		for _, h := range hooks {
			c[h.Result.Status]++
		}
		lines = append(lines, t.counts("hook", "hooks", c))
	}
	scenarios, steps := map[messages.TestStepResultStatus]int{}, map[messages.TestStepResultStatus]int{}
	for _, f := range q.AllTestCaseFinished() {
		st := messages.TestStepResultStatusPassed
		if r := q.MostSevereResult(f.TestCaseStartedID); r != nil {
			st = r.Status
		}
		scenarios[st]++
		for _, sf := range q.TestStepsFinished(f.TestCaseStartedID) {
			steps[sf.TestStepResult.Status]++
		}
	}
	lines = append(lines, t.counts("scenario", "scenarios", scenarios), t.counts("step", "steps", steps))
	if d, ok := q.TestRunDuration(); ok {
		executing := 0.0
		for _, h := range q.AllTestRunHookFinished() {
			executing += query.DurationMillis(h.Result.Duration)
		}
		for _, sf := range q.AllTestStepFinished() {
			executing += query.DurationMillis(sf.TestStepResult.Duration)
		}
		lines = append(lines, luxonDuration(query.DurationMillis(d))+" ("+luxonDuration(executing)+" executing your code)")
	}
	// Not in cucumber-js: the browser's start-up, which steps waited for
	// outside their durations (ferridriver's notes on those steps).
	lines = append(lines, startupLines(q)...)
	// Not in cucumber-js: an interrupted run says what it left unfinished,
	// which the counts above (finished scenarios only) do not show.
	unfinished := 0
	for _, tcs := range q.AllTestCaseStarted() {
		if q.TestCaseFinished(tcs.ID) == nil {
			unfinished++
		}
	}
	if unfinished > 0 {
		noun := "scenarios"
		if unfinished == 1 {
			noun = "scenario"
		}
		lines = append(lines, t.forStatus(messages.TestStepResultStatusSkipped,
			fmt.Sprintf("%d %s not finished: the run was interrupted", unfinished, noun)))
	}
	return strings.Join(lines, "\n")
}

// maxStartupLines bounds the start-up notes the summary repeats (one per
// worker that waited, more after a browser crash).
const maxStartupLines = 3

// startupLines repeats the start-up notes of the run's steps (see
// messages.StartupMediaType), each text once.
func startupLines(q *query.Query) []string {
	var out []string
	seen := map[string]bool{}
	n := 0
	for _, a := range q.AllAttachments() {
		if a.MediaType != messages.StartupMediaType || a.ContentEncoding != messages.AttachmentContentEncodingIdentity || seen[a.Body] {
			continue
		}
		seen[a.Body] = true
		if n++; n <= maxStartupLines {
			out = append(out, a.Body)
		}
	}
	if n > maxStartupLines {
		out = append(out, fmt.Sprintf("(%d more start-up waits: see the steps' notes)", n-maxStartupLines))
	}
	return out
}

// snippetsBlock lists the code suggested for undefined steps, each snippet
// once, or "" when there is none.
func snippetsBlock(q *query.Query) string {
	codes := suggestedSnippets(q)
	if len(codes) == 0 {
		return ""
	}
	lines := []string{"", "You can implement missing steps with the snippets below:", ""}
	for _, c := range codes {
		lines = append(lines, c, "")
	}
	return strings.Join(lines, "\n")
}

// suggestedSnippets returns the distinct code snippets suggested for the
// steps of the finished test cases, in order: the step definitions to
// write, not the built-in steps suggested instead (Gherkin snippets, shown
// under each undefined step).
func suggestedSnippets(q *query.Query) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range q.AllTestCaseFinished() {
		tcs := q.TestCaseStarted(f.TestCaseStartedID)
		for _, sg := range q.SuggestionsOfPickle(q.PickleOf(tcs)) {
			for _, sn := range sg.Snippets {
				if sn != nil && sn.Language != gherkinSnippet && !seen[sn.Code] {
					seen[sn.Code] = true
					out = append(out, sn.Code)
				}
			}
		}
	}
	return out
}

// gherkinSnippet is the language of a suggestion's snippets that are steps
// to write instead (ferridriver suggests its closest built-in steps so).
const gherkinSnippet = "gherkin"

// stepSuggestions renders the Gherkin snippets of an undefined step's
// suggestions: each step to use instead, with its comment lines beside it
// in the location colour. "" when there is none.
func (t term) stepSuggestions(suggestions []*messages.Suggestion) string {
	type row struct{ step, note string }
	var rows []row
	width := 0
	for _, sg := range suggestions {
		for _, sn := range sg.Snippets {
			if sn == nil || sn.Language != gherkinSnippet {
				continue
			}
			var steps, notes []string
			for _, l := range strings.Split(strings.TrimSpace(sn.Code), "\n") {
				if c, ok := strings.CutPrefix(strings.TrimSpace(l), "#"); ok {
					notes = append(notes, strings.TrimPrefix(strings.TrimSpace(c), "Built-in step: "))
				} else {
					steps = append(steps, l)
				}
			}
			r := row{step: strings.Join(steps, "\n"), note: strings.Join(notes, " ")}
			if !strings.Contains(r.step, "\n") {
				width = max(width, displayWidth(r.step))
			}
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return ""
	}
	lines := []string{"Closest built-in steps:"}
	for _, r := range rows {
		line := "  " + r.step
		if r.note != "" {
			line += strings.Repeat(" ", max(0, width-displayWidth(r.step))) + "  " + t.st.apply(t.theme.Location, "# "+r.note)
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
