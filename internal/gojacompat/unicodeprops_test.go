package gojacompat

import (
	"testing"

	"github.com/dop251/goja"
)

// TestLowerUnicodePropertyEscapes: each lowered pattern matches in goja
// what the property escape matches in Node (goja alone matches nothing).
func TestLowerUnicodePropertyEscapes(t *testing.T) {
	tests := []struct {
		call      string // a new RegExp call as esbuild prints it
		match     []string
		noMatch   []string
		unchanged bool
	}{
		// cucumber-expressions' word boundary (ParameterTypeMatcher).
		{call: `new RegExp("^(?:\\p{Z}|\\p{P}|\\p{S})$", "u")`, match: []string{" ", "\u00a0", ".", "!", "+", "$", "😀", "「"}, noMatch: []string{"a", "3", "é", "\t"}},
		{call: `new RegExp("^\\p{L}+$", "u")`, match: []string{"héllo", "Москва", "北京"}, noMatch: []string{"a1", "x y"}},
		{call: `new RegExp("^[\\p{L}\\d_]+$", "su")`, match: []string{"a_1", "ü9"}, noMatch: []string{"a-1"}},
		{call: `new RegExp("^\\P{L}+$", "u")`, match: []string{"123 !", "😀"}, noMatch: []string{"1a"}},
		{call: `new RegExp("^[^\\P{Lu}]$", "u")`, match: []string{"A", "Ä"}, noMatch: []string{"a", "1"}},
		{call: `new RegExp('^\\p{Uppercase_Letter}"$', "u")`, match: []string{`Q"`}, noMatch: []string{`q"`}},
		{call: `new RegExp("^\\p{Script=Greek}+$", "u")`, match: []string{"αβγ"}, noMatch: []string{"abc"}},
		{call: `new RegExp("^\\p{gc=Nd}$", "u")`, match: []string{"7", "٣"}, noMatch: []string{"x"}},
		{call: `new RegExp("^[\\p{ASCII}]+$", "u")`, match: []string{"plain text"}, noMatch: []string{"é"}},
		{call: `new RegExp("^\\p{White_Space}$", "u")`, match: []string{"\t", "\u2003"}, noMatch: []string{"x"}},
		// An escaped backslash before p is no property escape.
		{call: `new RegExp("^\\\\p{L}$", "u")`, match: []string{`\p{L}`}, unchanged: true},
		// Without the u flag, \p is a plain p.
		{call: `new RegExp("^\\p{L}$", "")`, match: []string{"p{L}"}, unchanged: true},
		// An escaped ] does not end the class.
		{call: `new RegExp("^[\\]\\p{Nd}]+$", "u")`, match: []string{"]1]"}, noMatch: []string{"a"}},
	}
	for _, tc := range tests {
		code := "re = " + tc.call + ";"
		got, err := LowerUnicodePropertyEscapes(code)
		if err != nil {
			t.Fatalf("%s: %v", tc.call, err)
		}
		if tc.unchanged != (got == code) {
			t.Errorf("%s: rewritten %v, want %v: %s", tc.call, got != code, !tc.unchanged, got)
		}
		rt := goja.New()
		if _, err := rt.RunString(got); err != nil {
			t.Fatalf("%s: %v\n%s", tc.call, err, got)
		}
		test, _ := goja.AssertFunction(rt.Get("re").ToObject(rt).Get("test"))
		for want, list := range map[bool][]string{true: tc.match, false: tc.noMatch} {
			for _, s := range list {
				v, err := test(rt.Get("re"), rt.ToValue(s))
				if err != nil {
					t.Fatal(err)
				}
				if v.ToBoolean() != want {
					t.Errorf("%s.test(%q) = %v, want %v", tc.call, s, v.ToBoolean(), want)
				}
			}
		}
	}
}

func TestLowerUnicodePropertyEscapesErrors(t *testing.T) {
	for _, code := range []string{`new RegExp("\\p{NoSuchProperty}", "u")`, `new RegExp("\\p{Script=Nowhere}", "u")`, `new RegExp("\\p{L", "u")`} {
		if _, err := LowerUnicodePropertyEscapes(code); err == nil {
			t.Errorf("%s: no error", code)
		}
	}
	// Calls that are not two string literals are left alone.
	for _, code := range []string{`new RegExp(source, "u")`, `new RegExp("\\p{L}", flags)`} {
		if got, err := LowerUnicodePropertyEscapes(code); err != nil || got != code {
			t.Errorf("%s: %q, %v", code, got, err)
		}
	}
}
