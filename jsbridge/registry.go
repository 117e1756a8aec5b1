package jsbridge

import (
	"fmt"
	"time"

	"github.com/dop251/goja"
)

// SourceRef is where user code registered something.
type SourceRef struct {
	URI  string // path relative to the project directory, slash-separated
	Line int
}

// String formats a source reference as "file:line" ("" when unknown).
func (s SourceRef) String() string {
	if s.URI == "" {
		return ""
	}
	if s.Line == 0 {
		return s.URI
	}
	return fmt.Sprintf("%s:%d", s.URI, s.Line)
}

// StepDef is a step definition registered with Given/When/Then/defineStep.
type StepDef struct {
	// Index is the definition's position among step definitions; it is the
	// same in every VM that evaluated the same bundle.
	Index int
	// Keyword is "Given", "When", "Then" or "" for defineStep.
	Keyword string
	// Pattern is a Cucumber Expression, or a regular expression's source
	// when IsRegexp is set (Flags holds its JS flags).
	Pattern  string
	IsRegexp bool
	Flags    string
	// Timeout overrides the default timeout when non-zero; negative means none.
	Timeout        time.Duration
	WrapperOptions goja.Value `json:"-"`
	Source         SourceRef
	// Description and Examples document the step for `ferridriver steps`
	// (options {description, example}; example may be a list).
	Description string
	Examples    []string

	fn       goja.Callable
	fnValue  goja.Value
	fnLength int
	stub     bool // see LibraryIndex
}

// HookKind says when a hook runs.
type HookKind int

// Hook kinds.
const (
	BeforeAll HookKind = iota
	AfterAll
	Before
	After
	BeforeStep
	AfterStep
)

var hookKindNames = [...]string{"BeforeAll", "AfterAll", "Before", "After", "BeforeStep", "AfterStep"}

func (k HookKind) String() string { return hookKindNames[k] }

// HookDef is a hook registered with Before, After, BeforeAll, ...
type HookDef struct {
	Index   int // position among all hooks, in definition order
	Kind    HookKind
	Name    string
	Tags    string // tag expression, "" = every test case
	Timeout time.Duration
	Source  SourceRef

	fn       goja.Callable
	fnValue  goja.Value
	fnLength int
	stub     bool // see LibraryIndex
}

// ParamTypeDef is a parameter type registered with defineParameterType.
type ParamTypeDef struct {
	Name                 string
	Regexps              []string // JS regular expression sources
	UseForSnippets       bool
	PreferForRegexpMatch bool
	Source               SourceRef

	transformer goja.Callable // nil: the matched string(s) as is
	stub        bool          // see LibraryIndex
}

// DefKind is the kind of an entry of Registry.Order.
type DefKind int

// Definition kinds, for Registry.Order.
const (
	DefStep DefKind = iota
	DefHook
	DefParamType
	DefTool
)

// Def points at one registered definition.
type Def struct {
	Kind  DefKind
	Index int // into Steps, Hooks, ParamTypes or Tools
}

// Registry is everything user code registered while the bundle loaded.
type Registry struct {
	Steps      []*StepDef
	Hooks      []*HookDef
	ParamTypes []*ParamTypeDef
	// Tools are the tools registered with defineTool (see tools.go).
	Tools []*ToolDef
	// Order lists definitions in the order the code registered them.
	Order []Def
	// DefaultTimeout is set by setDefaultTimeout, else by
	// VMOptions.DefaultTimeout, else DefaultStepTimeout.
	DefaultTimeout time.Duration
	// DefaultTimeoutSource says where DefaultTimeout was set, as a
	// TimeoutError names it: "setDefaultTimeout at steps/a.ts:3",
	// VMOptions.DefaultTimeoutSource, or "the default".
	DefaultTimeoutSource string
	// defaultTimeoutSet is set by setDefaultTimeout.
	defaultTimeoutSet bool

	worldCtor goja.Value
	wrapper   goja.Callable
}

// DefaultStepTimeout is cucumber-js's default step and hook timeout.
const DefaultStepTimeout = 5 * time.Second

func newRegistry() *Registry {
	return &Registry{DefaultTimeout: DefaultStepTimeout, DefaultTimeoutSource: defaultTimeoutSource}
}

// defaultTimeoutSource names DefaultStepTimeout when nothing else set the
// timeout.
const defaultTimeoutSource = "the default step timeout; set [test] timeout in ferridriver.toml, --timeout, setDefaultTimeout or the step's { timeout }"

// TimeoutSource says where the timeout of a definition whose own setting
// is own (registered at src) comes from, as TimeoutFor applies it.
func (r *Registry) TimeoutSource(own time.Duration, src SourceRef) string {
	switch {
	case own < 0:
		return ""
	case own == 0:
		return r.DefaultTimeoutSource
	}
	if s := src.String(); s != "" {
		return "the { timeout } of the definition at " + s
	}
	return "the definition's { timeout }"
}

// HooksOf returns the hooks of one kind, in definition order.
func (r *Registry) HooksOf(kind HookKind) []*HookDef {
	var out []*HookDef
	for _, h := range r.Hooks {
		if h.Kind == kind {
			out = append(out, h)
		}
	}
	return out
}

// TimeoutFor returns the effective timeout of a definition's own setting:
// the default when unset, none when negative.
func (r *Registry) TimeoutFor(own time.Duration) time.Duration {
	switch {
	case own < 0:
		return 0
	case own == 0:
		return r.DefaultTimeout
	}
	return own
}

// finish applies setDefinitionFunctionWrapper to every step and hook once
// all code has loaded, as cucumber-js does.
func (r *Registry) finish() error {
	if r.wrapper == nil {
		return nil
	}
	wrap := func(fn goja.Value, opts goja.Value) (goja.Callable, goja.Value, error) {
		w, err := r.wrapper(goja.Undefined(), fn, opts)
		if err != nil {
			return nil, nil, err
		}
		c, ok := goja.AssertFunction(w)
		if !ok {
			return nil, nil, &JSError{Type: "TypeError", Message: "setDefinitionFunctionWrapper: the wrapper must return a function"}
		}
		return c, w, nil
	}
	for _, s := range r.Steps {
		if s.stub {
			continue
		}
		opts := s.WrapperOptions
		if opts == nil {
			opts = goja.Undefined()
		}
		c, v, err := wrap(s.fnValue, opts)
		if err != nil {
			return err
		}
		s.fn, s.fnValue = c, v
	}
	for _, h := range r.Hooks {
		if h.Kind == BeforeAll || h.Kind == AfterAll || h.stub {
			continue // cucumber-js wraps step definitions and test case/step hooks only
		}
		c, v, err := wrap(h.fnValue, goja.Undefined())
		if err != nil {
			return err
		}
		h.fn, h.fnValue = c, v
	}
	return nil
}
