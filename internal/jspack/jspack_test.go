package jspack

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func open(t *testing.T, data []byte) (*Pack, error) {
	t.Helper()
	return Open(bytes.NewReader(data), int64(len(data)))
}

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
	p, err := open(t, data)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range mods {
		got := p.Modules[i]
		src, err := p.Source(i)
		if err != nil {
			t.Fatal(err)
		}
		got.Source, got.offset, got.size = src, 0, 0
		if !reflect.DeepEqual(got, want) {
			t.Errorf("module %d:\n got %#v\nwant %#v", i, got, want)
		}
	}
}

func TestOpenRejects(t *testing.T) {
	good, err := Write([]Module{{Name: "e", Kind: KindJS, Source: "x", Requires: map[string]int{"y": 0}}})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"empty":           "",
		"other file":      "(function () {})\n",
		"no modules":      "ferridriver-jspack 2 0 0\n",
		"version 1":       strings.Replace(string(good), "jspack 2", "jspack 1", 1),
		"truncated":       string(good[:len(good)-1]),
		"trailing bytes":  string(good) + "z",
		"bad kind":        strings.Replace(string(good), "js 1", "ts 1", 1),
		"require too far": strings.Replace(string(good), "y\t0", "y\t1", 1),
	} {
		if _, err := open(t, []byte(data)); err == nil {
			t.Errorf("%s: opened without error", name)
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
