package runner

import (
	"fmt"
	"strings"

	cukexp "github.com/cucumber/cucumber-expressions/go/v18"

	"github.com/ferridriver/ferridriver/messages"
)

// Snippet interfaces, as cucumber-js's snippetInterface format option.
const (
	SnippetSynchronous = "synchronous"
	SnippetAsyncAwait  = "async-await"
	SnippetCallback    = "callback"
	SnippetPromise     = "promise"
)

// maxSnippetText is the longest step text whose snippets have parameters.
// cucumber-expressions' generator takes time that grows faster than the
// square of the text's length and of the parameters it finds (measured:
// 0.5 s for 100 quoted strings, 22 s for 400, minutes for a few thousand
// characters), and a run computes a snippet for every undefined step, so a
// longer text gets one snippet: its text as a Cucumber Expression, without
// parameters.
const maxSnippetText = 256

// snippetExpr is one expression a snippet is written for.
type snippetExpr struct {
	source string
	params []string // "name: type"
}

// snippetExprs are the expressions proposed for a step's text.
func (m *matcher) snippetExprs(text string) []snippetExpr {
	if len(text) > maxSnippetText {
		return []snippetExpr{{source: escapeCucumberExpression(text)}}
	}
	gen := cukexp.NewCucumberExpressionGenerator(m.params)
	var out []snippetExpr
	for _, e := range gen.GenerateExpressions(text) {
		var params []string
		names := e.ParameterNames()
		for i, pt := range e.ParameterTypes() {
			params = append(params, names[i]+": "+tsType(pt.Name()))
		}
		out = append(out, snippetExpr{source: e.Source(), params: params})
	}
	return out
}

// escapeCucumberExpression writes text as a Cucumber Expression that
// matches it literally.
func escapeCucumberExpression(text string) string {
	return cucumberExpressionSpecial.Replace(text)
}

var cucumberExpressionSpecial = strings.NewReplacer(`\`, `\\`, `(`, `\(`, `{`, `\{`, `/`, `\/`)

// snippets returns TypeScript step definitions a user can paste for an
// undefined step: one per expression the generator proposes.
func (m *matcher) snippets(step *messages.PickleStep, iface string) []*messages.Snippet {
	exprs := m.snippetExprs(step.Text)
	keyword := "Given"
	switch step.GetType() {
	case messages.PickleStepTypeAction:
		keyword = "When"
	case messages.PickleStepTypeOutcome:
		keyword = "Then"
	}
	out := make([]*messages.Snippet, 0, len(exprs))
	for _, e := range exprs {
		params := e.params
		if arg := step.Argument; arg != nil {
			switch {
			case arg.DocString != nil:
				params = append(params, "docString: string")
			case arg.DataTable != nil:
				params = append(params, "dataTable: DataTable")
			}
		}
		out = append(out, &messages.Snippet{Language: "typescript", Code: snippetCode(keyword, e.source, params, iface)})
	}
	return out
}

func snippetCode(keyword, expr string, params []string, iface string) string {
	fn, ret := "function", "  return 'pending';\n"
	switch iface {
	case SnippetAsyncAwait:
		fn = "async function"
	case SnippetCallback:
		params = append(params, "callback: (error?: Error | null, result?: 'pending') => void")
		ret = "  callback(null, 'pending');\n"
	case SnippetPromise:
		ret = "  return Promise.resolve('pending');\n"
	}
	return fmt.Sprintf("%s('%s', %s (%s) {\n  // Write code here that turns the phrase above into concrete actions\n%s});",
		keyword, jsSingleQuoted(expr), fn, strings.Join(params, ", "), ret)
}

func tsType(param string) string {
	switch param {
	case "int", "float", "double", "byte", "short", "long":
		return "number"
	case "biginteger":
		return "bigint"
	case "string", "word", "", "bigdecimal":
		return "string"
	}
	return "any"
}

func jsSingleQuoted(s string) string {
	return strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s)
}
