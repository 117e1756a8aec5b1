package gojacompat

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// goja's regular expressions have no Unicode property escapes (\p{L},
// \P{Script=Greek}): it reads /\p{L}/u as a literal "p{L}" and matches
// nothing. LowerUnicodePropertyEscapes rewrites each into the character
// class it stands for, built from Go's Unicode tables, in the regular
// expressions of code that esbuild has turned into new RegExp("...",
// "...u") calls (its "regexp-sticky-and-unicode-flags" lowering, which
// covers every literal a property escape can be in: they need the u
// flag). The pattern is then a string whose classes and escapes can be
// read exactly.

// newRegExpRE matches a new RegExp call of two string literals, as
// esbuild prints it.
var newRegExpRE = regexp.MustCompile(`new RegExp\(("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'), ("[dgimsuvy]*"|'[dgimsuvy]*')\)`)

// LowerUnicodePropertyEscapes returns code with the Unicode property
// escapes of its new RegExp(pattern, flags) calls (string literals, the
// u flag) replaced by character classes. A property it does not know is
// an error.
func LowerUnicodePropertyEscapes(code string) (string, error) {
	var firstErr error
	out := newRegExpRE.ReplaceAllStringFunc(code, func(call string) string {
		m := newRegExpRE.FindStringSubmatch(call)
		flags, err := unquoteJS(m[2])
		if err != nil || !strings.Contains(flags, "u") {
			return call
		}
		pattern, err := unquoteJS(m[1])
		if err != nil {
			return call
		}
		lowered, changed, err := lowerPattern(pattern)
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("regular expression /%s/%s: %w", pattern, flags, err)
			}
			return call
		}
		if !changed {
			return call
		}
		return "new RegExp(" + quoteJS(lowered) + ", " + m[2] + ")"
	})
	return out, firstErr
}

// lowerPattern replaces the property escapes of a u-flag pattern; changed
// says whether it had any.
func lowerPattern(p string) (string, bool, error) {
	var b strings.Builder
	inClass, changed := false, false
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p) && (p[i+1] == 'p' || p[i+1] == 'P') && i+2 < len(p) && p[i+2] == '{':
			end := strings.IndexByte(p[i+3:], '}')
			if end < 0 {
				return "", false, fmt.Errorf("unterminated %s", p[i:])
			}
			name := p[i+3 : i+3+end]
			ranges, err := propertyRanges(name)
			if err != nil {
				return "", false, err
			}
			if p[i+1] == 'P' {
				ranges = complement(ranges)
			}
			if !inClass {
				b.WriteByte('[')
			}
			writeRanges(&b, ranges)
			if !inClass {
				b.WriteByte(']')
			}
			changed = true
			i += 3 + end + 1
		case c == '\\' && i+1 < len(p):
			// Any other escape, \] and \[ included, as it is.
			_, size := utf8.DecodeRuneInString(p[i+1:])
			b.WriteString(p[i : i+1+size])
			i += 1 + size
		default:
			if c == '[' && !inClass {
				inClass = true
			} else if c == ']' && inClass {
				inClass = false
			}
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), changed, nil
}

// codeRange is an inclusive range of code points.
type codeRange struct{ lo, hi rune }

func writeRanges(b *strings.Builder, rs []codeRange) {
	for _, r := range rs {
		fmt.Fprintf(b, `\u{%X}`, r.lo)
		if r.hi != r.lo {
			fmt.Fprintf(b, `-\u{%X}`, r.hi)
		}
	}
}

// generalCategories maps the long names of the Unicode General_Category
// values (PropertyValueAliases.txt) to their short names.
var generalCategories = map[string]string{
	"Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Unassigned": "Cn", "Private_Use": "Co", "Surrogate": "Cs",
	"Letter": "L", "Cased_Letter": "LC", "Lowercase_Letter": "Ll", "Modifier_Letter": "Lm", "Other_Letter": "Lo",
	"Titlecase_Letter": "Lt", "Uppercase_Letter": "Lu",
	"Mark": "M", "Combining_Mark": "M", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Nonspacing_Mark": "Mn",
	"Number": "N", "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
	"Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd", "Close_Punctuation": "Pe",
	"Final_Punctuation": "Pf", "Initial_Punctuation": "Pi", "Other_Punctuation": "Po", "Open_Punctuation": "Ps",
	"Symbol": "S", "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Math_Symbol": "Sm", "Other_Symbol": "So",
	"Separator": "Z", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Space_Separator": "Zs",
}

// propertyRanges resolves a property escape's name as ECMAScript does: a
// General_Category value, a binary property, or Name=Value for
// General_Category (gc) and Script (sc).
func propertyRanges(name string) ([]codeRange, error) {
	key, value, hasValue := strings.Cut(name, "=")
	if !hasValue {
		if rs, ok := categoryRanges(name); ok {
			return rs, nil
		}
		switch name {
		case "Any":
			return []codeRange{{0, unicode.MaxRune}}, nil
		case "ASCII":
			return []codeRange{{0, 0x7f}}, nil
		case "Assigned":
			return complement(unassigned()), nil
		}
		if t, ok := unicode.Properties[name]; ok {
			return tableRanges(t), nil
		}
		return nil, fmt.Errorf("unknown Unicode property \\p{%s}", name)
	}
	switch key {
	case "General_Category", "gc":
		if rs, ok := categoryRanges(value); ok {
			return rs, nil
		}
	case "Script", "sc":
		if t, ok := unicode.Scripts[value]; ok {
			return tableRanges(t), nil
		}
	}
	return nil, fmt.Errorf("unsupported Unicode property \\p{%s}", name)
}

// categoryRanges resolves a General_Category value (short or long name).
// Go's tables have no Cn (unassigned) and no LC; its C lacks Cn.
func categoryRanges(v string) ([]codeRange, bool) {
	if short, ok := generalCategories[v]; ok {
		v = short
	}
	switch v {
	case "Cn":
		return unassigned(), true
	case "C":
		return union(tableRanges(unicode.C), unassigned()), true
	case "LC":
		return union(tableRanges(unicode.Lu), tableRanges(unicode.Ll), tableRanges(unicode.Lt)), true
	}
	if t, ok := unicode.Categories[v]; ok {
		return tableRanges(t), true
	}
	return nil, false
}

// unassigned is every code point in no General_Category of Go's tables.
func unassigned() []codeRange {
	var all [][]codeRange
	for _, name := range []string{"C", "L", "M", "N", "P", "S", "Z"} {
		all = append(all, tableRanges(unicode.Categories[name]))
	}
	return complement(union(all...))
}

func tableRanges(t *unicode.RangeTable) []codeRange {
	var rs []codeRange
	add := func(lo, hi, stride rune) {
		if stride == 1 {
			rs = append(rs, codeRange{lo, hi})
			return
		}
		for c := lo; c <= hi; c += stride {
			rs = append(rs, codeRange{c, c})
		}
	}
	for _, r := range t.R16 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	for _, r := range t.R32 {
		add(rune(r.Lo), rune(r.Hi), rune(r.Stride))
	}
	return union(rs)
}

// union sorts and merges ranges.
func union(sets ...[]codeRange) []codeRange {
	var all []codeRange
	for _, s := range sets {
		all = append(all, s...)
	}
	slices.SortFunc(all, func(a, b codeRange) int { return int(a.lo - b.lo) })
	var out []codeRange
	for _, r := range all {
		if n := len(out); n > 0 && r.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// complement is every code point not in rs (sorted and merged).
func complement(rs []codeRange) []codeRange {
	var out []codeRange
	next := rune(0)
	for _, r := range rs {
		if r.lo > next {
			out = append(out, codeRange{next, r.lo - 1})
		}
		next = r.hi + 1
	}
	if next <= unicode.MaxRune {
		out = append(out, codeRange{next, unicode.MaxRune})
	}
	return out
}

// unquoteJS reads a JavaScript string literal ('...' or "...").
func unquoteJS(lit string) (string, error) {
	if len(lit) < 2 || (lit[0] != '"' && lit[0] != '\'') || lit[len(lit)-1] != lit[0] {
		return "", fmt.Errorf("not a string literal: %s", lit)
	}
	s := lit[1 : len(lit)-1]
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("bad escape in %s", lit)
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\n':
			// A line continuation.
		case 'x', 'u':
			var hex string
			switch {
			case e == 'x' && i+2 <= len(s):
				hex, i = s[i:i+2], i+2
			case e == 'u' && i < len(s) && s[i] == '{':
				end := strings.IndexByte(s[i:], '}')
				if end < 0 {
					return "", fmt.Errorf("bad escape in %s", lit)
				}
				hex, i = s[i+1:i+end], i+end+1
			case e == 'u' && i+4 <= len(s):
				hex, i = s[i:i+4], i+4
			default:
				return "", fmt.Errorf("bad escape in %s", lit)
			}
			n, err := strconv.ParseUint(hex, 16, 32)
			if err != nil {
				return "", fmt.Errorf("bad escape in %s", lit)
			}
			r := rune(n)
			// A surrogate pair written as two \u escapes.
			if utf16High(r) && strings.HasPrefix(s[i:], `\u`) && i+6 <= len(s) {
				if lo, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil && utf16Low(rune(lo)) {
					r = (r-0xd800)<<10 + (rune(lo) - 0xdc00) + 0x10000
					i += 6
				}
			}
			if utf16High(r) || utf16Low(r) {
				// A lone surrogate: Go strings cannot hold it.
				return "", fmt.Errorf("lone surrogate in %s", lit)
			}
			b.WriteRune(r)
		default:
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

// quoteJS writes s as a JavaScript string literal.
func quoteJS(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func utf16High(r rune) bool { return r >= 0xd800 && r < 0xdc00 }
func utf16Low(r rune) bool  { return r >= 0xdc00 && r < 0xe000 }
