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
// Headings are of level 3, to sit under a page's own sections.
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
		fmt.Fprintf(&b, "\n### %s\n\n", g.Category)
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
		b.WriteString("\n### Parameter types\n\n| Name | Regular expression | Source |\n|---|---|---|\n")
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

// Markers delimit the generated part of a Markdown file, each on a line
// of its own; the text around them is the author's (which may mention the
// markers in a sentence).
const (
	BeginMarker = "<!-- generated:begin -->"
	EndMarker   = "<!-- generated:end -->"
)

// markerLines returns the offsets of the lines of doc that are marker
// alone (surrounding spaces allowed), each from its line's start to its
// end, without the line break.
func markerLines(doc, marker string) [][2]int {
	var out [][2]int
	start := 0
	for start <= len(doc) {
		end := strings.IndexByte(doc[start:], '\n')
		if end < 0 {
			end = len(doc)
		} else {
			end += start
		}
		if strings.TrimSpace(doc[start:end]) == marker {
			out = append(out, [2]int{start, end})
		}
		start = end + 1
	}
	return out
}

// Splice puts generated between the marker lines of doc, keeping what
// surrounds them; a doc without them gets them, with generated, at its
// end.
func Splice(doc, generated string) (string, error) {
	generated = strings.TrimRight(generated, "\n") + "\n"
	begins, ends := markerLines(doc, BeginMarker), markerLines(doc, EndMarker)
	switch {
	case len(begins) == 0 && len(ends) == 0:
		sep := ""
		if doc != "" {
			sep = "\n"
			if !strings.HasSuffix(doc, "\n") {
				sep = "\n\n"
			}
		}
		return doc + sep + BeginMarker + "\n" + generated + EndMarker + "\n", nil
	case len(begins) > 1 || len(ends) > 1:
		return "", fmt.Errorf("the markers %s and %s must each be on one line only", BeginMarker, EndMarker)
	case len(begins) == 0 || len(ends) == 0 || ends[0][0] < begins[0][1]:
		return "", fmt.Errorf("the markers %s and %s must both be there, each on a line of its own, in that order", BeginMarker, EndMarker)
	}
	return doc[:begins[0][1]] + "\n" + generated + doc[ends[0][0]:], nil
}

// Generated returns the text between the marker lines of doc (false when
// they are not both there, once each, in order).
func Generated(doc string) (string, bool) {
	begins, ends := markerLines(doc, BeginMarker), markerLines(doc, EndMarker)
	if len(begins) != 1 || len(ends) != 1 || ends[0][0] < begins[0][1] {
		return "", false
	}
	return strings.TrimPrefix(doc[begins[0][1]:ends[0][0]], "\n"), true
}
