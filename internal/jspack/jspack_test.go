package jspack

import (
	"reflect"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	mods := []Module{
		{Name: "entry.js", Kind: KindJS, Source: "module.exports = require('./a')\n", Requires: map[string]int{"./a": 1, "b/": 2}},
		{Name: "node_modules/a/index.js", Kind: KindJS, Source: "exports.x = 'é \\n'\n", Requires: map[string]int{}},
		{Name: "node_modules/b/data.json", Kind: KindJSON, Source: `{"k": [1, 2]}`, Requires: map[string]int{}},
		{Name: "(disabled):node_modules/c/util", Kind: KindJS, Source: "", Requires: map[string]int{}},
	}
	data, err := Write(mods)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(string(data))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, mods) {
		t.Errorf("round trip:\n got %#v\nwant %#v", got, mods)
	}
}

func TestReadRejects(t *testing.T) {
	good, err := Write([]Module{{Name: "e", Kind: KindJS, Source: "x", Requires: map[string]int{"y": 0}}})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"empty":           "",
		"other file":      "(function () {})\n",
		"no modules":      "ferridriver-jspack 1 0\n",
		"truncated":       string(good[:len(good)-1]),
		"trailing bytes":  string(good) + "z",
		"bad kind":        strings.Replace(string(good), "js 1", "ts 1", 1),
		"require too far": strings.Replace(string(good), "y\t0", "y\t1", 1),
	} {
		if _, err := Read(data); err == nil {
			t.Errorf("%s: read without error", name)
		}
	}
}

func TestWriteRejects(t *testing.T) {
	for name, mods := range map[string][]Module{
		"kind":       {{Name: "e", Kind: "ts"}},
		"name":       {{Name: "a\nb", Kind: KindJS}},
		"specifier":  {{Name: "e", Kind: KindJS, Requires: map[string]int{"a\tb": 0}}},
		"require id": {{Name: "e", Kind: KindJS, Requires: map[string]int{"a": 1}}},
	} {
		if _, err := Write(mods); err == nil {
			t.Errorf("%s: written without error", name)
		}
	}
}
