package runner

import (
	"strings"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// LoadBuiltinSteps is LoadLibrary of the built-in step library
// (opts.Library) alone: the project's step files and extensions are not
// read. A nil opts.Library loads nothing.
func LoadBuiltinSteps(opts Options) (*Library, error) {
	return loadStepsWith(opts, func(o Options) (*jsbridge.Bundle, error) { return bundle(o, nil, true) })
}

// MatchText returns the step definitions that match a step's text as
// `ferridriver bdd` matches it: a project definition wins over built-in
// ones; none means the step is undefined, more than one that it is
// ambiguous. A definition whose expression names an unknown parameter
// type matches nothing.
func (l *Library) MatchText(text string) ([]*jsbridge.StepDef, error) {
	m := l.run.matcher
	found, err := m.match(text)
	if err != nil {
		return nil, err
	}
	out := make([]*jsbridge.StepDef, len(found))
	for i, f := range found {
		out[i] = m.defs[f.def]
	}
	return out, nil
}

// Suggest returns the built-in steps closest to a step's text, best first
// (at most three, none when nothing comes close): what an undefined step's
// suggestion proposes. The text may start with its keyword: a Then step
// is a check.
func (l *Library) Suggest(text string) []Suggestion {
	trimmed := strings.TrimSpace(text)
	return l.run.matcher.closestBuiltins(StepText(trimmed), strings.HasPrefix(trimmed, "Then "))
}
