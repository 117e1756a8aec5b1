package formatters

import (
	"strings"
	"unicode/utf8"
)

// A minimal XML tree serialised exactly as the npm package xmlbuilder
// (used by @cucumber/junit-xml-formatter) does with {pretty: true}: two-space
// indentation, "\n" line ends, empty elements self-closed, an element whose
// only child is text or CDATA kept on one line, invalid XML characters
// removed, no trailing newline.

type xmlNode interface{ isXMLNode() }

type xmlAttr struct{ name, value string }

type xmlElement struct {
	name     string
	attrs    []xmlAttr
	children []xmlNode
}

type xmlCData struct{ value string }

func (*xmlElement) isXMLNode() {}
func (*xmlCData) isXMLNode()   {}

func (e *xmlElement) attr(name, value string) *xmlElement {
	for i := range e.attrs {
		if e.attrs[i].name == name {
			e.attrs[i].value = value
			return e
		}
	}
	e.attrs = append(e.attrs, xmlAttr{name, value})
	return e
}

func (e *xmlElement) ele(name string) *xmlElement {
	c := &xmlElement{name: name}
	e.children = append(e.children, c)
	return c
}

// cdata appends a CDATA section. A "]]>" inside the text is split across
// two sections so the document stays well-formed.
func (e *xmlElement) cdata(text string) {
	text = xmlValidChars(text)
	e.children = append(e.children, &xmlCData{value: strings.ReplaceAll(text, "]]>", "]]]]><![CDATA[>")})
}

// xmlDocument serialises root after an XML declaration.
func xmlDocument(root *xmlElement) string {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n")
	writeXMLElement(&b, root, 0)
	return strings.TrimSuffix(b.String(), "\n")
}

func writeXMLElement(b *strings.Builder, e *xmlElement, level int) {
	indent := strings.Repeat("  ", level)
	b.WriteString(indent + "<" + e.name)
	for _, a := range e.attrs {
		b.WriteString(" " + a.name + `="` + xmlEscapeAttr(a.value) + `"`)
	}
	empty := true
	for _, c := range e.children {
		if cd, ok := c.(*xmlCData); !ok || cd.value != "" {
			empty = false
		}
	}
	switch {
	case empty:
		b.WriteString("/>\n")
	case len(e.children) == 1 && isCData(e.children[0]):
		b.WriteString("><![CDATA[" + e.children[0].(*xmlCData).value + "]]></" + e.name + ">\n")
	default:
		b.WriteString(">\n")
		for _, c := range e.children {
			switch n := c.(type) {
			case *xmlElement:
				writeXMLElement(b, n, level+1)
			case *xmlCData:
				b.WriteString(strings.Repeat("  ", level+1) + "<![CDATA[" + n.value + "]]>\n")
			}
		}
		b.WriteString(indent + "</" + e.name + ">\n")
	}
}

func isCData(n xmlNode) bool { _, ok := n.(*xmlCData); return ok }

var xmlAttrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;", "\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;")

func xmlEscapeAttr(s string) string { return xmlAttrEscaper.Replace(xmlValidChars(s)) }

// xmlValidChars drops the characters XML 1.0 does not allow (control
// characters other than tab, LF and CR; U+FFFE and U+FFFF; invalid UTF-8).
func xmlValidChars(s string) string {
	ok := true
	for _, r := range s {
		if !xmlCharOK(r) {
			ok = false
			break
		}
	}
	if ok && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !(r == utf8.RuneError && size == 1) && xmlCharOK(r) {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func xmlCharOK(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20:
		return false
	case r == 0xfffe || r == 0xffff:
		return false
	case r >= 0xd800 && r <= 0xdfff:
		return false
	}
	return true
}
