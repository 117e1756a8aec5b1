package formatters

import (
	"strings"

	"github.com/ferridriver/ferridriver/formatters/query"
)

func init() { Register("snippets", newSnippets) }

// newSnippets prints only the code suggested for undefined steps
// (the runner's suggestion messages, TypeScript by default; the
// snippetInterface and snippetSyntax format options shape them there),
// each snippet once, separated by a blank line: cucumber-js's `snippets`.
func newSnippets(o Options) (Formatter, error) {
	return newAtEnd(o.Out, "snippets", func(q *query.Query) ([]byte, error) {
		// Joined as cucumber-js joins them: no newline after the last one.
		return []byte(strings.Join(suggestedSnippets(q), "\n\n")), nil
	}), nil
}
