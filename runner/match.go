package runner

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf16"

	cukexp "github.com/cucumber/cucumber-expressions/go/v18"

	"github.com/ferridriver/ferridriver/jsbridge"
	"github.com/ferridriver/ferridriver/messages"
)

// matcher matches step text against the registered step definitions with
// the Cucumber Expressions library (parameter types, regular expressions,
// argument group trees) and generates snippets for undefined steps.
type matcher struct {
	params *cukexp.ParameterTypeRegistry
	defs   []*jsbridge.StepDef
	exprs  []cukexp.Expression // nil where the expression uses an undefined parameter type
	// undefinedParams is one message per definition whose expression names
	// an unknown parameter type, by definition index.
	undefinedParams map[int]*messages.UndefinedParameterType

	mu    sync.Mutex
	cache map[string][]stepMatch
}

// stepMatch is one definition matching a step's text.
type stepMatch struct {
	def  int
	args []*cukexp.Argument
}

// DefinitionError is a step definition or parameter type that cannot be
// used (a malformed expression or regular expression), at its source.
type DefinitionError struct {
	Source jsbridge.SourceRef
	What   string
	Err    error
}

func (e *DefinitionError) Error() string {
	return fmt.Sprintf("%s:%d: %s: %v", e.Source.URI, e.Source.Line, e.What, e.Err)
}

func newMatcher(reg *jsbridge.Registry) (*matcher, error) {
	m := &matcher{
		params:          cukexp.NewParameterTypeRegistry(),
		defs:            reg.Steps,
		exprs:           make([]cukexp.Expression, len(reg.Steps)),
		undefinedParams: map[int]*messages.UndefinedParameterType{},
		cache:           map[string][]stepMatch{},
	}
	for _, p := range reg.ParamTypes {
		res := make([]*regexp.Regexp, len(p.Regexps))
		for i, src := range p.Regexps {
			re, err := compileJSRegexp(src, "")
			if err != nil {
				return nil, &DefinitionError{Source: p.Source, What: "parameter type {" + p.Name + "}", Err: err}
			}
			res[i] = re
		}
		pt, err := cukexp.NewParameterType(p.Name, res, p.Name, nil, p.UseForSnippets, p.PreferForRegexpMatch, false)
		if err != nil {
			return nil, &DefinitionError{Source: p.Source, What: "parameter type {" + p.Name + "}", Err: err}
		}
		if err := m.params.DefineParameterType(pt); err != nil {
			return nil, &DefinitionError{Source: p.Source, What: "parameter type {" + p.Name + "}", Err: err}
		}
	}
	for i, d := range reg.Steps {
		if d.IsRegexp {
			re, err := compileJSRegexp(d.Pattern, d.Flags)
			if err != nil {
				return nil, &DefinitionError{Source: d.Source, What: fmt.Sprintf("step /%s/%s", d.Pattern, d.Flags), Err: err}
			}
			m.exprs[i] = cukexp.NewRegularExpression(re, m.params)
			continue
		}
		expr, err := cukexp.NewCucumberExpression(d.Pattern, m.params)
		if err != nil {
			var undef *cukexp.UndefinedParameterTypeError
			if errors.As(err, &undef) {
				m.undefinedParams[i] = &messages.UndefinedParameterType{Name: undefinedParamName(d.Pattern, m.params), Expression: d.Pattern}
				continue
			}
			return nil, &DefinitionError{Source: d.Source, What: fmt.Sprintf("step %q", d.Pattern), Err: err}
		}
		m.exprs[i] = expr
	}
	return m, nil
}

// undefinedParamName finds the first {name} of expr that is not registered.
func undefinedParamName(expr string, reg *cukexp.ParameterTypeRegistry) string {
	for i := 0; i < len(expr); i++ {
		switch expr[i] {
		case '\\':
			i++
		case '{':
			end := strings.IndexByte(expr[i:], '}')
			if end < 0 {
				return ""
			}
			name := expr[i+1 : i+end]
			if reg.LookupByTypeName(name) == nil {
				return name
			}
			i += end
		}
	}
	return ""
}

// match returns every definition matching text (cached: the same step text
// appears in many scenarios).
func (m *matcher) match(text string) ([]stepMatch, error) {
	m.mu.Lock()
	if r, ok := m.cache[text]; ok {
		m.mu.Unlock()
		return r, nil
	}
	m.mu.Unlock()
	var out []stepMatch
	for i, e := range m.exprs {
		if e == nil {
			continue
		}
		args, err := e.Match(text)
		if err != nil {
			return nil, &DefinitionError{Source: m.defs[i].Source, What: fmt.Sprintf("matching %q", text), Err: err}
		}
		if args != nil {
			out = append(out, stepMatch{def: i, args: args})
		}
	}
	m.mu.Lock()
	m.cache[text] = out
	m.mu.Unlock()
	return out, nil
}

// stepArgs converts a match's arguments for the JS side.
func stepArgs(args []*cukexp.Argument) []jsbridge.StepArg {
	out := make([]jsbridge.StepArg, len(args))
	for i, a := range args {
		out[i] = jsbridge.StepArg{ParamType: a.ParameterType().Name(), Values: a.Group().Values()}
	}
	return out
}

// matchArgumentsList converts a match's arguments to the protocol's form.
// text is the matched step text: group offsets are reported in UTF-16 code
// units, as JavaScript (and so cucumber-js) counts them.
func matchArgumentsList(text string, args []*cukexp.Argument) *messages.StepMatchArgumentsList {
	l := &messages.StepMatchArgumentsList{StepMatchArguments: make([]*messages.StepMatchArgument, len(args))}
	for i, a := range args {
		sma := &messages.StepMatchArgument{Group: *groupMessage(text, a.Group())}
		// Anonymous regular-expression groups have no parameter type name.
		if name := a.ParameterType().Name(); name != "anonymous" {
			sma.ParameterTypeName = messages.Ptr(name)
		}
		l.StepMatchArguments[i] = sma
	}
	return l
}

func groupMessage(text string, g *cukexp.Group) *messages.Group {
	out := &messages.Group{}
	if v := g.Value(); v != nil {
		out.Value = messages.Ptr(*v)
		out.Start = messages.Ptr(utf16Offset(text, g.Start()))
	}
	for _, c := range g.Children() {
		out.Children = append(out.Children, groupMessage(text, c))
	}
	return out
}

// utf16Offset converts a byte offset in s into UTF-16 code units.
func utf16Offset(s string, byteOff int) int64 {
	if byteOff > len(s) {
		byteOff = len(s)
	}
	n := int64(0)
	for _, r := range s[:byteOff] {
		n += int64(utf16.RuneLen(r))
	}
	return n
}

// jsEscapeRE finds \uXXXX and \u{X...} escapes, which RE2 spells \x{...}.
var jsEscapeRE = regexp.MustCompile(`\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})`)

// compileJSRegexp compiles a JavaScript regular expression source with Go's
// RE2 engine. JS-only syntax (lookaround, backreferences) is reported as an
// error rather than silently matching differently.
func compileJSRegexp(source, flags string) (*regexp.Regexp, error) {
	src := jsEscapeRE.ReplaceAllStringFunc(source, func(m string) string {
		hex := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(m, `\u`), "{"), "}")
		return `\x{` + hex + `}`
	})
	src = strings.ReplaceAll(src, `[^]`, `[\s\S]`)
	var goFlags string
	for _, f := range flags {
		switch f {
		case 'i', 'm', 's':
			goFlags += string(f)
		case 'g', 'y', 'u', 'd', 'v':
			// no effect on matching a whole step text
		default:
			return nil, fmt.Errorf("unsupported regular expression flag %q", f)
		}
	}
	if goFlags != "" {
		src = "(?" + goFlags + ")" + src
	}
	re, err := regexp.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("%v (ferridriver matches step patterns with RE2 syntax: no lookaround or backreferences)", err)
	}
	return re, nil
}
