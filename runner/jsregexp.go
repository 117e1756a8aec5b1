package runner

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	cukexp "github.com/cucumber/cucumber-expressions/go/v18"
	"github.com/dlclark/regexp2/v2"
)

// jsRegexp is a JavaScript regular expression compiled with regexp2 in
// ECMAScript mode, so that RegExp step definitions and parameter types match
// as they do in Node (lookaround, backreferences, named groups, Unicode
// classes), with the capture-group tree cucumber-js's TreeRegexp builds
// from the source.
type jsRegexp struct {
	source string
	re     *regexp2.Regexp
	root   *groupNode
}

// groupNode is one capturing group of a regular expression: its number (0
// for the whole match), its source text and the capturing groups nested in
// it. Non-capturing groups and lookarounds are not nodes: their capturing
// groups belong to the enclosing capturing group, as in cucumber-js.
type groupNode struct {
	number   int
	source   string
	children []*groupNode
}

// compileJSRegexp compiles a JavaScript regular expression source and flags.
func compileJSRegexp(source, flags string) (*jsRegexp, error) {
	opts := regexp2.ECMAScript
	for _, f := range flags {
		switch f {
		case 'i':
			opts |= regexp2.IgnoreCase
		case 'm':
			opts |= regexp2.Multiline
		case 's':
			opts |= regexp2.Singleline
		case 'u', 'v':
			opts |= regexp2.Unicode
		case 'g', 'y', 'd':
			// no effect on matching a whole step text
		default:
			return nil, fmt.Errorf("unsupported regular expression flag %q", f)
		}
	}
	// [^] (any character) is JavaScript-only syntax; regexp2 knows Unicode
	// properties by their value alone (\p{Greek}, \p{Letter}).
	src := strings.ReplaceAll(source, `[^]`, `[\s\S]`)
	src = propertyNameRE.ReplaceAllString(src, `$1\$2{`)
	re, err := regexp2.Compile(src, opts, regexp2.OptionMaintainCaptureOrder())
	if err != nil {
		return nil, err
	}
	return &jsRegexp{source: source, re: re, root: groupTree(source)}, nil
}

// propertyNameRE finds \p{Script=X}, \p{sc=X}, \p{General_Category=X}...
// (Script_Extensions is approximated by Script).
var propertyNameRE = regexp.MustCompile(`((?:^|[^\\])(?:\\\\)*)\\([pP])\{(?:Script|sc|Script_Extensions|scx|General_Category|gc)=`)

// groupTree finds the capturing groups of a (valid) regular expression
// source, numbered in the order their "(" appears, as JavaScript numbers them.
func groupTree(source string) *groupNode {
	root := &groupNode{source: source}
	type open struct {
		node      *groupNode // nil for a non-capturing group or lookaround
		start     int
		container *groupNode
	}
	var stack []open
	current := root
	n := 0
	escaping, inClass := false, false
	for i := 0; i < len(source); i++ {
		c := source[i]
		switch {
		case escaping:
			escaping = false
			continue
		case c == '\\':
			escaping = true
			continue
		case inClass:
			if c == ']' {
				inClass = false
			}
			continue
		case c == '[':
			inClass = true
		case c == '(':
			if isNonCapturingGroup(source, i) {
				stack = append(stack, open{start: i + 1, container: current})
				continue
			}
			n++
			g := &groupNode{number: n}
			stack = append(stack, open{node: g, start: i + 1, container: current})
			current.children = append(current.children, g)
			current = g
		case c == ')':
			if len(stack) == 0 {
				continue
			}
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.node != nil {
				top.node.source = source[top.start:i]
				current = top.container
			}
		}
	}
	return root
}

// isNonCapturingGroup says whether the "(" at i opens a group that captures
// nothing: (?:...), (?=...), (?!...), (?<=...), (?<!...). (?<name>...) captures.
func isNonCapturingGroup(source string, i int) bool {
	if i+1 >= len(source) || source[i+1] != '?' {
		return false
	}
	if i+2 >= len(source) || source[i+2] != '<' {
		return true
	}
	return i+3 < len(source) && (source[i+3] == '=' || source[i+3] == '!')
}

// match matches the whole of text and returns the group tree of the match
// (nil when it does not match). Offsets are in bytes; a group that did not
// participate has a nil value.
func (r *jsRegexp) match(text string) (*cukexp.Group, error) {
	m, err := r.re.FindStringMatch(text)
	if err != nil || m == nil {
		return nil, err
	}
	var build func(g *groupNode) *cukexp.Group
	build = func(g *groupNode) *cukexp.Group {
		children := make([]*cukexp.Group, len(g.children))
		for i, c := range g.children {
			children[i] = build(c)
		}
		mg := m.GroupByNumber(g.number)
		if mg == nil || len(mg.Captures) == 0 {
			return cukexp.NewGroup(nil, -1, -1, children)
		}
		start, length := mg.ByteRange()
		v := mg.String()
		return cukexp.NewGroup(&v, start, start+length, children)
	}
	return build(r.root), nil
}

// matchString reports whether the expression matches somewhere in text.
func (r *jsRegexp) matchString(text string) bool {
	ok, _ := r.re.MatchString(text)
	return ok
}

// expression is a step definition's compiled pattern.
type expression interface {
	Match(text string, typeHints ...reflect.Type) ([]*cukexp.Argument, error)
}

// jsExpression matches a step text with a JavaScript regular expression and
// assigns each top-level group a parameter type: the types of a Cucumber
// Expression's parameters in order, or, for a RegExp step definition, the
// parameter type whose regular expression is the group's source (cucumber-js's
// RegularExpression), else an anonymous one.
type jsExpression struct {
	re *jsRegexp
	// params are the Cucumber Expression's parameter types; nil for a RegExp.
	params []*cukexp.ParameterType
	m      *matcher
}

func (e *jsExpression) Match(text string, _ ...reflect.Type) ([]*cukexp.Argument, error) {
	g, err := e.re.match(text)
	if err != nil {
		return nil, fmt.Errorf("/%s/: %w", e.re.source, err)
	}
	if g == nil {
		return nil, nil
	}
	groups := g.Children()
	args := make([]*cukexp.Argument, len(groups))
	for i, child := range groups {
		var pt *cukexp.ParameterType
		switch {
		case e.params != nil:
			if i < len(e.params) {
				pt = e.params[i]
			}
		default:
			pt, err = e.m.lookupByRegexp(e.re.root.children[i].source, e.re.source, text)
			if err != nil {
				return nil, err
			}
		}
		if pt == nil {
			pt = anonymousParam
		}
		args[i] = cukexp.NewArgument(child, pt)
	}
	return args, nil
}

// anonymousParam is the type of a RegExp group that no parameter type
// claims: its value is the captured string, null when the group did not
// participate (cucumber-js's anonymous transform).
var anonymousParam = func() *cukexp.ParameterType {
	pt, err := cukexp.NewParameterType("anonymous", nil, "string", nil, false, false, false)
	if err != nil {
		panic(err)
	}
	return pt
}()

// jsFloatSource is the source of cucumber-js's {float} regular expression
// (the Go library's differs): a RegExp group written this way is a {float}.
const jsFloatSource = `[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:[E][+-]?\d+)?`

// jsEscapeRE finds \uXXXX and \u{X...} escapes, which RE2 spells \x{...}.
var jsEscapeRE = regexp.MustCompile(`\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})`)

// compileRE2 compiles a parameter type's JavaScript source with RE2 when RE2
// accepts it, so that the Cucumber Expressions library can embed it; false
// when the source needs JavaScript's engine.
func compileRE2(source string) (*regexp.Regexp, bool) {
	src := jsEscapeRE.ReplaceAllStringFunc(source, func(m string) string {
		hex := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(m, `\u`), "{"), "}")
		return `\x{` + hex + `}`
	})
	src = strings.ReplaceAll(src, `[^]`, `[\s\S]`)
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, false
	}
	return re, true
}
