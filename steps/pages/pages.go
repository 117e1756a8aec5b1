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
	// Line and Column (1-based) say where; 0 when it is not in one place
	// (two files define one page).
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	case e.Line > 0:
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

// entry is a name and its locator as read from a file, with where the
// name is (line and column) and the column where the locator's text
// starts on that line (0 when not known: a multi-line value).
type entry struct {
	name, value string
	line, col   int
	valueCol    int
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
		fail := func(msg string) error { return &Error{File: name, Line: e.line, Column: e.col, Msg: msg} }
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
				// Point at the error in the file when the value's place
				// is known; else say the column within the value.
				var se *SyntaxError
				if errors.As(err, &se) && e.valueCol > 0 {
					return nil, &Error{File: name, Line: e.line, Column: e.valueCol + se.Col - 1, Msg: fmt.Sprintf("%s: %s: %s", e.name, e.value, se.Msg)}
				}
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
		return nil, yamlError(name, data, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil // an empty file
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, &Error{File: name, Line: root.Line, Column: root.Column, Msg: "expected a mapping of element names to locators (User: getByLabel('User'))"}
	}
	var out []entry
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!null") {
			return nil, &Error{File: name, Line: v.Line, Column: v.Column, Msg: fmt.Sprintf("%s: expected a locator string, got %s", k.Value, yamlKind(v))}
		}
		e := entry{name: k.Value, value: v.Value, line: k.Line, col: k.Column}
		switch v.Style {
		case 0:
			e.valueCol = v.Column
		case yaml.SingleQuotedStyle:
			if !strings.Contains(v.Value, "'") {
				e.valueCol = v.Column + 1 // after the quote, when nothing in it was escaped
			}
		case yaml.DoubleQuotedStyle:
			if !strings.ContainsAny(v.Value, `"\`) {
				e.valueCol = v.Column + 1
			}
		}
		out = append(out, e)
	}
	return out, nil
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): `)

// yamlError gives the YAML library's error the file:line:column form. The
// library leaves out "line 1" and never gives a column: an error without a
// line is on the first, and the column is the place of the problem when
// it is known (the ": " of an unquoted locator), else the line's first
// character. The common mistake of a locator with ": " in it left
// unquoted gets a hint that quotes the user's own line, quoted.
func yamlError(name string, data []byte, err error) error {
	msg := err.Error()
	line := 1
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	text := lineOf(data, line)
	col := len(text) - len(strings.TrimLeft(text, " \t")) + 1
	if strings.Contains(msg, "mapping values are not allowed") {
		if key, value, ok := strings.Cut(text, ": "); ok {
			if i := strings.Index(value, ": "); i >= 0 {
				col = len(key) + 2 + i + 1
			}
			msg += fmt.Sprintf(" (a locator with \": \" in it must be quoted: %s: %s)", strings.TrimSpace(key), yamlQuote(strings.TrimSpace(value)))
		}
	}
	return &Error{File: name, Line: line, Column: col, Msg: msg}
}

// lineOf returns line n (1-based) of data, "" past its end.
func lineOf(data []byte, n int) string {
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimRight(lines[n-1], "\r")
}

// yamlQuote quotes s as a YAML double-quoted string.
func yamlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
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
			line, col := 0, 0
			if it := e.Key(); it.Next() {
				start := p.Shape(it.Node().Raw).Start
				line, col = start.Line, start.Column
			}
			return nil, &Error{File: name, Line: line, Column: col, Msg: "page files are flat: `name = \"locator\"` lines, no tables"}
		default:
			continue
		}
		value := e.Value()
		var keys []string
		var line, col int
		for it := e.Key(); it.Next(); {
			k := it.Node()
			keys = append(keys, string(k.Data))
			if line == 0 {
				start := p.Shape(k.Raw).Start
				line, col = start.Line, start.Column
			}
		}
		if len(keys) != 1 {
			return nil, &Error{File: name, Line: line, Column: col, Msg: fmt.Sprintf("%s: quote a name with dots (\"%s\" = ...)", strings.Join(keys, "."), strings.Join(keys, "."))}
		}
		if value.Kind != unstable.String {
			return nil, &Error{File: name, Line: line, Column: col, Msg: fmt.Sprintf("%s: expected a locator string", keys[0])}
		}
		en := entry{name: keys[0], value: string(value.Data), line: line, col: col}
		// The text after the quote, when nothing in it was escaped.
		if raw := p.Raw(value.Raw); len(raw) >= 2 && string(raw[1:len(raw)-1]) == en.value {
			en.valueCol = p.Shape(value.Raw).Start.Column + 1
		}
		out = append(out, en)
	}
	if err := p.Error(); err != nil {
		var perr *unstable.ParserError
		if errors.As(err, &perr) {
			start := p.Shape(p.Range(perr.Highlight)).Start
			return nil, &Error{File: name, Line: start.Line, Column: start.Column, Msg: perr.Message}
		}
		return nil, &Error{File: name, Msg: err.Error()}
	}
	return out, nil
}

func readJSON(name string, data []byte) ([]entry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	// where is the line and column of a byte offset.
	where := func(off int64) (line, col int) {
		before := data[:min(int(off), len(data))]
		return bytes.Count(before, []byte("\n")) + 1, len(before) - bytes.LastIndexByte(before, '\n')
	}
	fail := func(off int64, msg string) error {
		line, col := where(off)
		return &Error{File: name, Line: line, Column: col, Msg: msg}
	}
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
		// The decoder is past the key: its start is its length back.
		keyEnd := dec.InputOffset()
		line, col := where(keyEnd)
		if q, err := json.Marshal(key); err == nil {
			col = max(col-len(q), 1)
		}
		vt, err := dec.Token()
		if err != nil {
			return nil, fail(dec.InputOffset(), err.Error())
		}
		v, ok := vt.(string)
		if !ok {
			return nil, &Error{File: name, Line: line, Column: col, Msg: fmt.Sprintf("%s: expected a locator string", key)}
		}
		e := entry{name: key, value: v, line: line, col: col}
		// The text after the quote, when the value has no escape and
		// is on the key's line.
		if q, err := json.Marshal(v); err == nil {
			end := int(dec.InputOffset())
			if start := end - len(q); start >= 0 && string(data[start:end]) == string(q) {
				if l, c := where(int64(start)); l == line {
					e.valueCol = c + 1
				}
			}
		}
		out = append(out, e)
	}
	return out, nil
}
