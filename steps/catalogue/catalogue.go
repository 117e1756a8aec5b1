// Package catalogue shows the steps a project can use: the built-in
// library's and its own, with their expressions, descriptions, examples,
// categories and sources, and the parameter types they use. It renders
// them for `ferridriver steps`: plain text for a terminal, JSON for tools,
// Markdown for docs (docs/steps.md is generated so), and a glue file that
// the Cucumber language server (VS Code's Cucumber extension) reads for
// completion, since it cannot see a library embedded in the binary.
package catalogue

import (
	"path"
	"strings"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// Catalogue is every step definition and parameter type of a registry.
type Catalogue struct {
	Steps          []Step          `json:"steps"`
	ParameterTypes []ParameterType `json:"parameterTypes"`
}

// Step is one step definition.
type Step struct {
	// Expression is a Cucumber Expression, or a regular expression's
	// source when Type is RegularExpression.
	Expression string `json:"expression"`
	// Type is "CucumberExpression" or "RegularExpression", as the
	// Cucumber Messages protocol names them.
	Type string `json:"type"`
	// Flags are a regular expression's flags.
	Flags string `json:"flags,omitempty"`
	// Keyword is Given, When or Then; "" for defineStep.
	Keyword     string   `json:"keyword"`
	Description string   `json:"description"`
	Examples    []string `json:"examples"`
	// Category is the library file's name without extension for a
	// built-in step ("navigation"), the file for a project's.
	Category string `json:"category"`
	Builtin  bool   `json:"builtin"`
	// Source is file:line.
	Source string `json:"source"`
}

// ParameterType is a parameter type the code defined.
type ParameterType struct {
	Name    string   `json:"name"`
	Regexps []string `json:"regexps"`
	Builtin bool     `json:"builtin"`
	Source  string   `json:"source"`
}

// Step pattern types.
const (
	CucumberExpression = "CucumberExpression"
	RegularExpression  = "RegularExpression"
)

// FromRegistry lists a registry's steps and parameter types in definition
// order (the library's first, then the project's).
func FromRegistry(reg *jsbridge.Registry) *Catalogue {
	c := &Catalogue{Steps: []Step{}, ParameterTypes: []ParameterType{}}
	for _, d := range reg.Steps {
		s := Step{
			Expression:  d.Pattern,
			Type:        CucumberExpression,
			Keyword:     d.Keyword,
			Description: strings.TrimSpace(d.Description),
			Examples:    append([]string{}, d.Examples...),
			Category:    category(d.Source),
			Builtin:     d.Source.IsLibrary(),
			Source:      d.Source.String(),
		}
		if d.IsRegexp {
			s.Type, s.Flags = RegularExpression, d.Flags
		}
		c.Steps = append(c.Steps, s)
	}
	for _, p := range reg.ParamTypes {
		c.ParameterTypes = append(c.ParameterTypes, ParameterType{
			Name: p.Name, Regexps: append([]string{}, p.Regexps...), Builtin: p.Source.IsLibrary(), Source: p.Source.String(),
		})
	}
	return c
}

// category is "navigation" for "ferridriver:steps/navigation.ts" (the path
// inside the library, without extension: "api/request" for a file in a
// folder) and the file itself for a project's step.
func category(src jsbridge.SourceRef) string {
	if !src.IsLibrary() {
		if src.URI == "" {
			return "project"
		}
		return src.URI
	}
	p := strings.TrimPrefix(src.URI, jsbridge.LibraryScheme)
	if _, rest, ok := strings.Cut(p, "/"); ok {
		p = rest
	}
	return strings.TrimSuffix(p, path.Ext(p))
}

// BuiltinOnly keeps the library's steps and parameter types.
func (c *Catalogue) BuiltinOnly() *Catalogue {
	out := &Catalogue{Steps: []Step{}, ParameterTypes: []ParameterType{}}
	for _, s := range c.Steps {
		if s.Builtin {
			out.Steps = append(out.Steps, s)
		}
	}
	for _, p := range c.ParameterTypes {
		if p.Builtin {
			out.ParameterTypes = append(out.ParameterTypes, p)
		}
	}
	return out
}

// Filter keeps the steps whose expression, description or category
// contains every word of text, ignoring case, and the parameter types
// their expressions use; "" keeps everything.
func (c *Catalogue) Filter(text string) *Catalogue {
	words := strings.Fields(strings.ToLower(text))
	if len(words) == 0 {
		return c
	}
	out := &Catalogue{Steps: []Step{}, ParameterTypes: []ParameterType{}}
	for _, s := range c.Steps {
		hay := strings.ToLower(s.Keyword + " " + s.Expression + "\n" + s.Description + "\n" + s.Category)
		all := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				all = false
				break
			}
		}
		if all {
			out.Steps = append(out.Steps, s)
		}
	}
	for _, p := range c.ParameterTypes {
		for _, s := range out.Steps {
			if s.Type == CucumberExpression && strings.Contains(s.Expression, "{"+p.Name+"}") {
				out.ParameterTypes = append(out.ParameterTypes, p)
				break
			}
		}
	}
	return out
}

// Group is the steps of one category, in definition order.
type Group struct {
	Category string
	Builtin  bool
	Steps    []Step
}

// Groups splits the steps by category, in the order categories first
// appear.
func (c *Catalogue) Groups() []Group {
	var out []Group
	at := map[string]int{}
	for _, s := range c.Steps {
		key := s.Category
		if s.Builtin {
			key = "\x00" + key // a project file never clashes with a library category
		}
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			out = append(out, Group{Category: s.Category, Builtin: s.Builtin})
		}
		out[i].Steps = append(out[i].Steps, s)
	}
	return out
}

// Title is the step as a feature writes it: keyword and expression
// (`/source/flags` for a regular expression).
func (s Step) Title() string {
	e := s.Expression
	if s.Type == RegularExpression {
		e = "/" + e + "/" + s.Flags
	}
	if s.Keyword == "" {
		return e
	}
	return s.Keyword + " " + e
}

// Summary is the description's first line.
func (s Step) Summary() string {
	line, _, _ := strings.Cut(s.Description, "\n")
	return strings.TrimSpace(line)
}

// Counts returns the number of built-in and project steps.
func (c *Catalogue) Counts() (builtin, project int) {
	for _, s := range c.Steps {
		if s.Builtin {
			builtin++
		} else {
			project++
		}
	}
	return builtin, project
}
