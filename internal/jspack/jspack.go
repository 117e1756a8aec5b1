// Package jspack is the file format of a pack of CommonJS modules: each
// module's source apart, with what its require() calls resolve to, so that
// a loader compiles a module only when code first requires it, and reads
// only the sources it compiles. The build of ferridriver's Node polyfills
// (tools/polyfills/gen.go) writes one; jsbridge reads it and loads its
// modules lazily, one goja program per module, instead of compiling every
// package at start-up.
//
// The format is text:
//
//	ferridriver-jspack 2 <modules> <index bytes>\n
//	then the index, per module in id order:
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
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

const magic = "ferridriver-jspack 2"

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
	// Source is the module's text (Write); Pack.Source reads it.
	Source string
	// Requires maps the specifiers the module's require() calls use to
	// module ids in the pack.
	Requires map[string]int

	offset, size int64 // of the source in the pack
}

// Write encodes mods (module 0 is the entry).
func Write(mods []Module) ([]byte, error) {
	var index, body bytes.Buffer
	for _, m := range mods {
		if m.Kind != KindJS && m.Kind != KindJSON {
			return nil, fmt.Errorf("module %s: unknown kind %q", m.Name, m.Kind)
		}
		if strings.ContainsAny(m.Name, "\n") {
			return nil, fmt.Errorf("module %q: a name cannot hold a line break", m.Name)
		}
		fmt.Fprintf(&index, "%s %d %d %s\n", m.Kind, len(m.Source), len(m.Requires), m.Name)
		for _, s := range slices.Sorted(maps.Keys(m.Requires)) {
			if strings.ContainsAny(s, "\t\n") {
				return nil, fmt.Errorf("module %s: specifier %q holds a tab or a line break", m.Name, s)
			}
			if to := m.Requires[s]; to < 0 || to >= len(mods) {
				return nil, fmt.Errorf("module %s: require %q names no module (%d)", m.Name, s, to)
			}
			fmt.Fprintf(&index, "%s\t%d\n", s, m.Requires[s])
		}
		body.WriteString(m.Source)
	}
	out := fmt.Appendf(nil, "%s %d %d\n", magic, len(mods), index.Len())
	out = append(out, index.Bytes()...)
	return append(out, body.Bytes()...), nil
}

// Pack is a pack opened for reading: its index, and the sources read on
// demand.
type Pack struct {
	Modules []Module // without their Source
	r       io.ReaderAt
}

// Open reads the index of the pack in r (size bytes long).
func Open(r io.ReaderAt, size int64) (*Pack, error) {
	head := make([]byte, min(size, 64))
	if _, err := r.ReadAt(head, 0); err != nil && err != io.EOF {
		return nil, err
	}
	line, _, ok := bytes.Cut(head, []byte("\n"))
	var n, indexLen int
	if !ok || !bytes.HasPrefix(line, []byte(magic+" ")) {
		return nil, errors.New("not a module pack (" + magic + ")")
	}
	if _, err := fmt.Sscanf(string(line[len(magic)+1:]), "%d %d", &n, &indexLen); err != nil || n < 1 || indexLen < 0 {
		return nil, fmt.Errorf("not a module pack: %q", line)
	}
	start := int64(len(line) + 1)
	if start+int64(indexLen) > size {
		return nil, errors.New("truncated index")
	}
	buf := make([]byte, indexLen)
	if _, err := r.ReadAt(buf, start); err != nil && err != io.EOF {
		return nil, err
	}
	rest := string(buf)
	var entry string
	mods := make([]Module, n)
	offset := start + int64(indexLen)
	for i := range mods {
		if entry, rest, ok = strings.Cut(rest, "\n"); !ok {
			return nil, fmt.Errorf("module %d: truncated index", i)
		}
		f := strings.SplitN(entry, " ", 4)
		if len(f) != 4 || (f[0] != KindJS && f[0] != KindJSON) {
			return nil, fmt.Errorf("module %d: bad index line %q", i, entry)
		}
		size, err1 := strconv.ParseInt(f[1], 10, 64)
		reqs, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || size < 0 || reqs < 0 {
			return nil, fmt.Errorf("module %d: bad index line %q", i, entry)
		}
		m := &mods[i]
		m.Kind, m.Name, m.offset, m.size = f[0], f[3], offset, size
		offset += size
		m.Requires = make(map[string]int, reqs)
		for range reqs {
			if entry, rest, ok = strings.Cut(rest, "\n"); !ok {
				return nil, fmt.Errorf("module %d: truncated requires", i)
			}
			spec, id, _ := strings.Cut(entry, "\t")
			to, err := strconv.Atoi(id)
			if err != nil || to < 0 || to >= n {
				return nil, fmt.Errorf("module %s: bad require %q", m.Name, entry)
			}
			m.Requires[spec] = to
		}
	}
	if rest != "" {
		return nil, errors.New("trailing bytes after the index")
	}
	if offset != size {
		return nil, fmt.Errorf("the sources take %d bytes, the pack has %d", offset-start-int64(indexLen), size-start-int64(indexLen))
	}
	return &Pack{Modules: mods, r: r}, nil
}

// Source reads module id's source.
func (p *Pack) Source(id int) (string, error) {
	m := p.Modules[id]
	buf := make([]byte, m.size)
	if _, err := p.r.ReadAt(buf, m.offset); err != nil && !(err == io.EOF && m.size == 0) {
		return "", fmt.Errorf("module %s: %w", m.Name, err)
	}
	return string(buf), nil
}
