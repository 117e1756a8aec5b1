package jsbridge

import "testing"

// TestJSONStringifyIndent: JSON.stringify lays out indented JSON as Node
// does (the answers are Node 22's), empty arrays and objects included.
func TestJSONStringifyIndent(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	tests := []struct{ args, want string }{
		{`{a: [], b: {c: 1}, d: {}, e: [[], {}, [1, {f: []}]]}, null, 2`, "{\n  \"a\": [],\n  \"b\": {\n    \"c\": 1\n  },\n  \"d\": {},\n  \"e\": [\n    [],\n    {},\n    [\n      1,\n      {\n        \"f\": []\n      }\n    ]\n  ]\n}"},
		{`{a: [], b: {c: "x\u2028\"y"}}, null, "\t"`, "{\n\t\"a\": [],\n\t\"b\": {\n\t\t\"c\": \"x\u2028\\\"y\"\n\t}\n}"},
		{`{a: {b: []}}, null, 20`, "{\n          \"a\": {\n                    \"b\": []\n          }\n}"},
		{`{a: 1, b: [1, 2], c: {d: 3}}, ["a", "c"], "--"`, "{\n--\"a\": 1,\n--\"c\": {}\n}"},
		{`[undefined, () => 1, {toJSON() { return {z: []} }}], (k, v) => v, 1`, "[\n null,\n null,\n {\n  \"z\": []\n }\n]"},
		{`{a: []}, null, 0`, `{"a":[]}`},
		{`{a: []}, null, ""`, `{"a":[]}`},
		{`{a: []}, null, new Number(3)`, "{\n   \"a\": []\n}"},
		{`undefined, null, 2`, "undefined"},
	}
	for _, tc := range tests {
		v, err := eval(t, vm, "return String(JSON.stringify("+tc.args+"))")
		if err != nil {
			t.Fatalf("%s: %v", tc.args, err)
		}
		if got := v.String(); got != tc.want {
			t.Errorf("JSON.stringify(%s):\n got %q\nwant %q", tc.args, got, tc.want)
		}
	}
	// What goja's throws still throws.
	if _, err := eval(t, vm, "const a = {}; a.self = a; return JSON.stringify(a, null, 2)"); err == nil {
		t.Error("a circular value: no error")
	}
	if v, err := eval(t, vm, "return [JSON.stringify.name, JSON.stringify.length].join()"); err != nil || v.String() != "stringify,3" {
		t.Errorf("JSON.stringify's name and length: %v %v", v, err)
	}
}
