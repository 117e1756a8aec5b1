// Package pages reads page-object files: named locators that a project
// keeps in one place so features say `When I click "Log in"` instead of a
// selector. A file is one page, named after the file (pages/login.yaml is
// the page "login"), and maps each element's name to a locator:
//
//	User: getByLabel('User')
//	Log in: role=button[name="Log in"]
//
// A value is either a locator expression in Playwright's notation
// (getByRole, getByLabel, locator(...).filter(...), nth...), parsed here
// and never evaluated, or a Playwright selector string (css, role=...,
// text=..., xpath, >> chains). Files are YAML, TOML or JSON; every error
// names the file and the line.
package pages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pelletier/go-toml/v2/unstable"
	"go.yaml.in/yaml/v3"

	"github.com/ferridriver/ferridriver/internal/slashpath"
)

// DefaultPatterns are where page-object files are looked for when [steps]
// pages is not set.
var DefaultPatterns = []string{"pages/**/*.{yaml,yml,toml,json}"}

// Page is one page-object file.
type Page struct {
	// Name is the file's name without its extension.
	Name string `json:"name"`
	// File is the file's path relative to the project, slash-separated.
	File     string    `json:"file"`
	Elements []Element `json:"elements"`
}

// Element is one named locator of a page.
type Element struct {
	Name string `json:"name"`
	Line int    `json:"line"`
	// Source is the locator as written in the file.
	Source string `json:"source"`
	// Selector is set when Source is a Playwright selector string.
	Selector string `json:"selector,omitempty"`
	// Chain is set when Source is a locator expression.
	Chain []Call `json:"chain,omitempty"`
	// Params are the {placeholders} of a parameterised element's name
	// ("Product ({name})"), which its locator uses (template.go).
	Params []string `json:"params,omitempty"`
}

// Error is a problem in a page-object file.
type Error struct {
	File string
	Line int // 0 when unknown
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Load reads the page-object files that patterns (globs relative to dir,
// with **) match. No file is fine; page names must be unique (ignoring
// case).
func Load(dir string, patterns []string) ([]Page, error) {
	var files []string
	seen := map[string]bool{}
	for _, pat := range patterns {
		full := pat
		if !filepath.IsAbs(full) {
			full = filepath.Join(dir, pat)
		}
		matches, err := doublestar.FilepathGlob(full, doublestar.WithFilesOnly())
		if err != nil {
			return nil, fmt.Errorf("page-object pattern %q: %w", pat, err)
		}
		for _, m := range matches {
			if !seen[m] {
				seen[m] = true
				files = append(files, m)
			}
		}
	}
	sort.Strings(files)
	var out []Page
	byName := map[string]string{}
	for _, f := range files {
		rel := slashpath.Rel(dir, f)
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		p, err := Parse(rel, data)
		if err != nil {
			return nil, err
		}
		key := strings.ToLower(p.Name)
		if other, ok := byName[key]; ok {
			return nil, &Error{File: rel, Msg: fmt.Sprintf("the page %q is also defined by %s: page names (file names) must be unique", p.Name, other)}
		}
		byName[key] = rel
		out = append(out, *p)
	}
	return out, nil
}

// entry is a name and its locator as read from a file, with their line.
type entry struct {
	name, value string
	line        int
}

// Parse reads one page-object file; name (its path) gives the page's
// name and the format (.yaml/.yml, .toml, .json).
func Parse(name string, data []byte) (*Page, error) {
	var entries []entry
	var err error
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml":
		entries, err = readYAML(name, data)
	case ".toml":
		entries, err = readTOML(name, data)
	case ".json":
		entries, err = readJSON(name, data)
	default:
		return nil, &Error{File: name, Msg: "a page-object file is .yaml, .yml, .toml or .json"}
	}
	if err != nil {
		return nil, err
	}
	base := filepath.Base(name)
	p := &Page{Name: strings.TrimSuffix(base, filepath.Ext(base)), File: name, Elements: []Element{}}
	lines := map[string]int{}
	for _, e := range entries {
		fail := func(msg string) error { return &Error{File: name, Line: e.line, Msg: msg} }
		switch {
		case strings.TrimSpace(e.name) == "":
			return nil, fail("an element needs a name")
		case strings.Contains(e.name, " > "):
			return nil, fail(fmt.Sprintf("%q: an element's name cannot contain \" > \", which separates a page from an element (\"%s > User\")", e.name, p.Name))
		case strings.TrimSpace(e.value) == "":
			return nil, fail(fmt.Sprintf("%s: the locator is empty", e.name))
		}
		if first, ok := lines[e.name]; ok {
			return nil, fail(fmt.Sprintf("%q is already defined on line %d", e.name, first))
		}
		lines[e.name] = e.line
		params, err := templateParams(e.name, e.value)
		if err != nil {
			return nil, fail(err.Error())
		}
		el := Element{Name: e.name, Line: e.line, Source: e.value, Params: params}
		if IsExpression(e.value) {
			chain, err := ParseExpression(e.value)
			if err != nil {
				return nil, fail(fmt.Sprintf("%s: %s: %v", e.name, e.value, err))
			}
			el.Chain = chain
		} else {
			el.Selector = strings.TrimSpace(e.value)
		}
		p.Elements = append(p.Elements, el)
	}
	return p, nil
}

func readYAML(name string, data []byte) ([]entry, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(name, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil // an empty file
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, &Error{File: name, Line: root.Line, Msg: "expected a mapping of element names to locators (User: getByLabel('User'))"}
	}
	var out []entry
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!null") {
			return nil, &Error{File: name, Line: v.Line, Msg: fmt.Sprintf("%s: expected a locator string, got %s", k.Value, yamlKind(v))}
		}
		out = append(out, entry{name: k.Value, value: v.Value, line: k.Line})
	}
	return out, nil
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlError gives the YAML library's error the file:line form, with a hint
// for the common mistake of a locator with ": " in it left unquoted.
func yamlError(name string, err error) error {
	msg := err.Error()
	line := 0
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if strings.Contains(msg, "mapping values are not allowed") {
		msg += ` (a locator with ": " in it must be quoted: Log in: "getByRole('button', { name: 'Log in' })")`
	}
	return &Error{File: name, Line: line, Msg: msg}
}

func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping (page files are flat: one name and one locator per line)"
	case yaml.SequenceNode:
		return "a list"
	}
	return strings.TrimPrefix(n.Tag, "!!") + " " + n.Value + " (quote it)"
}

func readTOML(name string, data []byte) ([]entry, error) {
	p := unstable.Parser{KeepComments: false}
	p.Reset(data)
	var out []entry
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.KeyValue:
		case unstable.Table, unstable.ArrayTable:
			line := 0
			if it := e.Key(); it.Next() {
				line = p.Shape(it.Node().Raw).Start.Line
			}
			return nil, &Error{File: name, Line: line, Msg: "page files are flat: `name = \"locator\"` lines, no tables"}
		default:
			continue
		}
		value := e.Value()
		var keys []string
		var line int
		for it := e.Key(); it.Next(); {
			k := it.Node()
			keys = append(keys, string(k.Data))
			if line == 0 {
				line = p.Shape(k.Raw).Start.Line
			}
		}
		if len(keys) != 1 {
			return nil, &Error{File: name, Line: line, Msg: fmt.Sprintf("%s: quote a name with dots (\"%s\" = ...)", strings.Join(keys, "."), strings.Join(keys, "."))}
		}
		if value.Kind != unstable.String {
			return nil, &Error{File: name, Line: line, Msg: fmt.Sprintf("%s: expected a locator string", keys[0])}
		}
		out = append(out, entry{name: keys[0], value: string(value.Data), line: line})
	}
	if err := p.Error(); err != nil {
		var perr *unstable.ParserError
		if errors.As(err, &perr) {
			return nil, &Error{File: name, Line: p.Shape(p.Range(perr.Highlight)).Start.Line, Msg: perr.Message}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	return out, nil
}

func readJSON(name string, data []byte) ([]entry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	lineAt := func(off int64) int { return bytes.Count(data[:min(int(off), len(data))], []byte("\n")) + 1 }
	fail := func(off int64, msg string) error { return &Error{File: name, Line: lineAt(off), Msg: msg} }
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, fail(dec.InputOffset(), err.Error())
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fail(dec.InputOffset(), "expected an object of element names to locators")
	}
	var out []entry
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, fail(dec.InputOffset(), err.Error())
		}
		key := kt.(string)
		line := lineAt(dec.InputOffset())
		vt, err := dec.Token()
		if err != nil {
			return nil, fail(dec.InputOffset(), err.Error())
		}
		v, ok := vt.(string)
		if !ok {
			return nil, &Error{File: name, Line: line, Msg: fmt.Sprintf("%s: expected a locator string", key)}
		}
		out = append(out, entry{name: key, value: v, line: line})
	}
	return out, nil
}
