package formatters

import (
	"fmt"
	"io"
	"strings"

	"github.com/ferridriver/ferridriver/formatters/query"
	"github.com/ferridriver/ferridriver/messages"
)

func init() { Register("snippets", newSnippets) }

// snippetsFormatter prints only the code suggested for undefined steps
// (the runner's suggestion messages, TypeScript by default; the
// snippetInterface and snippetSyntax format options shape them there),
// each snippet once, separated by a blank line: cucumber-js's `snippets`.
type snippetsFormatter struct {
	out  io.Writer
	q    *query.Query
	done bool
}

func newSnippets(o Options) (Formatter, error) {
	return &snippetsFormatter{out: o.Out, q: query.New()}, nil
}

func (s *snippetsFormatter) Handle(e *messages.Envelope) error {
	if s.done {
		return nil
	}
	s.q.Update(e)
	if e.TestRunFinished != nil {
		return s.write()
	}
	return nil
}

func (s *snippetsFormatter) Close() error {
	if s.done {
		return nil
	}
	return s.write()
}

func (s *snippetsFormatter) write() error {
	s.done = true
	codes := suggestedSnippets(s.q)
	// Joined as cucumber-js joins them: no newline after the last one.
	out := strings.Join(codes, "\n\n")
	if _, err := io.WriteString(s.out, out); err != nil {
		return fmt.Errorf("write snippets: %w", err)
	}
	return nil
}
