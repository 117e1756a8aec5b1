package runner

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
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
	// exprs are the definitions' expressions: the project's compiled at
	// once (a bad one is a load error), the built-in library's when a text
	// could first match them (its expressions are tested). Nil where the
	// expression uses an undefined parameter type.
	exprs []lazyExpression
	// index finds the definitions a text could match (prefix.go).
	index prefixIndex
	// byRegexp is every parameter type by the source of each of its
	// regular expressions, best first, for RegExp groups (cucumber-js's
	// lookupByRegexp).
	byRegexp map[string][]*cukexp.ParameterType
	// jsParams are the sources of the parameter types whose regular
	// expressions need JavaScript's engine, by name; the Cucumber
	// Expressions library knows them by a placeholder regular expression.
	jsParams map[string]jsParam
	// undefinedParams is one message per definition whose expression names
	// an unknown parameter type, by definition index.
	undefinedParams map[int]*messages.UndefinedParameterType
	// shadowed are the built-in library's parameter types that a project
	// parameter type of the same name replaces (by index in the
	// registry), and unavailable the library's step definitions that used
	// them: neither is used or reported.
	shadowed    map[int]bool
	unavailable map[int]bool

	mu    sync.Mutex
	cache map[string][]stepMatch
	// suggestions are the closest built-in steps by step text (cached as
	// matches are); builtins are the library's definitions as words.
	suggestions map[string][]Suggestion
	builtinOnce sync.Once
	builtins    []builtinTokens
}

// lazyExpression is a definition's expression, compiled on first use.
type lazyExpression struct {
	once    sync.Once
	compile func() (expression, error)
	e       expression
	err     error
}

// expression returns definition i's expression (nil when it names an
// undefined parameter type), compiling it on first use.
func (m *matcher) expression(i int) (expression, error) {
	l := &m.exprs[i]
	l.once.Do(func() {
		if l.compile != nil {
			l.e, l.err = l.compile()
		}
	})
	return l.e, l.err
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
		exprs:           make([]lazyExpression, len(reg.Steps)),
		byRegexp:        map[string][]*cukexp.ParameterType{},
		jsParams:        map[string]jsParam{},
		undefinedParams: map[int]*messages.UndefinedParameterType{},
		shadowed:        map[int]bool{},
		unavailable:     map[int]bool{},
		cache:           map[string][]stepMatch{},
		suggestions:     map[string][]Suggestion{},
	}
	for _, pt := range m.params.ParameterTypes() {
		for _, re := range pt.Regexps() {
			m.addByRegexp(re.String(), pt)
		}
		if n := pt.Name(); n == "float" || n == "double" || n == "bigdecimal" {
			m.addByRegexp(jsFloatSource, pt)
		}
	}
	projectParams := map[string]bool{}
	for _, p := range reg.ParamTypes {
		if !p.Source.IsLibrary() {
			projectParams[p.Name] = true
		}
	}
	for pi, p := range reg.ParamTypes {
		if p.Source.IsLibrary() && projectParams[p.Name] {
			// An existing suite's {value} must not collide with the
			// library's: the project's parameter type wins.
			m.shadowed[pi] = true
			continue
		}
		defErr := func(err error) error {
			return &DefinitionError{Source: p.Source, What: "parameter type {" + p.Name + "}", Err: err}
		}
		res := make([]*regexp.Regexp, len(p.Regexps))
		jsOnly := false
		for i, src := range p.Regexps {
			if _, err := compileJSRegexp(src, ""); err != nil {
				return nil, defErr(err)
			}
			re, ok := compileRE2(src)
			if !ok {
				jsOnly = true
				break
			}
			res[i] = re
		}
		if jsOnly {
			// The library embeds the parameter's regular expression in a
			// Cucumber Expression's; a unique placeholder stands for it
			// and is replaced by the JavaScript source before compiling.
			ph := fmt.Sprintf(`\x{E000}jsparam%d\x{E000}`, len(m.jsParams))
			m.jsParams[p.Name] = jsParam{placeholder: ph, sources: p.Regexps}
			res = []*regexp.Regexp{regexp.MustCompile(ph)}
		}
		pt, err := cukexp.NewParameterType(p.Name, res, p.Name, nil, p.UseForSnippets, p.PreferForRegexpMatch, false)
		if err != nil {
			return nil, defErr(err)
		}
		if err := m.params.DefineParameterType(pt); err != nil {
			return nil, defErr(err)
		}
		for _, src := range p.Regexps {
			m.addByRegexp(src, pt)
		}
	}
	for i, d := range reg.Steps {
		compile := func() (expression, error) { return m.compile(d) }
		if d.Source.IsLibrary() && !d.IsRegexp {
			// Checked without compiling: only what could match is.
			if undefinedParamName(d.Pattern, m.params) != "" {
				if len(m.shadowed) > 0 {
					m.unavailable[i] = true
				} else {
					m.undefinedParams[i] = &messages.UndefinedParameterType{Name: undefinedParamName(d.Pattern, m.params), Expression: d.Pattern}
				}
				continue
			}
			m.exprs[i].compile = compile
		} else {
			expr, err := compile()
			if err != nil {
				var undef *cukexp.UndefinedParameterTypeError
				if errors.As(err, &undef) && d.Source.IsLibrary() && len(m.shadowed) > 0 {
					m.unavailable[i] = true
					continue
				}
				if errors.As(err, &undef) {
					m.undefinedParams[i] = &messages.UndefinedParameterType{Name: undefinedParamName(d.Pattern, m.params), Expression: d.Pattern}
					continue
				}
				return nil, err
			}
			m.exprs[i].e = expr
			m.exprs[i].once.Do(func() {})
		}
		prefix := regexpPrefix(d.Pattern, d.Flags)
		if !d.IsRegexp {
			prefix = cucumberPrefix(d.Pattern)
		}
		m.index.add(prefix, i)
	}
	return m, nil
}

// compile compiles a definition's expression; a malformed one is a
// DefinitionError at its source, an undefined parameter type the
// UndefinedParameterTypeError of the Cucumber Expressions library.
func (m *matcher) compile(d *jsbridge.StepDef) (expression, error) {
	if d.IsRegexp {
		re, err := compileJSRegexp(d.Pattern, d.Flags)
		if err != nil {
			return nil, &DefinitionError{Source: d.Source, What: fmt.Sprintf("step /%s/%s", d.Pattern, d.Flags), Err: err}
		}
		return &jsExpression{re: re, m: m}, nil
	}
	expr, err := m.cucumberExpression(d.Pattern)
	if err != nil {
		var undef *cukexp.UndefinedParameterTypeError
		if errors.As(err, &undef) {
			return nil, err
		}
		return nil, &DefinitionError{Source: d.Source, What: fmt.Sprintf("step %q", d.Pattern), Err: err}
	}
	return expr, nil
}

// shadowedNote says which built-in parameter types the project replaced
// and how many built-in steps that leaves out ("" when none).
func (m *matcher) shadowedNote(reg *jsbridge.Registry) string {
	if len(m.shadowed) == 0 {
		return ""
	}
	var names []string
	for i := range reg.ParamTypes {
		if m.shadowed[i] {
			names = append(names, "{"+reg.ParamTypes[i].Name+"}")
		}
	}
	return fmt.Sprintf("the project defines the parameter type(s) %s, which the built-in step library defines too: the project's are used, and the %d built-in step(s) that use the library's are left out", strings.Join(names, ", "), len(m.unavailable))
}

// jsParam is a parameter type whose regular expressions need JavaScript's
// engine.
type jsParam struct {
	placeholder string
	sources     []string
}

func (m *matcher) addByRegexp(source string, pt *cukexp.ParameterType) {
	l := append(m.byRegexp[source], pt)
	sort.SliceStable(l, func(i, j int) bool { return cukexp.CompareParameterTypes(l[i], l[j]) < 0 })
	m.byRegexp[source] = l
}

// lookupByRegexp is the parameter type of a RegExp group whose source is
// source (nil: anonymous); several candidates none of which is preferred are
// an error, as in cucumber-js.
func (m *matcher) lookupByRegexp(source, exprSource, text string) (*cukexp.ParameterType, error) {
	l := m.byRegexp[source]
	switch {
	case len(l) == 0:
		return nil, nil
	case len(l) > 1 && !l[0].PreferForRegexpMatch():
		gen := cukexp.NewCucumberExpressionGenerator(m.params).GenerateExpressions(text)
		return nil, cukexp.NewAmbiguousParameterTypeError(source, exprSource, l, gen)
	}
	return l[0], nil
}

// cucumberExpression compiles a Cucumber Expression with the official
// library; when one of its parameter types needs JavaScript's regular
// expression engine, the library's regular expression is recompiled with
// the parameters' JavaScript sources in place of their placeholders.
func (m *matcher) cucumberExpression(source string) (expression, error) {
	expr, err := cukexp.NewCucumberExpression(source, m.params)
	if err != nil || len(m.jsParams) == 0 {
		return expr, err
	}
	var params []*cukexp.ParameterType
	reSource := expr.Regexp().String()
	needJS := false
	for _, name := range paramNames(source) {
		params = append(params, m.params.LookupByTypeName(name))
		jp, ok := m.jsParams[name]
		if !ok {
			continue
		}
		needJS = true
		alts := make([]string, len(jp.sources))
		for i, s := range jp.sources {
			alts[i] = "(?:" + s + ")"
		}
		reSource = strings.ReplaceAll(reSource, "("+jp.placeholder+")", "("+strings.Join(alts, "|")+")")
	}
	if !needJS {
		return expr, nil
	}
	re, err := compileJSRegexp(reSource, "")
	if err != nil {
		return nil, err
	}
	return &jsExpression{re: re, params: params, m: m}, nil
}

// paramNames lists the {name} parameters of a Cucumber Expression in order.
func paramNames(expr string) []string {
	var out []string
	for i := 0; i < len(expr); i++ {
		switch expr[i] {
		case '\\':
			i++
		case '{':
			end := strings.IndexByte(expr[i:], '}')
			if end < 0 {
				return out
			}
			out = append(out, expr[i+1:i+end])
			i += end
		}
	}
	return out
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
	for _, i := range m.index.candidates(text) {
		e, err := m.expression(i)
		if err != nil {
			return nil, err
		}
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
	out = projectFirst(out, m.defs)
	m.mu.Lock()
	m.cache[text] = out
	m.mu.Unlock()
	return out, nil
}

// ambiguity is the message of a step that several definitions match.
func (m *matcher) ambiguity(matches []stepMatch) string {
	var b strings.Builder
	b.WriteString("Multiple step definitions match:")
	for _, mt := range matches {
		d := m.defs[mt.def]
		pat := d.Pattern
		if d.IsRegexp {
			pat = "/" + pat + "/" + d.Flags
		}
		fmt.Fprintf(&b, "\n  %s - %s:%d", pat, d.Source.URI, d.Source.Line)
	}
	return b.String()
}

// stepByText is the VMs' jsbridge.StepMatcher (runStep): the one
// definition matching text, as a feature's step is matched.
func (r *Run) stepByText(text string) (int, []jsbridge.StepArg, error) {
	if r.matcher == nil {
		return 0, nil, errors.New("the step definitions are still loading")
	}
	matches, err := r.matcher.match(text)
	if err != nil {
		return 0, nil, err
	}
	switch len(matches) {
	case 0:
		return 0, nil, fmt.Errorf("no step definition matches %q", text)
	case 1:
		return matches[0].def, stepArgs(matches[0].args), nil
	}
	return 0, nil, fmt.Errorf("%q is ambiguous. %s", text, r.matcher.ambiguity(matches))
}

// projectFirst drops the built-in library's matches when a project
// definition matches too: the project's step wins instead of being
// ambiguous with a built-in phrasing it may not know exists.
func projectFirst(matches []stepMatch, defs []*jsbridge.StepDef) []stepMatch {
	project := 0
	for _, mt := range matches {
		if !defs[mt.def].Source.IsLibrary() {
			project++
		}
	}
	if project == 0 || project == len(matches) {
		return matches
	}
	out := make([]stepMatch, 0, project)
	for _, mt := range matches {
		if !defs[mt.def].Source.IsLibrary() {
			out = append(out, mt)
		}
	}
	return out
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
