package formatters

import (
	"bufio"
	"fmt"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("progress", newProgress) }

// progressFormatter prints one character per finished step and test run
// hook (. passed, F failed, A ambiguous, P pending, - skipped, U undefined,
// ? unknown), then the summary: cucumber-js's `progress`. Each character is
// flushed as it is printed.
type progressFormatter struct {
	w    *bufio.Writer
	q    *query.Query
	t    term
	opts terminalOptions
	seed string
	done bool
}

func newProgress(o Options) (Formatter, error) {
	topts, err := resolveTerminalOptions(o)
	if err != nil {
		return nil, err
	}
	return &progressFormatter{w: bufio.NewWriter(o.Out), q: query.New(), opts: topts, seed: o.Seed,
		t: term{theme: topts.theme, st: topts.style}}, nil
}

func (p *progressFormatter) Handle(e *messages.Envelope) error {
	if p.done {
		return nil
	}
	p.q.Update(e)
	switch {
	case e.TestStepFinished != nil:
		p.w.WriteString(p.t.statusChar(e.TestStepFinished.TestStepResult.Status))
	case e.TestRunHookFinished != nil:
		p.w.WriteString(p.t.statusChar(e.TestRunHookFinished.Result.Status))
	case e.TestRunFinished != nil:
		p.finish()
	default:
		return nil
	}
	return p.flush()
}

func (p *progressFormatter) finish() {
	p.done = true
	p.w.WriteString("\n")
	p.w.WriteString(summary(p.q, p.t, p.opts.includeAttachments, p.seed))
}

func (p *progressFormatter) flush() error {
	if err := p.w.Flush(); err != nil {
		return fmt.Errorf("write progress output: %w", err)
	}
	return nil
}

func (p *progressFormatter) Close() error {
	if !p.done {
		p.finish()
	}
	return p.flush()
}
