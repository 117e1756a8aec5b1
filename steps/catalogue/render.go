package catalogue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxTitleColumn is the widest step title Text aligns sources after.
const maxTitleColumn = 60

// Text renders the catalogue for a terminal: the steps grouped by
// category, each with its source, description and examples, then the
// parameter types and the counts.
func (c *Catalogue) Text() string {
	var b strings.Builder
	for i, g := range c.Groups() {
		if i > 0 {
			b.WriteString("\n")
		}
		if g.Builtin {
			fmt.Fprintf(&b, "%s (built-in)\n", g.Category)
		} else {
			fmt.Fprintf(&b, "%s\n", g.Category)
		}
		// Sources line up in a column, unless a title is too long for it.
		col := 0
		for _, s := range g.Steps {
			if w := utf8.RuneCountInString(s.Title()); w <= maxTitleColumn {
				col = max(col, w)
			}
		}
		for _, s := range g.Steps {
			title := s.Title()
			pad := max(0, col-utf8.RuneCountInString(title))
			fmt.Fprintf(&b, "  %s%s  # %s\n", title, strings.Repeat(" ", pad), s.Source)
			if sum := s.Summary(); sum != "" {
				fmt.Fprintf(&b, "      %s\n", sum)
			}
			for j, ex := range s.Examples {
				prefix := "e.g. "
				if j > 0 {
					prefix = "     "
				}
				for k, line := range strings.Split(ex, "\n") {
					if k > 0 {
						prefix = "     "
					}
					fmt.Fprintf(&b, "      %s%s\n", prefix, line)
				}
			}
		}
	}
	if len(c.ParameterTypes) > 0 {
		if len(c.Steps) > 0 {
			b.WriteString("\n")
		}
		b.WriteString("Parameter types\n")
		for _, p := range c.ParameterTypes {
			fmt.Fprintf(&b, "  {%s}  %s  # %s\n", p.Name, regexpsText(p.Regexps), p.Source)
		}
	}
	if len(c.Steps) > 0 || len(c.ParameterTypes) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(c.countLine() + "\n")
	return b.String()
}

func regexpsText(res []string) string {
	parts := make([]string, len(res))
	for i, r := range res {
		parts[i] = "/" + r + "/"
	}
	return strings.Join(parts, " ")
}

func (c *Catalogue) countLine() string {
	builtin, project := c.Counts()
	return fmt.Sprintf("%s (%d built-in, %d in the project)", plural(len(c.Steps), "step", "steps"), builtin, project)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// JSON renders the catalogue as indented JSON: {steps, parameterTypes}.
func (c *Catalogue) JSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Markdown renders the catalogue for docs: a table of contents, one table
// per category (step, description, examples), then the parameter types.
// Headings start at level 2.
func (c *Catalogue) Markdown() string {
	var b strings.Builder
	groups := c.Groups()
	builtin, project := c.Counts()
	switch {
	case project == 0:
		fmt.Fprintf(&b, "%s in %s.\n\n", plural(builtin, "built-in step", "built-in steps"), plural(len(groups), "category", "categories"))
	default:
		fmt.Fprintf(&b, "%s.\n\n", upperFirst(c.countLine()))
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "- [%s](#%s) (%d)\n", g.Category, anchor(g.Category), len(g.Steps))
	}
	if len(c.ParameterTypes) > 0 {
		fmt.Fprintf(&b, "- [Parameter types](#parameter-types)\n")
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "\n## %s\n\n", g.Category)
		if g.Builtin {
			fmt.Fprintf(&b, "Built-in, from `%s`.\n\n", sourceFile(g.Steps[0].Source))
		}
		b.WriteString("| Step | What it does | Example |\n|---|---|---|\n")
		for _, s := range g.Steps {
			examples := make([]string, len(s.Examples))
			for i, ex := range s.Examples {
				examples[i] = mdCode(ex)
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCode(s.Title()), mdCell(s.Description), strings.Join(examples, "<br>"))
		}
	}
	if len(c.ParameterTypes) > 0 {
		b.WriteString("\n## Parameter types\n\n| Name | Regular expression | Source |\n|---|---|---|\n")
		for _, p := range c.ParameterTypes {
			res := make([]string, len(p.Regexps))
			for i, r := range p.Regexps {
				res[i] = mdCode("/" + r + "/")
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCode("{"+p.Name+"}"), strings.Join(res, "<br>"), mdCode(p.Source))
		}
	}
	return b.String()
}

// sourceFile is the file of a "file:line" source.
func sourceFile(source string) string {
	i := strings.LastIndexByte(source, ':')
	if i < 0 || strings.Trim(source[i+1:], "0123456789") != "" || i == len(source)-1 {
		return source
	}
	return source[:i]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// anchor is the id GitHub gives a heading.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdCell makes text fit in a table cell: one line, pipes escaped.
func mdCell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// mdCode is s as a code span in a table cell: lines joined with <br>
// cannot be in one span, so each line is its own; pipes are escaped
// (GitHub reads \| in a table's code span as a pipe).
func mdCode(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.ReplaceAll(l, "|", `\|`)
		fence := "`"
		for strings.Contains(l, fence) {
			fence += "`"
		}
		if strings.HasPrefix(l, "`") || strings.HasSuffix(l, "`") {
			l = " " + l + " "
		}
		lines[i] = fence + l + fence
	}
	return strings.Join(lines, "<br>")
}

// Markers delimit the generated part of a Markdown file; the text around
// them is the author's.
const (
	BeginMarker = "<!-- generated:begin -->"
	EndMarker   = "<!-- generated:end -->"
)

// Splice puts generated between the markers of doc, keeping what surrounds
// them; a doc without markers gets them, with generated, at its end.
func Splice(doc, generated string) (string, error) {
	generated = strings.TrimRight(generated, "\n") + "\n"
	begin := strings.Index(doc, BeginMarker)
	end := strings.Index(doc, EndMarker)
	switch {
	case begin < 0 && end < 0:
		sep := ""
		if doc != "" {
			sep = "\n"
			if !strings.HasSuffix(doc, "\n") {
				sep = "\n\n"
			}
		}
		return doc + sep + BeginMarker + "\n" + generated + EndMarker + "\n", nil
	case begin < 0 || end < 0 || end < begin:
		return "", fmt.Errorf("the markers %s and %s must both be there, in that order", BeginMarker, EndMarker)
	case strings.Count(doc, BeginMarker) > 1 || strings.Count(doc, EndMarker) > 1:
		return "", fmt.Errorf("the markers %s and %s must appear once each", BeginMarker, EndMarker)
	}
	return doc[:begin+len(BeginMarker)] + "\n" + generated + doc[end:], nil
}

// Generated returns the text between the markers of doc (false when they
// are not both there).
func Generated(doc string) (string, bool) {
	begin := strings.Index(doc, BeginMarker)
	end := strings.Index(doc, EndMarker)
	if begin < 0 || end < begin {
		return "", false
	}
	return strings.TrimPrefix(doc[begin+len(BeginMarker):end], "\n"), true
}
