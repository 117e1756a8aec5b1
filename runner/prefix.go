package runner

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// A step text can only match the definitions whose pattern's literal
// beginning it starts with: "I send a {method} request" never matches "the
// basket has 3 fruits". The matcher indexes every definition by that
// literal prefix, so that a text is tried against a handful of definitions
// instead of all of them (the built-in library has hundreds), and a
// definition's expression is only compiled once a text could match it.

// cucumberPrefix is the literal text every match of a Cucumber Expression
// starts with: what comes before its first parameter, optional text or
// escape, and before the word of its first alternation.
func cucumberPrefix(expr string) string {
	p := expr
	if i := strings.IndexAny(p, `{(\`); i >= 0 {
		p = p[:i]
	}
	if i := strings.IndexByte(p, '/'); i >= 0 {
		// An alternation (a/b) spans its whole word.
		p = p[:strings.LastIndexAny(p[:i], " \t\n")+1]
	}
	return p
}

// regexpPrefix is the literal text every match of a JavaScript regular
// expression starts with, when it is anchored at the start of the text
// ("" when unsure: case-insensitive or multi-line flags, alternations).
func regexpPrefix(source, flags string) string {
	if !strings.HasPrefix(source, "^") || strings.ContainsAny(flags, "im") || strings.ContainsRune(source, '|') {
		return ""
	}
	s := source[1:]
	end := strings.IndexAny(s, `\^$.|?*+()[]{}`)
	if end < 0 {
		return s
	}
	p := s[:end]
	if strings.ContainsRune("?*+{", rune(s[end])) {
		// The last character is quantified: it may be absent.
		_, size := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-size]
	}
	return p
}

// prefixIndex finds the definitions whose prefix a text starts with: a
// byte trie of the prefixes.
type prefixIndex struct {
	defs     []int // definitions whose prefix ends here
	children map[byte]*prefixIndex
}

func (t *prefixIndex) add(prefix string, def int) {
	n := t
	for i := 0; i < len(prefix); i++ {
		c, ok := n.children[prefix[i]]
		if !ok {
			if n.children == nil {
				n.children = map[byte]*prefixIndex{}
			}
			c = &prefixIndex{}
			n.children[prefix[i]] = c
		}
		n = c
	}
	n.defs = append(n.defs, def)
}

// candidates returns the definitions whose prefix text starts with, in
// definition order.
func (t *prefixIndex) candidates(text string) []int {
	var out []int
	n := t
	for i := 0; n != nil; i++ {
		out = append(out, n.defs...)
		if i == len(text) {
			break
		}
		n = n.children[text[i]]
	}
	slices.Sort(out)
	return out
}
