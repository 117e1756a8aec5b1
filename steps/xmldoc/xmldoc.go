// Package xmldoc reads XML documents for the built-in step library: an
// XML response as a tree (for matching it against an expected document)
// and XPath queries over it. The library's JavaScript has no DOMParser, so
// both run in Go (antchfx/xmlquery and antchfx/xpath) and reach it as the
// module "ferridriver/xml": parse(xml) and xpath(xml, expression).
package xmldoc

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"

	"github.com/antchfx/xmlquery"
	"github.com/antchfx/xpath"
	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// Module is the import specifier of the JavaScript module.
const Module = "ferridriver/xml"

// Element is an element of a parsed document.
type Element struct {
	Name string `json:"name"`
	// Attributes by their qualified name (prefix:name), in document order.
	Attributes Attributes `json:"attributes"`
	// Text is the element's own text (not its children's), whitespace trimmed.
	Text     string     `json:"text"`
	Children []*Element `json:"children"`
	Line     int        `json:"line"`
}

// Attributes are an element's attributes in document order; as JSON, an
// object with the keys in that order.
type Attributes []Attribute

// Attribute is one attribute of an element.
type Attribute struct{ Name, Value string }

// Get returns the value of the attribute name and whether there is one.
func (as Attributes) Get(name string) (string, bool) {
	for _, a := range as {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// MarshalJSON writes the attributes as an object, in document order.
func (as Attributes) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, a := range as {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(a.Name)
		v, _ := json.Marshal(a.Value)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// Error is a document that is not XML, or an XPath that is not valid.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func parseDoc(src string) (*xmlquery.Node, error) {
	doc, err := xmlquery.Parse(strings.NewReader(src))
	if err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return nil, &Error{fmt.Sprintf("not valid XML: %s (line %d)", se.Msg, se.Line)}
		}
		return nil, &Error{"not valid XML: " + err.Error()}
	}
	if root := rootElement(doc); root == nil {
		return nil, &Error{"not valid XML: no root element"}
	}
	return doc, nil
}

func rootElement(doc *xmlquery.Node) *xmlquery.Node {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xmlquery.ElementNode {
			return c
		}
	}
	return nil
}

func qualified(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

// Parse reads a document into its root element's tree.
func Parse(src string) (*Element, error) {
	doc, err := parseDoc(src)
	if err != nil {
		return nil, err
	}
	return tree(rootElement(doc)), nil
}

func tree(n *xmlquery.Node) *Element {
	e := &Element{Name: qualified(n.Prefix, n.Data), Attributes: Attributes{}, Children: []*Element{}, Line: n.LineNumber}
	for _, a := range n.Attr {
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			continue // namespace declarations are not data
		}
		e.Attributes = append(e.Attributes, Attribute{qualified(a.Name.Space, a.Name.Local), a.Value})
	}
	var text strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case xmlquery.ElementNode:
			e.Children = append(e.Children, tree(c))
		case xmlquery.TextNode, xmlquery.CharDataNode:
			text.WriteString(c.Data)
		}
	}
	e.Text = strings.TrimSpace(text.String())
	return e
}

// Match is one node an XPath selects.
type Match struct {
	// Kind is "element", "attribute", "text" or another node type.
	Kind string `json:"kind"`
	Name string `json:"name"`
	// Text is the node's text (an element's whole inner text), trimmed.
	Text string `json:"text"`
	// XML is an element's markup.
	XML string `json:"xml,omitempty"`
}

// Result is what an XPath gives: nodes, or a number, a string or a
// boolean (count(//user), string(/a/@id), boolean(//b)).
type Result struct {
	// Nodes are the nodes of a node set, in document order.
	Nodes []Match `json:"nodes"`
	// Value is the value of an expression that is not a node set.
	Value any `json:"value"`
	// IsNodeSet says which of the two the result is.
	IsNodeSet bool `json:"isNodeSet"`
}

// Query evaluates an XPath expression over a document.
func Query(src, expr string) (*Result, error) {
	compiled, err := xpath.Compile(expr)
	if err != nil {
		return nil, &Error{fmt.Sprintf("the XPath %q is not valid: %v", expr, err)}
	}
	doc, err := parseDoc(src)
	if err != nil {
		return nil, err
	}
	switch v := compiled.Evaluate(xmlquery.CreateXPathNavigator(doc)).(type) {
	case *xpath.NodeIterator:
		r := &Result{IsNodeSet: true, Nodes: []Match{}}
		for v.MoveNext() {
			nav, ok := v.Current().(*xmlquery.NodeNavigator)
			if !ok {
				continue
			}
			m := Match{Name: qualified(nav.Prefix(), nav.LocalName())}
			switch nav.NodeType() {
			case xpath.AttributeNode:
				m.Kind, m.Text = "attribute", nav.Value()
			case xpath.ElementNode:
				n := nav.Current()
				m.Kind, m.Text, m.XML = "element", strings.TrimSpace(n.InnerText()), n.OutputXML(true)
			case xpath.TextNode:
				m.Kind, m.Name, m.Text = "text", "", strings.TrimSpace(nav.Current().Data)
			default:
				m.Kind, m.Text = "node", strings.TrimSpace(nav.Value())
			}
			r.Nodes = append(r.Nodes, m)
		}
		return r, nil
	default:
		return &Result{Value: v}, nil
	}
}

func init() {
	jsbridge.RegisterModule(Module, func(vm *jsbridge.VM) (goja.Value, error) {
		rt := vm.Runtime()
		o := rt.NewObject()
		fail := func(err error) {
			panic(jsbridge.ErrorValue(rt, err))
		}
		o.Set("parse", func(call goja.FunctionCall) goja.Value {
			e, err := Parse(call.Argument(0).String())
			if err != nil {
				fail(err)
			}
			return jsValue(rt, e)
		})
		o.Set("xpath", func(call goja.FunctionCall) goja.Value {
			r, err := Query(call.Argument(0).String(), call.Argument(1).String())
			if err != nil {
				fail(err)
			}
			return jsValue(rt, r)
		})
		return o, nil
	})
}

// jsValue is v as plain JavaScript data, through its JSON form parsed by
// the VM's JSON.parse (so field names are the JSON tags and keys keep
// their order).
func jsValue(rt *goja.Runtime, v any) goja.Value {
	b, err := json.Marshal(v)
	if err != nil {
		panic(jsbridge.ErrorValue(rt, err))
	}
	parse, _ := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("parse"))
	out, err := parse(goja.Undefined(), rt.ToValue(string(b)))
	if err != nil {
		panic(jsbridge.ErrorValue(rt, err))
	}
	return out
}
