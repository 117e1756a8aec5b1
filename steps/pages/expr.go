package pages

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A locator expression is Playwright's own notation for a locator, as a
// page-object file writes it: getByRole('button', { name: 'Log in' }),
// getByLabel('User').first(), locator('li').filter({ hasText: /milk/i }).
// It is parsed here, never evaluated: only the calls below, with literal
// arguments (strings, numbers, booleans, regular expressions, objects of
// those, and nested locator expressions), are accepted.

// Call is one method call of a locator expression.
type Call struct {
	Method string `json:"method"`
	// Args are the call's arguments as JSON values: strings, float64s,
	// bools, map[string]any, Regex and Nested.
	Args []any `json:"args"`
}

// Regex is a regular expression literal, /source/flags.
type Regex struct {
	Source string `json:"$regex"`
	Flags  string `json:"flags"`
}

// Nested is a locator expression given as an argument (has:, and(), or()).
type Nested struct {
	Chain []Call `json:"$locator"`
}

// argKind is what a parameter of a method accepts.
type argKind int

const (
	kString  argKind = 1 << iota // a string
	kRegex                       // a regular expression
	kNumber                      // a number
	kObject                      // an options object
	kLocator                     // a nested locator expression
)

type method struct {
	root    bool      // may start an expression
	params  []argKind // accepted kinds of each parameter
	minArgs int
	options map[string]argKind // the keys of an options object, if any
}

var textOptions = map[string]argKind{"exact": 0}

const kBool argKind = 0 // options: a boolean (0 = no other kind)

var roleOptions = map[string]argKind{
	"name": kString | kRegex, "exact": kBool, "checked": kBool, "disabled": kBool, "expanded": kBool,
	"includeHidden": kBool, "level": kNumber, "pressed": kBool, "selected": kBool,
}

var filterOptions = map[string]argKind{"hasText": kString | kRegex, "hasNotText": kString | kRegex, "has": kLocator, "hasNot": kLocator, "visible": kBool}

// methods are the calls a locator expression may use.
var methods = map[string]method{
	"getByRole":        {root: true, params: []argKind{kString, kObject}, minArgs: 1, options: roleOptions},
	"getByText":        {root: true, params: []argKind{kString | kRegex, kObject}, minArgs: 1, options: textOptions},
	"getByLabel":       {root: true, params: []argKind{kString | kRegex, kObject}, minArgs: 1, options: textOptions},
	"getByPlaceholder": {root: true, params: []argKind{kString | kRegex, kObject}, minArgs: 1, options: textOptions},
	"getByAltText":     {root: true, params: []argKind{kString | kRegex, kObject}, minArgs: 1, options: textOptions},
	"getByTitle":       {root: true, params: []argKind{kString | kRegex, kObject}, minArgs: 1, options: textOptions},
	"getByTestId":      {root: true, params: []argKind{kString | kRegex}, minArgs: 1},
	"locator":          {root: true, params: []argKind{kString | kLocator, kObject}, minArgs: 1, options: filterOptions},
	"frameLocator":     {root: true, params: []argKind{kString}, minArgs: 1},
	"filter":           {params: []argKind{kObject}, minArgs: 1, options: filterOptions},
	"nth":              {params: []argKind{kNumber}, minArgs: 1},
	"first":            {},
	"last":             {},
	"and":              {params: []argKind{kLocator}, minArgs: 1},
	"or":               {params: []argKind{kLocator}, minArgs: 1},
	"contentFrame":     {},
}

// IsExpression reports whether a page-object value is a locator
// expression rather than a Playwright selector string: it starts with a
// call of getBy*, locator or frameLocator (optionally after "page.").
func IsExpression(s string) bool {
	s = strings.TrimPrefix(strings.TrimSpace(s), "page.")
	end := strings.IndexFunc(s, func(r rune) bool { return !isIdent(r) })
	if end <= 0 {
		return false
	}
	m, ok := methods[s[:end]]
	return ok && m.root && strings.HasPrefix(strings.TrimSpace(s[end:]), "(")
}

// SyntaxError is a locator expression that cannot be parsed; Col is the
// 1-based column in the expression.
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// ParseExpression parses a locator expression into its calls.
func ParseExpression(src string) ([]Call, error) {
	p := &parser{src: src}
	chain, err := p.chain()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		return nil, p.errorf("unexpected %q after the locator expression", p.src[p.pos:])
	}
	return chain, nil
}

type parser struct {
	src string
	pos int
}

func (p *parser) errorf(format string, args ...any) error {
	return &SyntaxError{Col: len([]rune(p.src[:p.pos])) + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && unicode.IsSpace(rune(p.src[p.pos])) {
		p.pos++
	}
}

func isIdent(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func (p *parser) ident() string {
	start := p.pos
	for p.pos < len(p.src) && isIdent(rune(p.src[p.pos])) {
		p.pos++
	}
	return p.src[start:p.pos]
}

// peek reports whether the next non-space character is c (and skips the
// spaces).
func (p *parser) peek(c byte) bool {
	p.skipSpace()
	return p.pos < len(p.src) && p.src[p.pos] == c
}

func (p *parser) expect(c byte) error {
	if !p.peek(c) {
		return p.unexpected(fmt.Sprintf("'%c'", c))
	}
	p.pos++
	return nil
}

// unexpected reports that what was wanted is not at the current position.
func (p *parser) unexpected(want string) error {
	if p.pos >= len(p.src) {
		return p.errorf("expected %s, but the expression ends", want)
	}
	return p.errorf("expected %s, found %q", want, p.src[p.pos])
}

// chain parses ['page.'] call ('.' call)*.
func (p *parser) chain() ([]Call, error) {
	var out []Call
	p.skipSpace()
	if strings.HasPrefix(p.src[p.pos:], "page.") { // the same expression
		p.pos += len("page.")
	}
	for {
		p.skipSpace()
		at := p.pos
		name := p.ident()
		if name == "" {
			return nil, p.errorf("expected a method name such as getByRole")
		}
		m, ok := methods[name]
		if !ok {
			p.pos = at
			return nil, p.errorf("unknown locator method %q (known: %s)", name, knownMethods())
		}
		if len(out) == 0 && !m.root {
			p.pos = at
			return nil, p.errorf("a locator expression starts with getBy*, locator or frameLocator, not %s", name)
		}
		if err := p.expect('('); err != nil {
			return nil, err
		}
		args, err := p.args(name, m)
		if err != nil {
			return nil, err
		}
		out = append(out, Call{Method: name, Args: args})
		if !p.peek('.') {
			return out, nil
		}
		p.pos++
	}
}

func knownMethods() string {
	return strings.Join(slices.Sorted(maps.Keys(methods)), ", ")
}

// args parses the arguments of a call up to its ')' and checks them.
func (p *parser) args(name string, m method) ([]any, error) {
	args := []any{}
	for !p.peek(')') {
		if len(args) > 0 {
			if !p.peek(',') {
				return nil, p.unexpected("',' or ')'")
			}
			p.pos++
			if p.peek(')') { // a trailing comma
				break
			}
		}
		at := p.pos
		i := len(args)
		if i >= len(m.params) {
			return nil, p.errorf("%s takes %s", name, plural(len(m.params), "argument"))
		}
		v, err := p.value(m.params[i], m.options)
		if err != nil {
			return nil, err
		}
		if k := kindOf(v); k&m.params[i] == 0 {
			p.pos = at
			return nil, p.errorf("%s: argument %d must be %s, not %s", name, i+1, describeKinds(m.params[i]), describeKinds(k))
		}
		args = append(args, v)
	}
	p.pos++ // ')'
	if len(args) < m.minArgs {
		return nil, p.errorf("%s needs at least %s", name, plural(m.minArgs, "argument"))
	}
	return args, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func kindOf(v any) argKind {
	switch v.(type) {
	case string:
		return kString
	case Regex:
		return kRegex
	case float64:
		return kNumber
	case map[string]any:
		return kObject
	case Nested:
		return kLocator
	}
	return kBool
}

func describeKinds(k argKind) string {
	var parts []string
	for _, d := range []struct {
		k    argKind
		name string
	}{{kString, "a string"}, {kRegex, "a regular expression"}, {kNumber, "a number"}, {kObject, "an options object"}, {kLocator, "a locator expression"}} {
		if k&d.k != 0 {
			parts = append(parts, d.name)
		}
	}
	if len(parts) == 0 {
		return "true or false"
	}
	return strings.Join(parts, " or ")
}

// value parses one literal; want says whether a nested locator or an
// options object (with the given keys) may appear here.
func (p *parser) value(want argKind, options map[string]argKind) (any, error) {
	p.skipSpace()
	if p.pos >= len(p.src) {
		return nil, p.errorf("expected a value, but the expression ends")
	}
	c := p.src[p.pos]
	switch {
	case c == '\'' || c == '"' || c == '`':
		return p.str()
	case c == '/':
		return p.regex()
	case c == '{':
		if want&kObject == 0 {
			return nil, p.errorf("an options object is not expected here")
		}
		return p.object(options)
	case c == '-' || c == '.' || (c >= '0' && c <= '9'):
		return p.number()
	}
	at := p.pos
	word := p.ident()
	switch word {
	case "true":
		return true, nil
	case "false":
		return false, nil
	case "":
		return nil, p.errorf("unexpected %q", c)
	}
	p.pos = at
	if want&kLocator == 0 {
		return nil, p.errorf("expected a literal value, found %q", word)
	}
	chain, err := p.chain()
	if err != nil {
		return nil, err
	}
	return Nested{Chain: chain}, nil
}

// str parses a '...', "..." or `...` literal with JavaScript's escapes.
func (p *parser) str() (string, error) {
	quote := p.src[p.pos]
	start := p.pos
	p.pos++
	var b strings.Builder
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == quote:
			p.pos++
			return b.String(), nil
		case c == '$' && quote == '`' && strings.HasPrefix(p.src[p.pos:], "${"):
			return "", p.errorf("template substitutions (${...}) are not allowed in a page object: it is not evaluated")
		case c == '\\' && p.pos+1 < len(p.src):
			p.pos++
			e := p.src[p.pos]
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'u':
				if p.pos+4 < len(p.src) {
					if n, err := strconv.ParseUint(p.src[p.pos+1:p.pos+5], 16, 32); err == nil {
						b.WriteRune(rune(n))
						p.pos += 4
						break
					}
				}
				return "", p.errorf(`invalid \u escape`)
			default:
				b.WriteByte(e)
			}
			p.pos++
		case c == '\n' && quote != '`':
			return "", p.errorf("unterminated string")
		default:
			b.WriteByte(c)
			p.pos++
		}
	}
	p.pos = start
	return "", p.errorf("unterminated string")
}

// regex parses /source/flags.
func (p *parser) regex() (Regex, error) {
	start := p.pos
	p.pos++
	inClass := false
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '\\':
			p.pos += 2
			continue
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			src := p.src[start+1 : p.pos]
			p.pos++
			fstart := p.pos
			for p.pos < len(p.src) && strings.IndexByte("dgimsuvy", p.src[p.pos]) >= 0 {
				p.pos++
			}
			if src == "" {
				p.pos = start
				return Regex{}, p.errorf("empty regular expression")
			}
			return Regex{Source: src, Flags: p.src[fstart:p.pos]}, nil
		case c == '\n':
			p.pos = len(p.src)
		}
		p.pos++
	}
	p.pos = start
	return Regex{}, p.errorf("unterminated regular expression")
}

func (p *parser) number() (float64, error) {
	start := p.pos
	if p.src[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.src) && (p.src[p.pos] == '.' || (p.src[p.pos] >= '0' && p.src[p.pos] <= '9')) {
		p.pos++
	}
	f, err := strconv.ParseFloat(p.src[start:p.pos], 64)
	if err != nil {
		p.pos = start
		return 0, p.errorf("invalid number %q", p.src[start:p.pos])
	}
	return f, nil
}

// object parses { key: value, ... } with the keys in options.
func (p *parser) object(options map[string]argKind) (map[string]any, error) {
	p.pos++ // '{'
	out := map[string]any{}
	for !p.peek('}') {
		if len(out) > 0 {
			if !p.peek(',') {
				return nil, p.unexpected("',' or '}'")
			}
			p.pos++
			if p.peek('}') {
				break
			}
		}
		p.skipSpace()
		at := p.pos
		var key string
		if p.pos < len(p.src) && (p.src[p.pos] == '\'' || p.src[p.pos] == '"') {
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			key = k
		} else {
			key = p.ident()
		}
		if key == "" {
			return nil, p.errorf("expected an option name")
		}
		want, ok := options[key]
		if !ok {
			p.pos = at
			return nil, p.errorf("unknown option %q (known: %s)", key, strings.Join(slices.Sorted(maps.Keys(options)), ", "))
		}
		if err := p.expect(':'); err != nil {
			return nil, err
		}
		vat := p.pos
		v, err := p.value(want, nil)
		if err != nil {
			return nil, err
		}
		if k := kindOf(v); k != want && k&want == 0 {
			p.pos = vat
			p.skipSpace()
			return nil, p.errorf("option %s must be %s, not %s", key, describeKinds(want), describeKinds(k))
		}
		out[key] = v
	}
	p.pos++ // '}'
	return out, nil
}
