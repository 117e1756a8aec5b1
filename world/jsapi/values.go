package jsapi

import (
	"fmt"
	"math"
	"math/big"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja_nodejs/buffer"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/jsbridge/capability"
)

// Conversions between JS values and what playwright-go takes and returns,
// written by hand: options are read field by field (no reflection), which
// keeps the per-call cost to a few map lookups.

func isNullish(v goja.Value) bool {
	return v == nil || goja.IsUndefined(v) || goja.IsNull(v)
}

// opts reads a Playwright options object. The zero value (no object) reads
// every option as absent.
type opts struct {
	r *Runtime
	o *goja.Object
}

func (r *Runtime) opts(v goja.Value) opts {
	if o, ok := v.(*goja.Object); ok && !isNullish(v) {
		return opts{r: r, o: o}
	}
	return opts{r: r}
}

// val returns option name, or nil when it is absent or undefined.
func (o opts) val(name string) goja.Value {
	if o.o == nil {
		return nil
	}
	v := o.o.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	return v
}

func (o opts) f(name string) *float64 {
	v := o.val(name)
	if v == nil || goja.IsNull(v) {
		return nil
	}
	f := v.ToFloat()
	return &f
}

func (o opts) i(name string) *int {
	v := o.val(name)
	if v == nil || goja.IsNull(v) {
		return nil
	}
	n := int(v.ToInteger())
	return &n
}

func (o opts) b(name string) *bool {
	v := o.val(name)
	if v == nil || goja.IsNull(v) {
		return nil
	}
	b := v.ToBoolean()
	return &b
}

func (o opts) s(name string) *string {
	v := o.val(name)
	if v == nil || goja.IsNull(v) {
		return nil
	}
	s := v.String()
	return &s
}

func (o opts) strs(name string) []string {
	v := o.val(name)
	if v == nil {
		return nil
	}
	return o.r.strings(v)
}

// strings converts a string or an array of strings.
func (r *Runtime) strings(v goja.Value) []string {
	if isNullish(v) {
		return nil
	}
	obj, ok := v.(*goja.Object)
	if !ok || obj.ClassName() != "Array" {
		return []string{v.String()}
	}
	n := int(obj.Get("length").ToInteger())
	out := make([]string, n)
	for i := range n {
		out[i] = obj.Get(itoa(i)).String()
	}
	return out
}

func (r *Runtime) array(v goja.Value) []goja.Value {
	obj, ok := v.(*goja.Object)
	if !ok || isNullish(v) || obj.ClassName() != "Array" {
		return nil
	}
	n := int(obj.Get("length").ToInteger())
	out := make([]goja.Value, n)
	for i := range n {
		out[i] = obj.Get(itoa(i))
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

func (o opts) position(name string) *playwright.Position {
	v, ok := o.val(name).(*goja.Object)
	if !ok {
		return nil
	}
	return &playwright.Position{X: v.Get("x").ToFloat(), Y: v.Get("y").ToFloat()}
}

func (o opts) button() *playwright.MouseButton {
	s := o.s("button")
	if s == nil {
		return nil
	}
	b := playwright.MouseButton(*s)
	return &b
}

func (o opts) modifiers() []playwright.KeyboardModifier {
	ss := o.strs("modifiers")
	if ss == nil {
		return nil
	}
	out := make([]playwright.KeyboardModifier, len(ss))
	for i, s := range ss {
		out[i] = playwright.KeyboardModifier(s)
	}
	return out
}

func (o opts) waitUntil() *playwright.WaitUntilState {
	s := o.s("waitUntil")
	if s == nil {
		return nil
	}
	w := playwright.WaitUntilState(*s)
	return &w
}

func (o opts) state() *playwright.WaitForSelectorState {
	s := o.s("state")
	if s == nil {
		return nil
	}
	w := playwright.WaitForSelectorState(*s)
	return &w
}

// headers reads a {name: value} object.
func (o opts) headers(name string) map[string]string {
	v, ok := o.val(name).(*goja.Object)
	if !ok {
		return nil
	}
	out := map[string]string{}
	for _, k := range v.Keys() {
		out[k] = v.Get(k).String()
	}
	return out
}

// headersOf converts a Go header map into a plain JS object.
func (r *Runtime) headersOf(h map[string]string) goja.Value {
	o := r.rt.NewObject()
	for k, v := range h {
		_ = o.Set(k, v)
	}
	return o
}

// regexpOf returns the source and flags of a JS RegExp.
func regexpOf(v goja.Value) (source, flags string, ok bool) {
	o, isObj := v.(*goja.Object)
	if !isObj || o.ClassName() != "RegExp" {
		return "", "", false
	}
	return unescapeRegexSource(o.Get("source").String()), o.Get("flags").String(), true
}

// unescapeRegexSource rewrites the \uXXXX escapes of a RegExp source
// (goja writes "/" as \u002f in new RegExp('/x').source) into what both JS
// and Go's RE2 read the same way: "\" + the character for ASCII
// punctuation, the character itself otherwise. The source then compiles
// in Go and keeps its meaning in the page.
func unescapeRegexSource(src string) string {
	if !strings.Contains(src, `\u`) {
		return src
	}
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '\\' || i+1 >= len(src) {
			b.WriteByte(c)
			continue
		}
		if src[i+1] == 'u' && i+6 <= len(src) {
			if n, err := strconv.ParseUint(src[i+2:i+6], 16, 32); err == nil {
				r := rune(n)
				switch {
				case r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
					b.WriteRune(r)
				case r < 0x20:
					fmt.Fprintf(&b, `\x%02x`, r)
				case r < 0x80:
					b.WriteByte('\\')
					b.WriteRune(r)
				default:
					b.WriteRune(r)
				}
				i += 5
				continue
			}
		}
		b.WriteByte(c)
		b.WriteByte(src[i+1])
		i++
	}
	return b.String()
}

// bytesOf returns the bytes of a Buffer, typed array, ArrayBuffer or string.
func (r *Runtime) bytesOf(v goja.Value) ([]byte, bool) {
	if s, ok := v.Export().(string); ok {
		return []byte(s), true
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	if ab, ok := o.Export().(goja.ArrayBuffer); ok {
		return ab.Bytes(), true
	}
	if b, ok := o.Export().([]byte); ok {
		return b, true
	}
	if bl := o.Get("byteLength"); bl != nil && !goja.IsUndefined(bl) {
		return buffer.Bytes(r.rt, o), true
	}
	return nil, false
}

// buffer makes a Node Buffer of b.
func (r *Runtime) buffer(b []byte) goja.Value { return buffer.WrapBytes(r.rt, b) }

// argOf converts an evaluate() argument into what playwright-go
// serialises: JSON-like values, Dates, BigInts, and element/JS handles.
func (r *Runtime) argOf(v goja.Value) any {
	return r.argValue(v, 0)
}

func (r *Runtime) argValue(v goja.Value, depth int) any {
	if isNullish(v) {
		return nil
	}
	if depth > 100 {
		panic(r.rt.NewTypeError("%s", "evaluate: argument nested too deeply (or circular)"))
	}
	switch x := v.Export().(type) {
	case bool, string:
		return x
	case int64:
		if x >= math.MinInt && x <= math.MaxInt {
			return int(x)
		}
		return float64(x)
	case float64:
		return x
	case *big.Int:
		return x
	case time.Time:
		return x
	case *elementHandleW:
		return x.h
	case *jsHandleW:
		return x.h
	case *locatorW:
		panic(r.rt.NewTypeError("%s", "evaluate: a Locator cannot be passed as an argument; use locator.evaluate(fn, arg) or await locator.elementHandle()"))
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return v.String()
	}
	switch o.ClassName() {
	case "Array":
		items := r.array(v)
		out := make([]any, len(items))
		for i, it := range items {
			out[i] = r.argValue(it, depth+1)
		}
		return out
	case "Function":
		panic(r.rt.NewTypeError("%s", "evaluate: functions cannot be passed as arguments"))
	case "RegExp":
		return map[string]any{} // not serialisable by playwright-go
	}
	if href, sp := o.Get("href"), o.Get("searchParams"); href != nil && sp != nil && !goja.IsUndefined(sp) {
		if parsed, err := url.Parse(href.String()); err == nil {
			return parsed
		}
	}
	out := map[string]any{}
	for _, k := range o.Keys() {
		out[k] = r.argValue(o.Get(k), depth+1)
	}
	return out
}

// toJS converts a value returned by playwright-go's evaluate into a plain
// JS value (objects and arrays are real JS objects, not Go wrappers).
func (r *Runtime) toJS(v any) goja.Value {
	switch x := v.(type) {
	case nil:
		return goja.Null()
	case bool:
		return r.rt.ToValue(x)
	case string:
		return r.rt.ToValue(x)
	case int:
		return r.rt.ToValue(x)
	case int64:
		return r.rt.ToValue(x)
	case float64:
		if x == 0 && math.Signbit(x) {
			return r.rt.ToValue(math.Copysign(0, -1))
		}
		return r.rt.ToValue(x)
	case *big.Int:
		return r.rt.ToValue(x)
	case time.Time:
		d, err := r.rt.New(r.rt.Get("Date"), r.rt.ToValue(float64(x.UnixMilli())))
		if err != nil {
			return r.rt.ToValue(x.String())
		}
		return d
	case *url.URL:
		u, err := r.rt.New(r.rt.Get("URL"), r.rt.ToValue(x.String()))
		if err != nil {
			return r.rt.ToValue(x.String())
		}
		return u
	case []any:
		items := make([]any, len(x))
		for i, it := range x {
			items[i] = r.toJS(it)
		}
		return r.rt.NewArray(items...)
	case map[string]any:
		// playwright-go returns objects as Go maps, which lose the key
		// order: keys come back sorted, so results are deterministic.
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := r.rt.NewObject()
		for _, k := range keys {
			_ = o.Set(k, r.toJS(x[k]))
		}
		return o
	case []string:
		items := make([]any, len(x))
		for i, it := range x {
			items[i] = it
		}
		return r.rt.NewArray(items...)
	case playwright.ElementHandle:
		return r.elementHandleObj(x)
	case playwright.JSHandle:
		return r.jsHandleObj(x)
	}
	return r.rt.ToValue(v)
}

// functionSource turns a JS function (or an expression string) into the
// expression Playwright evaluates in the page. Functions are sent as their
// source text; a method shorthand gets "function " prepended, as
// Playwright does. esbuild's keepNames helper (__name) is defined for the
// page when the source uses it, since the page has no such function.
func (r *Runtime) functionSource(v goja.Value, api string) string {
	if s, ok := v.Export().(string); ok {
		return s
	}
	if _, ok := goja.AssertFunction(v); !ok {
		panic(r.rt.NewTypeError("%s", api+": expected a function or a string expression, got "+v.String()))
	}
	src := r.repairedSource(strings.TrimSpace(v.String()))
	if strings.HasPrefix(src, "class ") {
		panic(r.rt.NewTypeError("%s", api+": a class cannot be evaluated in the page"))
	}
	if strings.Contains(src, "[native code]") {
		panic(r.rt.NewTypeError("%s", api+": a native function cannot be evaluated in the page: pass a function written in your step file"))
	}
	if !strings.HasPrefix(src, "function") && !strings.HasPrefix(src, "async") && !strings.HasPrefix(src, "(") && !isArrowShorthand(src) {
		src = "function " + src
	} else if strings.HasPrefix(src, "async ") && !strings.HasPrefix(src, "async function") && !strings.HasPrefix(src, "async (") && !isArrowShorthand(strings.TrimPrefix(src, "async ")) {
		src = "async function " + strings.TrimPrefix(src, "async ")
	}
	if strings.Contains(src, "__name(") {
		return "(() => { const __name = (f) => f; return (" + src + "); })()"
	}
	// Parenthesised, a function declaration is an expression whose value
	// is the function, which the page then calls with the argument.
	return "(" + src + ")"
}

// repairedSource works around goja's Function.prototype.toString, which
// drops the closing parenthesis of an arrow function whose body is in
// parentheses ("x => ({ a: x })" reads "x => ({ a: x }"): when the text
// does not parse, the parenthesis is put back. Results are cached per
// source text, so each distinct function is parsed once.
func (r *Runtime) repairedSource(src string) string {
	if !strings.Contains(src, "=>") {
		return src
	}
	if fixed, ok := r.sources[src]; ok {
		return fixed
	}
	fixed := src
	for i := 0; i < 3; i++ {
		if _, err := parser.ParseFile(nil, "", "("+fixed+")", 0); err == nil {
			break
		}
		fixed += ")"
	}
	if _, err := parser.ParseFile(nil, "", "("+fixed+")", 0); err != nil {
		fixed = src
	}
	if r.sources == nil {
		r.sources = map[string]string{}
	}
	r.sources[src] = fixed
	return fixed
}

// isArrowShorthand reports whether src starts like "x => ...".
func isArrowShorthand(src string) bool {
	i := 0
	for i < len(src) && (src[i] == '_' || src[i] == '$' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z' || src[i] >= '0' && src[i] <= '9') {
		i++
	}
	return i > 0 && strings.HasPrefix(strings.TrimSpace(src[i:]), "=>")
}

// inputFiles converts setInputFiles' argument: a path, an array of paths,
// a {name, mimeType, buffer} payload or an array of them. Each path is a
// read, through the filesystem check (relative paths are relative to the
// project directory).
func (r *Runtime) inputFiles(api string, v goja.Value) any {
	if isNullish(v) {
		return []string{}
	}
	items := []goja.Value{v}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Array" {
		items = r.array(v)
	}
	var paths []string
	var payloads []playwright.InputFile
	for _, it := range items {
		if s, ok := it.Export().(string); ok {
			paths = append(paths, *r.path(api, &s, capability.FSRead))
			continue
		}
		o := r.opts(it)
		f := playwright.InputFile{}
		if n := o.s("name"); n != nil {
			f.Name = *n
		}
		if m := o.s("mimeType"); m != nil {
			f.MimeType = *m
		}
		if b := o.val("buffer"); b != nil {
			f.Buffer, _ = r.bytesOf(b)
		}
		payloads = append(payloads, f)
	}
	if len(payloads) > 0 {
		if len(paths) > 0 {
			panic(r.rt.NewTypeError("%s", "setInputFiles: pass either file paths or file payloads, not both"))
		}
		return payloads
	}
	if paths == nil {
		return []string{}
	}
	return paths
}

// selectValues converts selectOption's argument: a value or label, an
// array of them, {value|label|index} objects, or element handles.
func (r *Runtime) selectValues(v goja.Value) playwright.SelectOptionValues {
	if isNullish(v) {
		return playwright.SelectOptionValues{ValuesOrLabels: &[]string{}}
	}
	items := []goja.Value{v}
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Array" {
		items = r.array(v)
	}
	var either, values, labels []string
	var indexes []int
	var elements []playwright.ElementHandle
	for _, it := range items {
		if eh, ok := it.Export().(*elementHandleW); ok {
			elements = append(elements, eh.h)
			continue
		}
		o, isObj := it.(*goja.Object)
		if !isObj {
			either = append(either, it.String())
			continue
		}
		op := opts{r: r, o: o}
		if s := op.s("value"); s != nil {
			values = append(values, *s)
		}
		if s := op.s("label"); s != nil {
			labels = append(labels, *s)
		}
		if n := op.i("index"); n != nil {
			indexes = append(indexes, *n)
		}
	}
	out := playwright.SelectOptionValues{}
	if either != nil {
		out.ValuesOrLabels = &either
	}
	if values != nil {
		out.Values = &values
	}
	if labels != nil {
		out.Labels = &labels
	}
	if indexes != nil {
		out.Indexes = &indexes
	}
	if elements != nil {
		out.Elements = &elements
	}
	if out == (playwright.SelectOptionValues{}) {
		out.ValuesOrLabels = &[]string{}
	}
	return out
}

// rect converts a bounding box (nil: null).
func (r *Runtime) rect(b *playwright.Rect) goja.Value {
	if b == nil {
		return goja.Null()
	}
	o := r.rt.NewObject()
	_ = o.Set("x", b.X)
	_ = o.Set("y", b.Y)
	_ = o.Set("width", b.Width)
	_ = o.Set("height", b.Height)
	return o
}

// strArray converts a []string into a JS array.
func (r *Runtime) strArray(ss []string) goja.Value {
	items := make([]any, len(ss))
	for i, s := range ss {
		items[i] = s
	}
	return r.rt.NewArray(items...)
}
