// Package pwerror words the failures of browser actions for users, the
// same way in bdd steps and in MCP tool results: Playwright's message (the
// call and what went wrong), the action and its target as the user wrote
// them, and the few last lines of Playwright's call log that say why (what
// was waited for, what it resolved to, "element is not visible",
// "retrying click action").
//
// Playwright's full call log repeats itself (a click retried for five
// seconds logs dozens of lines); Format keeps what a reader needs to act.
// It is idempotent: a message it formatted can be formatted again, with
// a target added.
package pwerror

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Failure is a failed browser action.
type Failure struct {
	// Message is the error's message as Playwright words it
	// ("locator.click: Timeout 5000ms exceeded."), with the "Call log:"
	// Playwright appends, when there is one.
	Message string
	// Action is what the user asked for ("click", "wait for the text
	// \"Saved\""); "" when Playwright's message says enough.
	Action string
	// Target is what the action was on, as the user wrote it: a step's
	// target (`the first "#todo-list li button.destroy"`, a page-object
	// name), a tool's element and ref (`button "Save" [ref=e12]`); "" when
	// none.
	Target string
}

// MaxLogLines is how many call-log lines Format keeps: the first (what was
// waited for) and the last ones that say why.
const MaxLogLines = 5

// logHeading starts the call log in Playwright's messages; trimmedHeading
// starts it in Format's.
const (
	logHeading     = "Call log:"
	trimmedHeading = "Call log (last lines):"
)

// Format words a failure: Playwright's message without its call log, an
// "Action:" line and a "Target:" line when known, then the call log
// trimmed to MaxLogLines:
//
//	locator.click: Timeout 4749ms exceeded.
//	Target: the first "#todo-list li button.destroy"
//	Call log (last lines):
//	  - waiting for locator('#todo-list li button.destroy').first()
//	  - locator resolved to <button class="destroy"></button>
//	  - 12 × element is not visible
//	  - retrying click action
func Format(f Failure) string {
	head, log := Split(f.Message)
	var b strings.Builder
	b.WriteString(head)
	labelled := func(label, v string) {
		if v != "" && !strings.Contains(head, "\n"+label+" ") {
			b.WriteString("\n" + label + " " + v)
		}
	}
	labelled("Action:", f.Action)
	labelled("Target:", f.Target)
	if lines := Reason(log); len(lines) > 0 {
		b.WriteString("\n" + trimmedHeading)
		for _, l := range lines {
			b.WriteString("\n  - " + l)
		}
	}
	return b.String()
}

// Message is Format of a message and a target: how a step's error names
// what the step acted on.
func Message(message, target string) string {
	return Format(Failure{Message: message, Target: target})
}

// Error is Format of err's message (see Failure); "" for nil.
func Error(err error, action, target string) string {
	if err == nil {
		return ""
	}
	return Format(Failure{Message: err.Error(), Action: action, Target: target})
}

// Split separates a message from its call log (Playwright's "Call log:"
// lines, or the ones Format kept), each line as written, the heading left
// out. A message without one is returned whole, with no lines.
func Split(msg string) (head string, log []string) {
	i, n := strings.Index(msg, "\n"+logHeading+"\n"), len(logHeading)
	if j := strings.Index(msg, "\n"+trimmedHeading+"\n"); j >= 0 && (i < 0 || j < i) {
		i, n = j, len(trimmedHeading)
	}
	if i < 0 {
		return strings.TrimRight(msg, "\n"), nil
	}
	head = strings.TrimRight(msg[:i], "\n")
	for _, l := range strings.Split(msg[i+1+n:], "\n") {
		if strings.TrimSpace(l) != "" {
			log = append(log, l)
		}
	}
	return head, log
}

// count is "N × " before a line of Playwright's compressed call log.
var count = regexp.MustCompile(`^(\d+) × `)

// noise are call-log lines that say nothing a line kept does not: the
// steps of every retry, and the waits between them.
var noise = []*regexp.Regexp{
	regexp.MustCompile(`^waiting \d+ms$`),
	regexp.MustCompile(`^attempting \S+ action$`),
	regexp.MustCompile(`^waiting for element to be (visible|enabled|stable|editable)[a-z ,]*$`),
	regexp.MustCompile(`^scrolling into view if needed$`),
	regexp.MustCompile(`^done scrolling$`),
}

// entry is a call-log line, its repetitions merged.
type entry struct {
	text string
	n    int
	last int // position of its last occurrence
}

// Reason returns the lines of a call log that say why a call failed, at
// most MaxLogLines, without their "- " bullet: the first line that says
// what was waited for, then the last distinct lines but noise, each once,
// prefixed "N × " when it came N times (as Playwright counts repeats).
func Reason(log []string) []string {
	var entries []*entry
	byText := map[string]*entry{}
	first := ""
	// Playwright writes a block of lines repeated N times once, its first
	// line prefixed "N × " and the others indented deeper: blockN applies
	// to the lines deeper than blockAt.
	blockN, blockAt := 1, -1
	for pos, raw := range log {
		at := len(raw) - len(strings.TrimLeft(raw, " "))
		if at <= blockAt {
			blockN, blockAt = 1, -1
		}
		text := strings.TrimSpace(raw)
		text = strings.TrimSpace(strings.TrimPrefix(text, "- "))
		n := blockN
		if m := count.FindStringSubmatch(text); m != nil {
			n, _ = strconv.Atoi(m[1])
			text = text[len(m[0]):]
			blockN, blockAt = n, at
		}
		if text == "" {
			continue
		}
		if first == "" && strings.HasPrefix(text, "waiting for ") && !isNoise(text) {
			first = text
			continue
		}
		if text == first || isNoise(text) {
			continue
		}
		e := byText[text]
		if e == nil {
			e = &entry{text: text}
			byText[text] = e
			entries = append(entries, e)
		}
		e.n += n
		e.last = pos
	}
	// In the order they last came, the lines kept being the last ones.
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].last < entries[j].last })
	keep := MaxLogLines
	if first != "" {
		keep--
	}
	if len(entries) > keep {
		entries = entries[len(entries)-keep:]
	}
	var out []string
	if first != "" {
		out = append(out, first)
	}
	for _, e := range entries {
		if e.n > 1 {
			out = append(out, fmt.Sprintf("%d × %s", e.n, e.text))
		} else {
			out = append(out, e.text)
		}
	}
	return out
}

func isNoise(text string) bool {
	for _, re := range noise {
		if re.MatchString(text) {
			return true
		}
	}
	return false
}
