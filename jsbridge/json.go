package jsbridge

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"

	"github.com/dop251/goja"
)

// installJSONStringify replaces goja's JSON.stringify with one that
// indents as the specification says: goja's leaves the indentation one
// level deeper after an empty array or object when given a space
// argument ({"a": [], "b": {\n      "c": 1 ...), so pretty-printed JSON
// (cucumber-js's json formatter, reports that step code attaches) comes
// out misaligned. The value is still serialised by goja's (replacer,
// toJSON, errors and all), without indentation; Go's json.Indent, which
// lays out JSON as the specification does (empty arrays and objects
// stay "[]" and "{}"), adds it.
func (vm *VM) installJSONStringify() {
	rt := vm.rt
	j := rt.Get("JSON").ToObject(rt)
	native, _ := goja.AssertFunction(j.Get("stringify"))
	stringify := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		gap := jsonGap(rt, call.Argument(2))
		if gap == "" {
			v, err := native(goja.Undefined(), call.Arguments...)
			if err != nil {
				throwError(rt, err)
			}
			return v
		}
		v, err := native(goja.Undefined(), call.Argument(0), call.Argument(1))
		if err != nil {
			throwError(rt, err)
		}
		if goja.IsUndefined(v) {
			return v
		}
		var out bytes.Buffer
		if err := json.Indent(&out, []byte(v.String()), "", gap); err != nil {
			panic(rt.NewTypeError("JSON.stringify: %v", err))
		}
		return rt.ToValue(out.String())
	}).ToObject(rt)
	_ = stringify.DefineDataProperty("name", rt.ToValue("stringify"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = stringify.DefineDataProperty("length", rt.ToValue(3), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = j.DefineDataProperty("stringify", stringify, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// jsonGap is the indentation JSON.stringify's space argument asks for: up
// to 10 spaces for a number, the first 10 characters of a string (Number
// and String objects as their values).
func jsonGap(rt *goja.Runtime, space goja.Value) string {
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			space = rt.ToValue(o.ToFloat())
		case "String":
			space = rt.ToValue(o.String())
		}
	}
	switch v := space.Export().(type) {
	case int64:
		return strings.Repeat(" ", int(max(0, min(10, v))))
	case float64:
		if math.IsNaN(v) {
			return ""
		}
		return strings.Repeat(" ", int(max(0, min(10, math.Trunc(v)))))
	case string:
		if r := []rune(v); len(r) > 10 {
			// The first 10 UTF-16 code units; indents are ASCII in practice.
			return string(r[:10])
		}
		return v
	}
	return ""
}
