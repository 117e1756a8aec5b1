package formatters

// Building blocks of the terminal formats (pretty, progress, progress-bar,
// summary). They follow @cucumber/pretty-formatter, which cucumber-js uses
// for these formats, so that a cucumber-js user sees the same lines.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

const (
	gherkinIndent    = 2
	stepArgIndent    = 2
	attachmentIndent = 4
	errorIndent      = 4
)

// term carries the theme and colour switch shared by the helpers.
type term struct {
	theme *Theme
	st    styler
}

func (t term) status(s messages.TestStepResultStatus) Style { return t.theme.Status.All[s] }

func indent(s string, by int) string {
	if by < 0 {
		by = 0
	}
	pad := strings.Repeat(" ", by)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "\n")
}

// indentNumbered numbers the first line ("  1) ...") and aligns the others
// under it; empty lines stay empty.
func indentNumbered(s string, by, number int) string {
	base := strings.Repeat(" ", by)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		switch {
		case l == "":
		case i == 0:
			lines[i] = base + strconv.Itoa(number) + ") " + l
		default:
			lines[i] = base + "   " + l
		}
	}
	return strings.Join(lines, "\n")
}

// joinTruthy joins the non-empty parts with a space.
func joinTruthy(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " ")
}

func (t term) featureTitle(f *messages.Feature) string {
	th := t.theme.Feature
	return t.st.apply(th.All, t.st.apply(th.Keyword, f.Keyword+":")+" "+t.st.apply(th.Name, f.Name))
}

func (t term) ruleTitle(r *messages.Rule) string {
	th := t.theme.Rule
	return t.st.apply(th.All, t.st.apply(th.Keyword, r.Keyword+":")+" "+t.st.apply(th.Name, r.Name))
}

func (t term) pickleTitle(p *messages.Pickle, s *messages.Scenario) string {
	th := t.theme.Scenario
	return t.st.apply(th.All, t.st.apply(th.Keyword, s.Keyword+":")+" "+t.st.apply(th.Name, p.Name))
}

func (t term) tags(tags []*messages.PickleTag) string {
	names := make([]string, len(tags))
	for i, tag := range tags {
		names[i] = tag.Name
	}
	return t.st.apply(t.theme.Tag, strings.Join(names, " "))
}

func (t term) pickleLocation(p *messages.Pickle, loc *messages.Location) string {
	s := "# " + p.URI
	if loc != nil {
		s += ":" + strconv.FormatInt(loc.Line, 10)
	}
	return t.st.apply(t.theme.Location, s)
}

func (t term) sourceReference(sr messages.SourceReference) string {
	s := "# " + sr.GetURI()
	if sr.URI == nil {
		s = "# (unknown)"
	}
	if sr.Location != nil {
		s += ":" + strconv.FormatInt(sr.Location.Line, 10)
	}
	return t.st.apply(t.theme.Location, s)
}

// stepTitle renders "<icon> <Keyword><text>" with the matched arguments
// highlighted.
func (t term) stepTitle(ts *messages.TestStep, ps *messages.PickleStep, gs *messages.Step, status messages.TestStepResultStatus, useIcon bool) string {
	var b strings.Builder
	if useIcon {
		icon := t.theme.Status.Icon[status]
		if icon == "" {
			icon = " "
		}
		b.WriteString(t.st.apply(t.status(status), icon) + " ")
	}
	inner := t.st.apply(t.theme.Step.Keyword, gs.Keyword) + t.stepText(ts, ps)
	b.WriteString(t.st.apply(t.status(status), inner))
	return b.String()
}

func (t term) stepText(ts *messages.TestStep, ps *messages.PickleStep) string {
	if ts == nil || len(ts.StepMatchArgumentsLists) != 1 || ts.StepMatchArgumentsLists[0] == nil {
		return t.st.apply(t.theme.Step.Text, ps.Text)
	}
	var b strings.Builder
	cur := 0
	for _, arg := range ts.StepMatchArgumentsLists[0].StepMatchArguments {
		if arg == nil || arg.Group.Value == nil || arg.Group.Start == nil {
			continue
		}
		start := int(*arg.Group.Start)
		b.WriteString(t.st.apply(t.theme.Step.Text, jsSlice(ps.Text, cur, start)))
		b.WriteString(t.st.apply(t.theme.Step.Argument, *arg.Group.Value))
		cur = start + jsLen(*arg.Group.Value)
	}
	if cur != jsLen(ps.Text) {
		b.WriteString(t.st.apply(t.theme.Step.Text, jsSlice(ps.Text, cur, -1)))
	}
	return b.String()
}

var hookLabels = map[messages.HookType]string{
	messages.HookTypeBeforeTestRun:  "BeforeAll",
	messages.HookTypeAfterTestRun:   "AfterAll",
	messages.HookTypeBeforeTestCase: "Before",
	messages.HookTypeAfterTestCase:  "After",
	messages.HookTypeBeforeTestStep: "BeforeStep",
	messages.HookTypeAfterTestStep:  "AfterStep",
}

func (t term) hookTitle(h *messages.Hook, status messages.TestStepResultStatus) string {
	label := "Hook"
	if h != nil && h.Type != nil {
		label = hookLabels[*h.Type]
	}
	s := t.st.apply(t.theme.Step.Keyword, label)
	if h != nil && h.GetName() != "" {
		s += t.st.apply(t.theme.Step.Text, " ("+h.GetName()+")")
	}
	return t.st.apply(t.status(status), s)
}

func (t term) stepArgument(a *messages.PickleStepArgument) string {
	switch {
	case a.DocString != nil && a.DataTable != nil:
		return t.docString(a.DocString) + "\n" + t.dataTable(a.DataTable)
	case a.DocString != nil:
		return t.docString(a.DocString)
	case a.DataTable != nil:
		return t.dataTable(a.DataTable)
	}
	return ""
}

func (t term) docString(d *messages.PickleDocString) string {
	th := t.theme.DocString
	var b strings.Builder
	b.WriteString(t.st.apply(th.Delimiter, `"""`))
	if d.GetMediaType() != "" {
		b.WriteString(t.st.apply(th.MediaType, d.GetMediaType()))
	}
	b.WriteString("\n")
	for _, l := range strings.Split(d.Content, "\n") {
		b.WriteString(t.st.apply(th.Content, l) + "\n")
	}
	b.WriteString(t.st.apply(th.Delimiter, `"""`))
	return t.st.applyEachLine(th.All, b.String())
}

func (t term) dataTable(d *messages.PickleTable) string {
	var widths []int
	for _, r := range d.Rows {
		for i, c := range r.Cells {
			w := jsLen(c.Value)
			if i >= len(widths) {
				widths = append(widths, w)
			} else if w > widths[i] {
				widths[i] = w
			}
		}
	}
	th := t.theme.DataTable
	var b strings.Builder
	for ri, r := range d.Rows {
		if ri > 0 {
			b.WriteString("\n")
		}
		b.WriteString(t.st.apply(th.Border, "|"))
		for ci, c := range r.Cells {
			b.WriteString(t.st.apply(th.Content, " "+jsPadEnd(c.Value, widths[ci])+" "))
			b.WriteString(t.st.apply(th.Border, "|"))
		}
	}
	return t.st.applyEachLine(th.All, b.String())
}

func (t term) ambiguousStep(defs []*messages.StepDefinition) string {
	var b strings.Builder
	b.WriteString("Multiple matching step definitions found:")
	bullet := t.theme.Symbol.Bullet
	if bullet == "" {
		bullet = " "
	}
	for _, sd := range defs {
		b.WriteString("\n  " + bullet + " ")
		b.WriteString(sd.Pattern.Source)
		if loc := t.sourceReference(sd.SourceReference); loc != "" {
			b.WriteString(" " + loc)
		}
	}
	return b.String()
}

// errorText trims the message and styles each line in the status colour.
func (t term) errorText(msg string, status messages.TestStepResultStatus) string {
	return t.st.applyEachLine(t.status(status), jsTrim(msg))
}

func (t term) attachment(a *messages.Attachment) string {
	switch a.ContentEncoding {
	case messages.AttachmentContentEncodingBase64:
		bytes := jsNumber(float64(len(a.Body)) / 4 * 3)
		s := "Embedding [" + a.MediaType + " " + bytes + " bytes]"
		if a.GetFileName() != "" {
			s = "Embedding " + a.GetFileName() + " [" + a.MediaType + " " + bytes + " bytes]"
		}
		return t.st.apply(t.theme.Attachment, s)
	default:
		return t.st.apply(t.theme.Attachment, a.Body)
	}
}

func (t term) forStatus(status messages.TestStepResultStatus, text string) string {
	return t.st.apply(t.status(status), text)
}

func (t term) statusChar(status messages.TestStepResultStatus) string {
	c := t.theme.Status.Progress[status]
	if c == "" {
		c = " "
	}
	return t.st.apply(t.status(status), c)
}

func statusName(s messages.TestStepResultStatus) string {
	str := strings.ToLower(string(s))
	if str == "" {
		return ""
	}
	return strings.ToUpper(str[:1]) + str[1:]
}

// counts renders "3 scenarios (1 failed, 2 passed)" in severity order.
func (t term) counts(singular, plural string, counts map[messages.TestStepResultStatus]int) string {
	total := 0
	for _, n := range counts {
		total += n
	}
	noun := plural
	if total == 1 {
		noun = singular
	}
	s := fmt.Sprintf("%d %s", total, noun)
	if total > 0 {
		var parts []string
		for _, st := range query.Statuses {
			if n := counts[st]; n > 0 {
				parts = append(parts, t.st.apply(t.status(st), fmt.Sprintf("%d %s", n, strings.ToLower(string(st)))))
			}
		}
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// reportableMessage is the text shown for a step result: the stack trace
// of a failure, the message of a pending or skipped step, nothing otherwise.
func reportableMessage(r *messages.TestStepResult) string {
	switch r.Status {
	case messages.TestStepResultStatusFailed:
		if ex := r.Exception; ex != nil {
			if ex.GetStackTrace() != "" {
				return ex.GetStackTrace()
			}
			if ex.GetMessage() != "" {
				return ex.GetMessage()
			}
		}
		return r.GetMessage()
	case messages.TestStepResultStatusPending, messages.TestStepResultStatusSkipped:
		if ex := r.Exception; ex != nil && ex.GetMessage() != "" {
			return ex.GetMessage()
		}
		return r.GetMessage()
	}
	return ""
}

func nonReportable(s messages.TestStepResultStatus) bool {
	return s == messages.TestStepResultStatusPassed || s == messages.TestStepResultStatusSkipped
}
