package formatters

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	xterm "golang.org/x/term"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("progress-bar", newProgressBar) }

const (
	maxBarWidth    = 50
	minLegendWidth = 30
)

// progressBarFormatter shows, on a terminal, two bars (scenarios and steps
// done out of planned) with the number of running scenarios and an
// estimated time left, redrawn in place, and prints each problem (failed
// scenario, failed test run hook, undefined parameter type) above the bars
// as soon as it happens; at the end, the counts and snippets. This is
// cucumber-js's `progress-bar` (the ProgressBarPrinter of
// @cucumber/pretty-formatter) plus the ETA.
//
// When the output is not a terminal (a CI log, a file) nothing is redrawn:
// problems are printed as they happen and a plain progress line each time
// another tenth of the scenarios is done.
type progressBarFormatter struct {
	out     io.Writer
	q       *query.Query
	t       term
	opts    terminalOptions
	seed    string
	tty     bool
	columns int

	printed, pending []problem
	phase            int // 0 preparing, 1 running, 2 done
	finishedScen     int
	finishedSteps    int
	running          int
	totalScen        int
	totalSteps       int
	drawn            bool
	lastTenth        int
	err              error
}

type problem struct{ prefix, details string }

func newProgressBar(o Options) (Formatter, error) {
	topts, err := resolveTerminalOptions(o)
	if err != nil {
		return nil, err
	}
	p := &progressBarFormatter{out: o.Out, q: query.New(), opts: topts, seed: o.Seed, tty: o.TTY,
		t: term{theme: topts.theme, st: topts.style}, columns: 80, lastTenth: -1}
	if f, ok := o.Out.(*os.File); ok && o.TTY {
		if w, _, err := xterm.GetSize(int(f.Fd())); err == nil && w > 0 {
			p.columns = w
		}
	} else if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
		p.columns = c
	}
	return p, nil
}

func (p *progressBarFormatter) Handle(e *messages.Envelope) error {
	p.q.Update(e)
	if p.phase == 2 {
		return p.err
	}
	switch {
	case e.UndefinedParameterType != nil:
		p.pending = append(p.pending, problem{"Undefined parameter type", undefinedParameterType(e.UndefinedParameterType)})
	case e.TestRunStarted != nil:
		p.render()
	case e.TestCase != nil:
		p.totalScen++
		p.totalSteps += len(e.TestCase.TestSteps)
		p.render()
	case e.TestRunHookFinished != nil:
		if !nonReportable(e.TestRunHookFinished.Result.Status) {
			p.pending = append(p.pending, problem{"Global hook", globalHookSummary(p.q, p.t, e.TestRunHookFinished)})
			p.render()
		}
	case e.TestCaseStarted != nil:
		p.running++
		p.phase = 1
		p.render()
	case e.TestStepFinished != nil:
		p.finishedSteps++
		p.render()
	case e.TestCaseFinished != nil:
		p.testCaseFinished(e.TestCaseFinished)
	case e.TestRunFinished != nil:
		p.testRunFinished(e.TestRunFinished)
	}
	return p.err
}

func (p *progressBarFormatter) testCaseFinished(f *messages.TestCaseFinished) {
	p.running--
	p.finishedScen++
	if f.WillBeRetried {
		if tc := p.q.TestCaseOf(p.q.TestCaseStarted(f.TestCaseStartedID)); tc != nil {
			p.finishedScen--
			p.finishedSteps -= len(tc.TestSteps)
		}
	} else if r := p.q.MostSevereResult(f.TestCaseStartedID); r != nil && !nonReportable(r.Status) {
		p.pending = append(p.pending, problem{"Scenario", scenarioSummary(p.q, p.t, f, p.opts.includeAttachments)})
	}
	p.render()
}

func (p *progressBarFormatter) testRunFinished(trf *messages.TestRunFinished) {
	p.phase = 2
	if trf != nil && trf.Exception != nil {
		msg := trf.Exception.GetStackTrace()
		if msg == "" {
			msg = trf.Exception.GetMessage()
		}
		if msg == "" {
			msg = "Unknown error"
		}
		p.pending = append(p.pending, problem{"Test run", "\n" + indent(p.t.errorText(msg, messages.TestStepResultStatusFailed), 4)})
	}
	p.render()
}

func (p *progressBarFormatter) Close() error {
	if p.phase != 2 {
		p.testRunFinished(nil)
	}
	return p.err
}

func (p *progressBarFormatter) render() {
	var b strings.Builder
	if len(p.pending) > 0 {
		if len(p.printed) == 0 {
			b.WriteString("Problems:\n")
		}
		for _, pr := range p.pending {
			text := p.t.st.apply(p.t.theme.Affix, pr.prefix+":") + " " + pr.details
			b.WriteString(indentNumbered(text, 2, len(p.printed)+1) + "\n")
			p.printed = append(p.printed, pr)
		}
		p.pending = nil
	}
	switch {
	case p.phase == 2:
		b.WriteString("\n" + stats(p.q, p.t) + "\n")
		if p.seed != "" {
			b.WriteString("Random order seed: " + p.seed + " (run again in this order with --order random:" + p.seed + ")\n")
		}
		if sn := snippetsBlock(p.q); sn != "" {
			b.WriteString(sn + "\n")
		}
	case p.tty:
		b.WriteString("\n" + p.bar(p.finishedScen, p.totalScen, "scenarios") + "\n" +
			p.bar(p.finishedSteps, p.totalSteps, "steps") + "\n" + p.status() + "\n")
	case p.totalScen > 0:
		// Not a terminal: a plain line per tenth of the scenarios done.
		tenth := p.finishedScen * 10 / p.totalScen
		if p.phase == 1 && tenth > p.lastTenth {
			p.lastTenth = tenth
			fmt.Fprintf(&b, "%d/%d scenarios, %d/%d steps%s\n", p.finishedScen, p.totalScen, p.finishedSteps, p.totalSteps, p.eta())
		}
	}
	if b.Len() == 0 {
		return
	}
	out := b.String()
	if p.tty && p.drawn {
		out = "\x1b[4A\x1b[0J" + out // move up over the last bars and clear them
	}
	p.drawn = p.tty
	if _, err := io.WriteString(p.out, out); err != nil && p.err == nil {
		p.err = fmt.Errorf("write progress bar: %w", err)
	}
}

func (p *progressBarFormatter) bar(done, total int, label string) string {
	width := p.columns - minLegendWidth
	if width > maxBarWidth {
		width = maxBarWidth
	}
	if width < 0 {
		width = 0
	}
	ratio := 0.0
	if total > 0 {
		ratio = float64(done) / float64(total)
	}
	filled := int(math.Floor(ratio*float64(width) + 0.5))
	if filled > width {
		filled = width
	}
	if filled < 0 {
		filled = 0
	}
	return strings.Repeat("█", filled) + strings.Repeat("░", width-filled) + fmt.Sprintf(" %d/%d %s", done, total, label)
}

func (p *progressBarFormatter) status() string {
	switch p.phase {
	case 0:
		return "Getting ready..."
	case 1:
		return fmt.Sprintf("Running %d scenarios...%s", p.running, p.eta())
	}
	return "Done"
}

// eta estimates the time left from the time the finished steps took,
// measured on the stream's own timestamps.
func (p *progressBarFormatter) eta() string {
	start := p.q.TestRunStarted()
	last, ok := p.q.LastTimestamp()
	if start == nil || !ok || p.finishedSteps <= 0 || p.totalSteps <= p.finishedSteps {
		return ""
	}
	elapsed := query.TimestampMillis(last) - query.TimestampMillis(start.Timestamp)
	left := elapsed / float64(p.finishedSteps) * float64(p.totalSteps-p.finishedSteps)
	if left < 0 {
		return ""
	}
	secs := int(left / 1000)
	return fmt.Sprintf(" (ETA %dm %02ds)", secs/60, secs%60)
}
