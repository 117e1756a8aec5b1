package formatters

import (
	"fmt"
	"io"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

// atEnd is a Formatter whose report is rendered once, from the whole run:
// when testRunFinished arrives, or at Close for a stream that ended without
// one (an interrupted run), so that such a run still gets a complete report
// of what ran. The formats that cannot be written incrementally (json,
// junit, rerun, snippets, summary, usage) are an atEnd with their render.
type atEnd struct {
	out    io.Writer
	what   string // the report's name in errors, e.g. "json report"
	render func(*query.Query) ([]byte, error)
	q      *query.Query
	done   bool
}

func newAtEnd(out io.Writer, what string, render func(*query.Query) ([]byte, error)) *atEnd {
	return &atEnd{out: out, what: what, render: render, q: query.New()}
}

func (a *atEnd) Handle(e *messages.Envelope) error {
	if a.done {
		return nil
	}
	a.q.Update(e)
	if e.TestRunFinished != nil {
		return a.write()
	}
	return nil
}

func (a *atEnd) Close() error {
	if a.done {
		return nil
	}
	return a.write()
}

func (a *atEnd) write() error {
	a.done = true
	b, err := a.render(a.q)
	if err != nil {
		return fmt.Errorf("encode %s: %w", a.what, err)
	}
	if _, err := a.out.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", a.what, err)
	}
	return nil
}
