package jsapi

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// Locators are selectors: getBy*, filter, nth, and/or and chaining only
// build Playwright's selector strings (the "internal:" engines of the
// driver), so they are synchronous and cost no round trip. A regular
// expression is passed with its JS source and flags, so it keeps JS
// semantics in the page. Each locator also carries a description in
// Playwright's own notation (getByTestId('count')), used by toString and
// by assertion messages.

// textMatch is the text argument of getBy*: a string or a RegExp.
type textMatch struct {
	s            string
	regex        bool
	flags        string
	exactDefault bool
}

func (r *Runtime) textArg(v goja.Value, api string) textMatch {
	if src, flags, ok := regexpOf(v); ok {
		return textMatch{s: src, regex: true, flags: flags}
	}
	if isNullish(v) {
		panic(r.rt.NewTypeError("%s", api+": expected a string or a RegExp"))
	}
	return textMatch{s: v.String()}
}

// quoteJSON is s as a JSON string without HTML escaping.
func quoteJSON(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// regexSelector writes a RegExp for a selector: /source/flags, with ">>"
// escaped so it is not taken for a selector separator.
func regexSelector(src, flags string) string {
	return "/" + strings.ReplaceAll(src, ">>", `\>\>`) + "/" + flags
}

// textSelector is the body of internal:text / internal:label /
// internal:has-text: "x"i (substring, case-insensitive) or "x"s (exact).
func textSelector(t textMatch, exact bool) string {
	if t.regex {
		return regexSelector(t.s, t.flags)
	}
	if exact {
		return quoteJSON(t.s) + "s"
	}
	return quoteJSON(t.s) + "i"
}

// attrValue is the value part of an internal:attr / internal:role
// attribute filter.
func attrValue(t textMatch, exact bool) string {
	if t.regex {
		return regexSelector(t.s, t.flags)
	}
	v := `"` + strings.ReplaceAll(strings.ReplaceAll(t.s, `\`, `\\`), `"`, `\"`) + `"`
	if exact {
		return v + "s"
	}
	return v + "i"
}

// jsLiteral writes a value as Playwright writes it in locator
// descriptions: 'single-quoted' strings, /regex/flags.
func jsLiteral(t textMatch) string {
	if t.regex {
		return "/" + t.s + "/" + t.flags
	}
	return jsString(t.s)
}

var jsEscaper = strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`, "\t", `\t`)

func jsString(s string) string { return "'" + jsEscaper.Replace(s) + "'" }

// getBy builds the selector and description of a getBy* call on a root
// (page, frame, frame locator or locator).
func (r *Runtime) getBy(kind string, call goja.FunctionCall) (sel, desc string) {
	api := "getBy" + kind
	switch kind {
	case "TestId":
		t := r.textArg(call.Argument(0), api)
		return "internal:testid=[" + r.testIDAttribute + "=" + attrValue(t, true) + "]", api + "(" + jsLiteral(t) + ")"
	case "Role":
		return r.getByRole(call)
	}
	t := r.textArg(call.Argument(0), api)
	o := r.opts(call.Argument(1))
	exact := false
	if e := o.b("exact"); e != nil {
		exact = *e
	}
	desc = api + "(" + jsLiteral(t)
	if exact {
		desc += ", { exact: true }"
	}
	desc += ")"
	switch kind {
	case "Text":
		return "internal:text=" + textSelector(t, exact), desc
	case "Label":
		return "internal:label=" + textSelector(t, exact), desc
	case "Placeholder":
		return "internal:attr=[placeholder=" + attrValue(t, exact) + "]", desc
	case "AltText":
		return "internal:attr=[alt=" + attrValue(t, exact) + "]", desc
	case "Title":
		return "internal:attr=[title=" + attrValue(t, exact) + "]", desc
	}
	panic(r.rt.NewTypeError("%s", "unknown getBy"+kind))
}

// getByRole: internal:role=<role>[prop=value]... in Playwright's order.
func (r *Runtime) getByRole(call goja.FunctionCall) (sel, desc string) {
	role := call.Argument(0)
	if isNullish(role) {
		panic(r.rt.NewTypeError("%s", "getByRole: expected an ARIA role such as 'button'"))
	}
	o := r.opts(call.Argument(1))
	var b strings.Builder
	b.WriteString("internal:role=")
	b.WriteString(role.String())
	var d []string
	boolProp := func(js, sel string) {
		if v := o.b(js); v != nil {
			b.WriteString("[" + sel + "=" + strconv.FormatBool(*v) + "]")
			d = append(d, js+": "+strconv.FormatBool(*v))
		}
	}
	boolProp("checked", "checked")
	boolProp("disabled", "disabled")
	boolProp("selected", "selected")
	boolProp("expanded", "expanded")
	boolProp("includeHidden", "include-hidden")
	if lv := o.i("level"); lv != nil {
		b.WriteString("[level=" + strconv.Itoa(*lv) + "]")
		d = append(d, "level: "+strconv.Itoa(*lv))
	}
	if nv := o.val("name"); nv != nil {
		t := r.textArg(nv, "getByRole")
		exact := false
		if e := o.b("exact"); e != nil {
			exact = *e
		}
		b.WriteString("[name=" + attrValue(t, exact) + "]")
		d = append(d, "name: "+jsLiteral(t))
		if exact {
			d = append(d, "exact: true")
		}
	}
	boolProp("pressed", "pressed")
	desc = "getByRole(" + jsString(role.String())
	if len(d) > 0 {
		desc += ", { " + strings.Join(d, ", ") + " }"
	}
	return b.String(), desc + ")"
}

// filterSuffix turns {hasText, hasNotText, has, hasNot, visible} into
// selector parts and a description of the options.
func (r *Runtime) filterSuffix(v goja.Value, api string) (sel, desc string) {
	o := r.opts(v)
	if o.o == nil {
		return "", ""
	}
	var b strings.Builder
	var d []string
	if t := o.val("hasText"); t != nil {
		m := r.textArg(t, api)
		b.WriteString(" >> internal:has-text=" + textSelector(m, false))
		d = append(d, "hasText: "+jsLiteral(m))
	}
	if t := o.val("hasNotText"); t != nil {
		m := r.textArg(t, api)
		b.WriteString(" >> internal:has-not-text=" + textSelector(m, false))
		d = append(d, "hasNotText: "+jsLiteral(m))
	}
	if h := o.val("has"); h != nil {
		inner := r.locatorArg(h, api+" (has)")
		b.WriteString(" >> internal:has=" + quoteJSON(inner.sel))
		d = append(d, "has: "+inner.desc)
	}
	if h := o.val("hasNot"); h != nil {
		inner := r.locatorArg(h, api+" (hasNot)")
		b.WriteString(" >> internal:has-not=" + quoteJSON(inner.sel))
		d = append(d, "hasNot: "+inner.desc)
	}
	if vis := o.b("visible"); vis != nil {
		b.WriteString(" >> visible=" + strconv.FormatBool(*vis))
		d = append(d, "visible: "+strconv.FormatBool(*vis))
	}
	if len(d) == 0 {
		return b.String(), ""
	}
	return b.String(), "{ " + strings.Join(d, ", ") + " }"
}

// locatorArg returns the locator passed as an argument (and, or, has...).
func (r *Runtime) locatorArg(v goja.Value, api string) *locatorW {
	if o, ok := v.(*goja.Object); ok {
		if l, ok := o.Export().(*locatorW); ok {
			return l
		}
	}
	panic(r.rt.NewTypeError("%s", api+": expected a Locator"))
}
