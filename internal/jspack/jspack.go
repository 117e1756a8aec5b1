// Package jspack is the file format of a pack of CommonJS modules: each
// module's source apart, with what its require() calls resolve to, so that
// a loader compiles a module only when code first requires it. The build of
// ferridriver's Node polyfills (tools/polyfills/gen.go) writes one;
// jsbridge reads it and loads its modules lazily, one goja program per
// module, instead of compiling every package at start-up.
//
// The format is text, read without copying the sources:
//
//	ferridriver-jspack 1 <modules>\n
//	then per module, in id order:
//	<kind> <source bytes> <requires> <name>\n
//	<specifier>\t<module id>\n        (one line per require)
//	then the sources, one after the other, in id order.
//
// kind is "js" (a CommonJS module body) or "json" (JSON text, the module's
// exports). Module 0 is the pack's entry. Names are for stack traces.
package jspack

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

const magic = "ferridriver-jspack 1"

// Kinds of module.
const (
	KindJS   = "js"
	KindJSON = "json"
)

// Module is one module of a pack.
type Module struct {
	// Name identifies the module in stack traces
	// ("node_modules/events/events.js").
	Name string
	// Kind is KindJS or KindJSON.
	Kind string
	// Source is the module's text.
	Source string
	// Requires maps the specifiers the module's require() calls use to
	// module ids in the pack.
	Requires map[string]int
}

// Write encodes mods (module 0 is the entry).
func Write(mods []Module) ([]byte, error) {
	var head, body bytes.Buffer
	fmt.Fprintf(&head, "%s %d\n", magic, len(mods))
	for _, m := range mods {
		if m.Kind != KindJS && m.Kind != KindJSON {
			return nil, fmt.Errorf("module %s: unknown kind %q", m.Name, m.Kind)
		}
		if strings.ContainsAny(m.Name, "\n") {
			return nil, fmt.Errorf("module %q: a name cannot hold a line break", m.Name)
		}
		fmt.Fprintf(&head, "%s %d %d %s\n", m.Kind, len(m.Source), len(m.Requires), m.Name)
		for _, s := range slices.Sorted(maps.Keys(m.Requires)) {
			if strings.ContainsAny(s, "\t\n") {
				return nil, fmt.Errorf("module %s: specifier %q holds a tab or a line break", m.Name, s)
			}
			if to := m.Requires[s]; to < 0 || to >= len(mods) {
				return nil, fmt.Errorf("module %s: require %q names no module (%d)", m.Name, s, to)
			}
			fmt.Fprintf(&head, "%s\t%d\n", s, m.Requires[s])
		}
		body.WriteString(m.Source)
	}
	return append(head.Bytes(), body.Bytes()...), nil
}

// Read decodes a pack. The modules' sources are substrings of data.
func Read(data string) ([]Module, error) {
	line, rest, ok := strings.Cut(data, "\n")
	n, err := strconv.Atoi(strings.TrimPrefix(line, magic+" "))
	if !ok || !strings.HasPrefix(line, magic+" ") || err != nil || n < 1 {
		return nil, errors.New("not a module pack (ferridriver-jspack 1)")
	}
	mods := make([]Module, n)
	sizes := make([]int, n)
	for i := range mods {
		if line, rest, ok = strings.Cut(rest, "\n"); !ok {
			return nil, fmt.Errorf("module %d: truncated header", i)
		}
		f := strings.SplitN(line, " ", 4)
		if len(f) != 4 || (f[0] != KindJS && f[0] != KindJSON) {
			return nil, fmt.Errorf("module %d: bad header %q", i, line)
		}
		size, err1 := strconv.Atoi(f[1])
		reqs, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || size < 0 || reqs < 0 {
			return nil, fmt.Errorf("module %d: bad header %q", i, line)
		}
		m := &mods[i]
		m.Kind, m.Name, sizes[i] = f[0], f[3], size
		m.Requires = make(map[string]int, reqs)
		for range reqs {
			if line, rest, ok = strings.Cut(rest, "\n"); !ok {
				return nil, fmt.Errorf("module %d: truncated requires", i)
			}
			spec, id, _ := strings.Cut(line, "\t")
			to, err := strconv.Atoi(id)
			if err != nil || to < 0 || to >= n {
				return nil, fmt.Errorf("module %s: bad require %q", m.Name, line)
			}
			m.Requires[spec] = to
		}
	}
	for i := range mods {
		if len(rest) < sizes[i] {
			return nil, fmt.Errorf("module %s: truncated source", mods[i].Name)
		}
		mods[i].Source, rest = rest[:sizes[i]], rest[sizes[i]:]
	}
	if rest != "" {
		return nil, errors.New("trailing bytes after the last module")
	}
	return mods, nil
}
