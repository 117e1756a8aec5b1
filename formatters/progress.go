package formatters

import (
	"bufio"
	"fmt"
	"sync"
	"time"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("progress", newProgress) }

// progressFormatter prints one character per finished step and test run
// hook (. passed, F failed, A ambiguous, P pending, - skipped, U undefined,
// ? unknown), then the summary: cucumber-js's `progress`. A character is
// on the terminal within progressDelay of its step's end: writing each at
// once cost a fast suite a system call per step.
type progressFormatter struct {
	mu    sync.Mutex
	w     *bufio.Writer
	q     *query.Query
	t     term
	opts  terminalOptions
	seed  string
	done  bool
	timer *time.Timer // the pending flush
	err   error       // of a pending flush, returned by the next call
}

// progressDelay is how long a progress character may wait in the buffer.
const progressDelay = 50 * time.Millisecond

func newProgress(o Options) (Formatter, error) {
	topts, err := resolveTerminalOptions(o)
	if err != nil {
		return nil, err
	}
	return &progressFormatter{w: bufio.NewWriter(o.Out), q: query.New(), opts: topts, seed: o.Seed,
		t: term{theme: topts.theme, st: topts.style}}, nil
}

func (p *progressFormatter) Handle(e *messages.Envelope) error {
	p.mu.Lock()
	defer p.mu.Unlock()
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
		return p.flush()
	default:
		return nil
	}
	if p.timer == nil {
		p.timer = time.AfterFunc(progressDelay, func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.timer = nil
			if err := p.flush(); err != nil && p.err == nil {
				p.err = err
			}
		})
	}
	err := p.err
	p.err = nil
	return err
}

func (p *progressFormatter) finish() {
	p.done = true
	p.w.WriteString("\n")
	p.w.WriteString(summary(p.q, p.t, p.opts.includeAttachments, p.seed))
}

// flush writes what is buffered (under mu).
func (p *progressFormatter) flush() error {
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	if err := p.w.Flush(); err != nil {
		return fmt.Errorf("write progress output: %w", err)
	}
	return nil
}

func (p *progressFormatter) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		p.finish()
	}
	if err := p.flush(); err != nil {
		return err
	}
	return p.err
}
