package steps

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// apiHarness exposes the API steps' pure functions (JSON paths, the JSON
// matcher, JSON syntax errors, URL resolution) to Go tests: they run in a
// real VM, bundled from the embedded library as ferridriver bundles it.
const apiHarness = `
import { readPath, setPath, parsePath, formatPath } from './api_path'
import { matchJSON } from './api_match'
import { jsonSyntaxError } from './api_json'
import { resolveURL } from './api_client'
const wrap = (f: (...a: any[]) => any) => (argsJSON: string) => {
  try {
    return JSON.stringify({ ok: f(...JSON.parse(argsJSON)) ?? null })
  } catch (e: any) {
    return JSON.stringify({ error: e.name + ': ' + e.message })
  }
}
;(globalThis as any).apiTest = {
  readPath: wrap((v, p) => readPath(v, p)),
  canonical: wrap((p) => formatPath(parsePath(p))),
  setPath: wrap((root, p, v) => setPath(root, p, v)),
  matchJSON: wrap((a, e, opts) => {
    const memory: Record<string, unknown> = { id: 7, name: 'Ada', idText: '7' }
    const resolve = (s: string) => {
      const m = /^\$(\w+)$/.exec(s)
      return m && m[1] in memory ? { value: memory[m[1]] } : undefined
    }
    return matchJSON(a, e, { ...opts, resolve }).map((m) => m.path + ': ' + m.message)
  }),
  jsonSyntaxError: wrap((t) => jsonSyntaxError(t)),
  resolveURL: wrap((b, r) => resolveURL(b, r)),
}
`

type apiVM struct {
	t  *testing.T
	vm *jsbridge.VM
	fn *goja.Object
}

func newAPIVM(t *testing.T) *apiVM {
	t.Helper()
	lib := Library()
	lib.Entries = []string{"apitest.ts"}
	lib.Files = map[string]string{"apitest.ts": apiHarness}
	vm := libraryVM(t, lib)
	return &apiVM{t: t, vm: vm, fn: vm.Runtime().Get("apiTest").ToObject(vm.Runtime())}
}

// call runs apiTest[name](args...) and returns its result as JSON, or the
// error it threw as "Name: message".
func (a *apiVM) call(name string, args ...any) (result string, thrown string) {
	a.t.Helper()
	argsJSON, err := json.Marshal(args)
	if err != nil {
		a.t.Fatal(err)
	}
	f, ok := goja.AssertFunction(a.fn.Get(name))
	if !ok {
		a.t.Fatalf("apiTest.%s is not a function", name)
	}
	v, err := a.vm.Call(f, goja.Undefined(), []goja.Value{a.vm.Runtime().ToValue(string(argsJSON))}, 0, name)
	if err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	var out struct {
		OK    json.RawMessage `json:"ok"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal([]byte(v.String()), &out); err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	return string(out.OK), out.Error
}

// js checks a JSON literal of a test table and keeps it as written (key
// order matters to the messages).
func js(t *testing.T, s string) json.RawMessage {
	t.Helper()
	if !json.Valid([]byte(s)) {
		t.Fatalf("bad test JSON %s", s)
	}
	return json.RawMessage(s)
}

// compact re-encodes JSON so results compare regardless of spacing.
func compact(t *testing.T, s string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(js(t, s), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const userDoc = `{
  "id": 1, "name": "Ada", "content-type": "x", "a.b": 2, "tags": [],
  "address": { "city": "London", "zip": null },
  "items": [
    { "id": 10, "name": "pen", "price": 2.5, "active": true, "meta": { "id": 100 } },
    { "id": 11, "name": "ink", "price": 7, "active": false },
    { "id": 12, "name": "pad", "price": 4, "active": true, "note": "" }
  ]
}`

func TestReadPath(t *testing.T) {
	a := newAPIVM(t)
	doc := js(t, userDoc)
	for _, tc := range []struct {
		path, want, reason string
	}{
		{"$", compact(t, userDoc), ""},
		{"", compact(t, userDoc), ""},
		{"id", `1`, ""},
		{"$.id", `1`, ""},
		{"address.city", `"London"`, ""},
		{"$['address']['city']", `"London"`, ""},
		{`["content-type"]`, `"x"`, ""},
		{"['a.b']", `2`, ""},
		{"address.zip", `null`, ""},
		{"items[1].name", `"ink"`, ""},
		{"items.1.name", `"ink"`, ""},
		{"$.items[-1].id", `12`, ""},
		{"items.length", `3`, ""},
		{"name.length", `3`, ""},
		{"items[*].id", `[10,11,12]`, ""},
		{"items.*.name", `["pen","ink","pad"]`, ""},
		{"$..id", `[1,10,100,11,12]`, ""},
		{"items[?(@.active == true)].name", `["pen","pad"]`, ""},
		{"items[?(@.price > 3)].id", `[11,12]`, ""},
		{"items[?(@.price <= 4)].id", `[10,12]`, ""},
		{"items[?(@.name != 'ink')].id", `[10,12]`, ""},
		{`items[?(@.name == "pad")].price`, `[4]`, ""},
		{"items[?(@.note)].id", `[]`, ""},
		{"items[?(@.meta)].id", `[10]`, ""},
		{"items[?(@.meta.id >= 100)].name", `["pen"]`, ""},
		{"items[*].missing", `[]`, ""},
		{"nope", "", `the document has no "nope" (it has "id", "name", "content-type", "a.b", "tags", "address", "items")`},
		{"items[3].id", "", `"$.items" has 3 elements, no [3]`},
		{"tags[0]", "", `"$.tags" has 0 elements, no [0]`},
		{"address.city.name", "", `"$.address.city" is a string, not an object with "name"`},
		{"id[0]", "", `"$.id" is a number, not an array`},
		{"address.zip.code", "", `"$.address.zip" is null, not an object with "code"`},
	} {
		got, thrown := a.call("readPath", doc, tc.path)
		if thrown != "" {
			t.Errorf("readPath(%q) threw %s", tc.path, thrown)
			continue
		}
		var r struct {
			Found  bool            `json:"found"`
			Value  json.RawMessage `json:"value"`
			Reason string          `json:"reason"`
		}
		if err := json.Unmarshal([]byte(got), &r); err != nil {
			t.Fatal(err)
		}
		if tc.reason != "" {
			if r.Found || r.Reason != tc.reason {
				t.Errorf("readPath(%q) = %s, want not found: %s", tc.path, got, tc.reason)
			}
			continue
		}
		if !r.Found || compact(t, string(r.Value)) != compact(t, tc.want) {
			t.Errorf("readPath(%q) = %s, want %s", tc.path, got, tc.want)
		}
	}
}

func TestPathSyntax(t *testing.T) {
	a := newAPIVM(t)
	for _, tc := range []struct{ path, want string }{
		{"items[0].id", `$.items[0].id`},
		{"$.a['b c'][\"d\"]", `$.a["b c"].d`},
		{"a.0", `$.a[0]`},
		{"a[*]..b", `$.a[*]..b`},
		{"a[?(@.x == 'y')]", `$.a[?(@.x == "y")]`},
		{"a[", `PathError: invalid JSON path "a[": expected an index, "*", a quoted key or a filter in "[...]" at column 3`},
		{"a[0", `PathError: invalid JSON path "a[0": unclosed "[" (opened at column 2) at column 4`},
		{"a..", `PathError: invalid JSON path "a..": expected a field name at column 4`},
		{"a.", `PathError: invalid JSON path "a.": expected a field name at column 3`},
		{"$x", `PathError: invalid JSON path "$x": expected "." or "[" after "$" at column 2`},
		{"a['b]", `PathError: invalid JSON path "a['b]": unclosed quote at column 3`},
		{"a[?(x == 1)]", `PathError: invalid JSON path "a[?(x == 1)]": a filter starts with "@", the element, e.g. [?(@.active == true)] at column 5`},
		{"a[?(@.x == )]", `PathError: invalid JSON path "a[?(@.x == )]": expected a number, true, false, null or a quoted string at column 12`},
		{"a]", `PathError: invalid JSON path "a]": unexpected "]" at column 2`},
	} {
		got, thrown := a.call("canonical", tc.path)
		if strings.HasPrefix(tc.want, "PathError") {
			if thrown != tc.want {
				t.Errorf("path %q: threw %q (result %s), want %q", tc.path, thrown, got, tc.want)
			}
			continue
		}
		if thrown != "" || got != `"`+strings.ReplaceAll(tc.want, `"`, `\"`)+`"` {
			t.Errorf("path %q: canonical %s %s, want %s", tc.path, got, thrown, tc.want)
		}
	}
}

func TestSetPath(t *testing.T) {
	a := newAPIVM(t)
	for _, tc := range []struct {
		root  string
		path  string
		value string
		want  string
	}{
		{`null`, "name", `"Ada"`, `{"name":"Ada"}`},
		{`{"name":"Ada"}`, "address.city", `"London"`, `{"name":"Ada","address":{"city":"London"}}`},
		{`{}`, "tags[0]", `"a"`, `{"tags":["a"]}`},
		{`{"tags":["a"]}`, "tags[1]", `"b"`, `{"tags":["a","b"]}`},
		{`{}`, "items[0].id", `3`, `{"items":[{"id":3}]}`},
		{`null`, "[0]", `1`, `[1]`},
		{`{}`, "$", `5`, `5`},
		{`{"a":1}`, "a[0]", `1`, `PathError: invalid JSON path "a[0]": $.a is already 1`},
		{`{}`, "a[*]", `1`, `PathError: invalid JSON path "a[*]": a field to set is made of names and indexes only`},
	} {
		got, thrown := a.call("setPath", js(t, tc.root), tc.path, js(t, tc.value))
		if strings.HasPrefix(tc.want, "PathError") {
			if !strings.HasPrefix(thrown, tc.want) {
				t.Errorf("setPath(%s, %q) = %s %s, want %s", tc.root, tc.path, got, thrown, tc.want)
			}
			continue
		}
		if thrown != "" || compact(t, got) != compact(t, tc.want) {
			t.Errorf("setPath(%s, %q) = %s %s, want %s", tc.root, tc.path, got, thrown, tc.want)
		}
	}
}

// Markers, modes and memory references: each case lists every mismatch
// the matcher must report, path first.
func TestMatchJSON(t *testing.T) {
	a := newAPIVM(t)
	const exact, anyOrder, contains = "exact", "any order", "contains"
	for _, tc := range []struct {
		name, mode, actual, expected string
		want                         []string // mismatches, or one "MarkerError: ..." line
	}{
		{"equal documents", exact, `{"a":1,"b":[1,2],"c":{"d":null}}`, `{"b":[1,2],"a":1,"c":{"d":null}}`, nil},
		{"a different value", exact, `{"a":1}`, `{"a":2}`, []string{"$.a: expected 2, received 1"}},
		{"a different type", exact, `{"a":"1"}`, `{"a":1}`, []string{`$.a: expected 1 (an integer), received "1" (a string)`}},
		{"null is not a value", exact, `{"a":null}`, `{"a":"x"}`, []string{`$.a: expected "x" (a string), received null (null)`}},
		{"a missing key", exact, `{}`, `{"a":{"b":1}}`, []string{`$.a: missing, expected {"b":1}`}},
		{"an unexpected key", exact, `{"a":1,"b":2}`, `{"a":1}`, []string{"$.b: not expected, received 2"}},
		{"contains allows more keys", contains, `{"a":1,"b":2,"c":{"d":1,"e":2}}`, `{"c":{"e":2}}`, nil},
		{"contains still needs its keys", contains, `{"a":1}`, `{"b":1}`, []string{"$.b: missing, expected 1"}},
		{"nested paths", exact, `{"a":{"b":[{"c":1}]}}`, `{"a":{"b":[{"c":2}]}}`, []string{"$.a.b[0].c: expected 2, received 1"}},
		{"odd keys are quoted", exact, `{"a b":1}`, `{"a b":2}`, []string{`$["a b"]: expected 2, received 1`}},
		{"array order matters", exact, `[1,2]`, `[2,1]`, []string{"$[0]: expected 2, received 1", "$[1]: expected 1, received 2"}},
		{"array too short", exact, `[1]`, `[1,2]`, []string{"$: expected 2 elements, received 1 element", "$[1]: missing, expected 2"}},
		{"array too long", exact, `[1,2,3]`, `[1,2]`, []string{"$: expected 2 elements, received 3 elements", "$[2]: not expected, received 3"}},
		{"any order", anyOrder, `[{"id":2},{"id":1}]`, `[{"id":1},{"id":2}]`, nil},
		{"any order, nested", anyOrder, `{"a":[[2,1],[3]]}`, `{"a":[[3],[1,2]]}`, nil},
		{"any order needs a pairing, not a greedy match", anyOrder, `["a","b"]`, `["#string","a"]`, nil},
		{"any order, a missing element", anyOrder, `[{"id":1,"n":"x"},{"id":3,"n":"y"}]`, `[{"id":1,"n":"x"},{"id":2,"n":"y"}]`,
			[]string{`$: no element matches the expected [1] {"id":2,"n":"y"}`, "$[1].id: expected 2, received 3 (the closest element to the expected [1])"}},
		{"any order, an extra element", anyOrder, `[1,2,3]`, `[2,1]`, []string{"$: expected 2 elements, received 3 elements", "$[2]: not expected, received 3"}},
		{"any order counts duplicates", anyOrder, `[1,1]`, `[1,2]`, []string{"$: no element matches the expected [1] 2"}},
		{"contains: a subset in any order", contains, `[{"id":1,"x":1},{"id":2},{"id":3}]`, `[{"id":3},{"id":1}]`, nil},
		{"contains: an element not there", contains, `[1,2]`, `[3]`, []string{"$: no element matches the expected [0] 3"}},
		{"#ignore", exact, `{"a":{"deep":[1]}}`, `{"a":"#ignore","b":"#ignore"}`, nil},
		{"#present and #notpresent", exact, `{"a":null}`, `{"a":"#present","b":"#notpresent"}`, nil},
		{"#present fails on a missing key", exact, `{}`, `{"a":"#present"}`, []string{"$.a: expected #present, missing"}},
		{"#notpresent fails on a key", exact, `{"a":1}`, `{"a":"#notpresent"}`, []string{"$.a: expected #notpresent, received 1, but the key must not be there"}},
		{"#null and #notnull", exact, `{"a":null,"b":0}`, `{"a":"#null","b":"#notnull"}`, nil},
		{"#null fails", exact, `{"a":0,"b":null}`, `{"a":"#null","b":"#notnull"}`, []string{"$.a: expected #null, received 0 (an integer, not null)", "$.b: expected #notnull, received null"}},
		{"#null needs the key", exact, `{}`, `{"a":"#null"}`, []string{"$.a: expected #null, missing"}},
		{"type markers", exact, `{"s":"","n":1.5,"i":3,"b":false,"a":[],"o":{}}`, `{"s":"#string","n":"#number","i":"#integer","b":"#boolean","a":"#array","o":"#object"}`, nil},
		{"type markers fail", exact, `{"s":1,"n":"1","i":1.5,"b":"true","a":{},"o":[]}`, `{"s":"#string","n":"#number","i":"#integer","b":"#boolean","a":"#array","o":"#object"}`, []string{
			"$.s: expected #string, received 1 (an integer, not a string)",
			`$.n: expected #number, received "1" (a string, not a number)`,
			"$.i: expected #integer, received 1.5 (a number, not an integer)",
			`$.b: expected #boolean, received "true" (a string, not a boolean)`,
			"$.a: expected #array, received {} (an object, not an array)",
			"$.o: expected #object, received [] (an array, not an object)",
		}},
		{"#uuid", exact, `["8f14e45f-ceea-4e7a-9b1c-2f7d3c1a9b01","8F14E45F-CEEA-4E7A-9B1C-2F7D3C1A9B01"]`, `["#uuid","#uuid"]`, nil},
		{"#uuid fails", exact, `["8f14e45f-ceea-4e7a-9b1c-2f7d3c1a9b0","8f14e45fceea4e7a9b1c2f7d3c1a9b01",7]`, `["#uuid","#uuid","#uuid"]`, []string{
			`$[0]: expected #uuid, received "8f14e45f-ceea-4e7a-9b1c-2f7d3c1a9b0" (not a UUID)`,
			`$[1]: expected #uuid, received "8f14e45fceea4e7a9b1c2f7d3c1a9b01" (not a UUID)`,
			"$[2]: expected #uuid, received 7 (not a UUID)",
		}},
		{"#date", exact, `["2024-02-29","2000-02-29","1815-12-10"]`, `["#date","#date","#date"]`, nil},
		{"#date fails", exact, `["2023-02-29","1900-02-29","2024-13-01","2024-1-5","2024-01-15T09:30:00Z"]`, `["#date","#date","#date","#date","#date"]`, []string{
			`$[0]: expected #date, received "2023-02-29" (not an ISO 8601 date like 2024-01-31)`,
			`$[1]: expected #date, received "1900-02-29" (not an ISO 8601 date like 2024-01-31)`,
			`$[2]: expected #date, received "2024-13-01" (not an ISO 8601 date like 2024-01-31)`,
			`$[3]: expected #date, received "2024-1-5" (not an ISO 8601 date like 2024-01-31)`,
			`$[4]: expected #date, received "2024-01-15T09:30:00Z" (not an ISO 8601 date like 2024-01-31)`,
		}},
		{"#datetime", exact, `["2024-01-15T09:30:00Z","2024-02-01T14:05:12.250Z","2024-03-10T08:00:00+01:00","2024-03-10T08:00","2024-03-10 08:00:00-0530"]`, `["#datetime","#datetime","#datetime","#datetime","#datetime"]`, nil},
		{"#datetime fails", exact, `["2024-01-15","2024-01-15T25:00:00Z","2024-02-30T10:00:00Z","2024-01-15T09:30:00+1:00","yesterday"]`, `["#datetime","#datetime","#datetime","#datetime","#datetime"]`, []string{
			`$[0]: expected #datetime, received "2024-01-15" (not an ISO 8601 date-time like 2024-01-31T09:30:00Z)`,
			`$[1]: expected #datetime, received "2024-01-15T25:00:00Z" (not an ISO 8601 date-time like 2024-01-31T09:30:00Z)`,
			`$[2]: expected #datetime, received "2024-02-30T10:00:00Z" (not an ISO 8601 date-time like 2024-01-31T09:30:00Z)`,
			`$[3]: expected #datetime, received "2024-01-15T09:30:00+1:00" (not an ISO 8601 date-time like 2024-01-31T09:30:00Z)`,
			`$[4]: expected #datetime, received "yesterday" (not an ISO 8601 date-time like 2024-01-31T09:30:00Z)`,
		}},
		{"#regex matches the whole string", exact, `{"a":"ab-12","b":"ab-12x"}`, `{"a":"#regex [a-z]+-\\d+","b":"#regex [a-z]+-\\d+"}`, []string{`$.b: expected #regex [a-z]+-\d+, received "ab-12x" (does not match)`}},
		{"#regex on a number", exact, `{"a":12}`, `{"a":"#regex \\d+"}`, []string{`$.a: expected #regex \d+, received 12 (an integer, not a string)`}},
		{"#[] and #[N]", exact, `{"a":[1,2],"b":[]}`, `{"a":"#[2]","b":"#[]"}`, nil},
		{"#[N] fails", exact, `{"a":[1,2]}`, `{"a":"#[3]"}`, []string{"$.a: expected #[3], received 2 elements"}},
		{"#[] MARKER checks each element", exact, `{"a":["x",2,"y"]}`, `{"a":"#[] #string"}`, []string{"$.a[1]: expected #string, received 2 (an integer, not a string)"}},
		{"#[N] MARKER", exact, `{"a":["8f14e45f-ceea-4e7a-9b1c-2f7d3c1a9b01"]}`, `{"a":"#[1] #uuid"}`, nil},
		{"##optional", exact, `{"a":null,"c":"x"}`, `{"a":"##string","b":"##string","c":"##string"}`, nil},
		{"##optional fails on another type", exact, `{"a":1}`, `{"a":"##string"}`, []string{"$.a: expected ##string, received 1 (an integer, not a string)"}},
		{"a literal #", exact, `{"a":"#tag"}`, `{"a":"\\#tag"}`, nil},
		{"markers inside any order", anyOrder, `[{"id":"8f14e45f-ceea-4e7a-9b1c-2f7d3c1a9b01","n":"b"},{"id":5,"n":"a"}]`, `[{"id":"#number","n":"a"},{"id":"#uuid","n":"b"}]`, nil},
		{"a remembered value keeps its type", exact, `{"id":7,"name":"Ada"}`, `{"id":"$id","name":"$name"}`, nil},
		{"a remembered text equals a number", exact, `{"id":7}`, `{"id":"$idText"}`, nil},
		{"a remembered value that differs", exact, `{"id":8}`, `{"id":"$id"}`, []string{"$.id: expected 7, received 8 (from $id)"}},
		{"an unknown name stays text", exact, `{"price":"$5"}`, `{"price":"$5"}`, nil},
		{"an unknown marker", exact, `{"a":1}`, `{"a":"#strin"}`, []string{`MarkerError: unknown marker at $.a: "#strin"`}},
		{"a bad regex", exact, `{"a":"x"}`, `{"a":"#regex ("}`, []string{`MarkerError: invalid regular expression`}},
		{"#regex with no pattern", exact, `{"a":"x"}`, `{"a":"#regex"}`, []string{`MarkerError: "#regex" needs a pattern`}},
		{"an element marker without #", exact, `{"a":[]}`, `{"a":"#[] string"}`, []string{`MarkerError: the element marker after "#[]" starts with #`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := map[string]bool{"contains": tc.mode == contains, "anyOrder": tc.mode == anyOrder}
			got, thrown := a.call("matchJSON", js(t, tc.actual), js(t, tc.expected), opts)
			if len(tc.want) == 1 && strings.HasPrefix(tc.want[0], "MarkerError") {
				if !strings.HasPrefix(thrown, tc.want[0]) {
					t.Fatalf("threw %q (result %s), want %q...", thrown, got, tc.want[0])
				}
				return
			}
			if thrown != "" {
				t.Fatalf("threw %s", thrown)
			}
			var ms []string
			if err := json.Unmarshal([]byte(got), &ms); err != nil {
				t.Fatal(err)
			}
			if strings.Join(ms, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("mismatches:\n  %s\nwant:\n  %s", strings.Join(ms, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
}

func TestJSONSyntaxError(t *testing.T) {
	a := newAPIVM(t)
	for _, tc := range []struct{ text, want string }{
		{`{"a": [1, 2]}`, `null`},
		{`  "x"  `, `null`},
		{"{\n  \"a\": Ada\n}", `{"line":2,"column":8,"problem":"expected a value (a string in double quotes, a number, true, false, null, an object or an array), found \"A\""}`},
		{`{"a": 1,}`, `{"line":1,"column":9,"problem":"a trailing comma before \"}\""}`},
		{`[1, 2,]`, `{"line":1,"column":7,"problem":"a trailing comma before \"]\""}`},
		{`{'a': 1}`, `{"line":1,"column":2,"problem":"a key is written in double quotes, not single ones"}`},
		{`{"a": 'x'}`, `{"line":1,"column":7,"problem":"a string is written in double quotes, not single ones"}`},
		{`{"id": $id}`, `{"line":1,"column":8,"problem":"a memory reference or marker is written as a string: \"$id\""}`},
		{`{"a": 1 "b": 2}`, `{"line":1,"column":9,"problem":"expected \",\" or \"}\", found \"\\\"\""}`},
		{`{"a": "x`, `{"line":1,"column":7,"problem":"a string is not closed"}`},
		{`{"a": 1} x`, `{"line":1,"column":10,"problem":"unexpected \"x\" after the JSON value"}`},
		{``, `{"line":1,"column":1,"problem":"expected a value (a string in double quotes, a number, true, false, null, an object or an array), found the end of the text"}`},
		{`[01]`, `{"line":1,"column":3,"problem":"expected \",\" or \"]\", found \"1\""}`},
	} {
		got, thrown := a.call("jsonSyntaxError", tc.text)
		if thrown != "" || compact(t, got) != compact(t, tc.want) {
			t.Errorf("jsonSyntaxError(%q) = %s %s, want %s", tc.text, got, thrown, tc.want)
		}
	}
}

// URL resolution of the API steps (RFC 3986 §5.2), done in the library
// because the VM's URL ignores a base's path.
func TestResolveURL(t *testing.T) {
	a := newAPIVM(t)
	for _, tc := range []struct{ base, ref, want string }{
		{"http://h:1/api/", "users/1", "http://h:1/api/users/1"},
		{"http://h:1/api/", "/health", "http://h:1/health"},
		{"http://h:1/api/v2/", "../v1/x?a=1#f", "http://h:1/api/v1/x?a=1#f"},
		{"http://h:1/api/v2/", "./", "http://h:1/api/v2/"},
		{"http://h:1/api/v2/", "..", "http://h:1/api/"},
		{"http://h:1", "/api", "http://h:1/api"},
		{"http://h:1", "api", "http://h:1/api"},
		{"http://h:1/a/b", "?q=1", "http://h:1/a/b?q=1"},
		{"https://h/x/", "//other/y", "https://other/y"},
		{"http://h/x/", "https://e.com/z", "https://e.com/z"},
	} {
		got, thrown := a.call("resolveURL", tc.base, tc.ref)
		if thrown != "" || got != `"`+tc.want+`"` {
			t.Errorf("resolveURL(%q, %q) = %s %s, want %s", tc.base, tc.ref, got, thrown, tc.want)
		}
	}
}
