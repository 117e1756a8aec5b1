package browsing

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// A snapshot is Playwright's aria snapshot (locator.ariaSnapshot with
// refs) re-labelled with refs that stay stable while the page changes.
//
// Playwright numbers the elements of each snapshot in traversal order
// (s<generation>e<n>), so adding one list item renumbers everything after
// it, and its refs only resolve in the latest generation. An agent needs
// the same element to keep its handle from one action to the next (that is
// what lets an action's result show only what changed), so every node gets
// a key from its position in the tree (its ancestors' keys, its role and
// name, and its index among siblings with the same role and name) and a
// ref eN is given per key, once per document. Resolving eN finds the key's
// node in the latest snapshot and uses its Playwright ref.

// node is one line of the snapshot that carries a ref, with what belongs to
// it.
type node struct {
	key    string // stable identity within the document
	ref    string // our ref, eN
	pwRef  string // Playwright's ref in this snapshot (s3e12)
	role   string
	name   string
	hasNam bool
	indent int
	line   string   // the line with our ref (no trailing newline)
	extra  []string // descendant lines without a ref, indented as in the snapshot
	kids   []*node
	parent *node
	// items are the lines below the node in snapshot order: a line
	// without a ref (line set) or a child node (kid set).
	items []item
}

type item struct {
	line string
	kid  *node
}

// tree is a parsed snapshot.
type tree struct {
	roots []*node
	loose []string // lines before any node (rare: text directly under the root)
	byKey map[string]*node
	byRef map[string]*node
}

var refAttr = regexp.MustCompile(` \[ref=([a-z0-9]+)\]`)

// parseLine splits a snapshot line's body (without the indent and "- ")
// into role, name (and whether it has one) and Playwright ref.
func parseLine(body string) (role, name string, hasName bool, pwRef string) {
	// A key that needs YAML quoting is written '...' with '' for '.
	if strings.HasPrefix(body, "'") {
		if end := closingQuote(body); end > 0 {
			body = strings.ReplaceAll(body[1:end], "''", "'") + body[end+1:]
		}
	}
	if m := refAttr.FindStringSubmatch(body); m != nil {
		pwRef = m[1]
	}
	i := strings.IndexAny(body, " :")
	if i < 0 {
		return body, "", false, pwRef
	}
	role = body[:i]
	rest := body[i:]
	if strings.HasPrefix(rest, ` "`) {
		if n, ok := quoted(rest[1:]); ok {
			name, hasName = n, true
		}
	}
	return role, name, hasName, pwRef
}

// closingQuote is the index of the ' that closes a YAML single-quoted
// scalar starting at s[0], or -1.
func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		if s[i] == '\'' {
			if i+1 < len(s) && s[i+1] == '\'' {
				i++
				continue
			}
			return i
		}
	}
	return -1
}

// quoted decodes the JSON-style string at the start of s.
func quoted(s string) (string, bool) {
	esc := false
	for i := 1; i < len(s); i++ {
		switch {
		case esc:
			esc = false
		case s[i] == '\\':
			esc = true
		case s[i] == '"':
			var out string
			if json.Unmarshal([]byte(s[:i+1]), &out) != nil {
				return s[1:i], true
			}
			return out, true
		}
	}
	return "", false
}

// refs assigns stable refs to keys, per document.
type refs struct {
	next  int
	byKey map[string]string
}

func newRefs() *refs { return &refs{byKey: map[string]string{}} }

func (r *refs) get(key string) string {
	if ref, ok := r.byKey[key]; ok {
		return ref
	}
	r.next++
	ref := fmt.Sprintf("e%d", r.next)
	r.byKey[key] = ref
	return ref
}

// parseSnapshot parses Playwright's output and labels nodes with refs
// from rs.
func parseSnapshot(text string, rs *refs) *tree {
	t := &tree{byKey: map[string]*node{}, byRef: map[string]*node{}}
	var stack []*node
	seen := map[string]int{} // parent key + role/name -> count
	for _, raw := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		indent := len(raw) - len(strings.TrimLeft(raw, " "))
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		body := strings.TrimPrefix(strings.TrimLeft(raw, " "), "- ")
		role, name, hasName, pwRef := parseLine(body)
		if pwRef == "" {
			// A line without a ref (text, /url, a value) belongs to the
			// nearest node above it.
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				if text, ok := textLine(body); ok && len(p.items) > 0 {
					// The text of a label right after the control it names
					// (a checkbox's) says nothing the control's line does not.
					if k := p.items[len(p.items)-1].kid; k != nil && k.indent == indent && k.hasNam && k.name == text {
						continue
					}
				}
				p.extra = append(p.extra, raw)
				p.items = append(p.items, item{line: raw})
			} else {
				t.loose = append(t.loose, raw)
			}
			continue
		}
		var parent *node
		pk := ""
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
			pk = parent.key
		}
		id := role
		if hasName {
			id += " " + strconvQuote(name)
		}
		k := pk + "/" + id
		n := seen[k]
		seen[k] = n + 1
		key := fmt.Sprintf("%s#%d", k, n)
		nd := &node{key: key, pwRef: pwRef, role: role, name: name, hasNam: hasName, indent: indent, parent: parent}
		nd.ref = rs.get(key)
		nd.line = strings.Replace(raw, "[ref="+pwRef+"]", "[ref="+nd.ref+"]", 1)
		if parent != nil {
			// Likewise the text of a label right before the control it
			// names (a text field's).
			if n := len(parent.items); n > 0 && hasName && parent.items[n-1].kid == nil {
				last := parent.items[n-1].line
				if text, ok := textLine(strings.TrimPrefix(strings.TrimLeft(last, " "), "- ")); ok && text == name && len(last)-len(strings.TrimLeft(last, " ")) == indent {
					parent.items = parent.items[:n-1]
					parent.extra = parent.extra[:len(parent.extra)-1]
				}
			}
			parent.kids = append(parent.kids, nd)
			parent.items = append(parent.items, item{kid: nd})
		} else {
			t.roots = append(t.roots, nd)
		}
		t.byKey[key] = nd
		t.byRef[nd.ref] = nd
		stack = append(stack, nd)
	}
	return t
}

// textLine returns the text of a snapshot line's body "text: ..." (its
// YAML quotes removed).
func textLine(body string) (string, bool) {
	v, ok := strings.CutPrefix(body, "text: ")
	if !ok {
		return "", false
	}
	switch {
	case strings.HasPrefix(v, `"`):
		var out string
		if json.Unmarshal([]byte(v), &out) != nil {
			return "", false
		}
		return out, true
	case strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'") && len(v) >= 2:
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'"), true
	}
	return v, true
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// sig is what an agent sees of a node itself: its line and its lines
// without refs, plus the order of its children.
func (n *node) sig() string {
	var b strings.Builder
	b.WriteString(n.line)
	for _, e := range n.extra {
		b.WriteByte('\n')
		b.WriteString(e)
	}
	for _, k := range n.kids {
		b.WriteString("|")
		b.WriteString(k.ref)
	}
	return b.String()
}

// render writes the subtree of nodes (with their lines without refs, which
// come after the node's line; children follow). Depth counts levels below
// the first written level; depth <= 0 means no limit. base is the indent
// removed from every line (to scope to an element).
func render(b *strings.Builder, nodes []*node, depth, level, base int) {
	for _, n := range nodes {
		writeLine(b, n.line, base)
		if depth > 0 && level+1 >= depth {
			if len(n.items) > 0 {
				writeLine(b, strings.Repeat(" ", n.indent+2)+"- …", base)
			}
			continue
		}
		for _, it := range n.items {
			if it.kid == nil {
				writeLine(b, it.line, base)
			} else {
				render(b, []*node{it.kid}, depth, level+1, base)
			}
		}
	}
}

func writeLine(b *strings.Builder, line string, base int) {
	if base > 0 && len(line) >= base {
		line = line[base:]
	}
	b.WriteString(line)
	b.WriteByte('\n')
}

// full renders the whole tree, or the subtree at ref, to depth levels.
func (t *tree) full(ref string, depth int) (string, error) {
	var b strings.Builder
	if ref != "" {
		n := t.byRef[ref]
		if n == nil {
			return "", fmt.Errorf("ref %s is not in the page's latest snapshot; take a new snapshot (browser_snapshot)", ref)
		}
		render(&b, []*node{n}, depth, 0, n.indent)
		return b.String(), nil
	}
	for _, l := range t.loose {
		writeLine(&b, l, 0)
	}
	render(&b, t.roots, depth, 0, 0)
	return b.String(), nil
}

// diff renders what changed in t since old: every node that is new or
// whose own lines or children changed, with its subtree (of its children,
// the new ones whole and only the changed parts of the others), each
// written from its own indent; the unchanged ancestors above it are left
// out (its ref places it). The refs of nodes that disappeared are listed
// last. "" means nothing changed.
func diff(old, t *tree) string {
	var b strings.Builder
	var walk func(nodes []*node) bool
	changed := map[*node]bool{}
	marks := map[*node]bool{} // node or a descendant changed
	walk = func(nodes []*node) bool {
		any := false
		for _, n := range nodes {
			o := old.byKey[n.key]
			if o == nil || o.sig() != n.sig() {
				changed[n] = true
				marks[n] = true
				any = true
				if o == nil {
					continue // all of it is new: written whole
				}
			}
			if walk(n.kids) {
				marks[n] = true
				any = true
			}
		}
		return any
	}
	walk(t.roots)
	// emit writes the marked nodes below a changed one (base: the indent
	// of that changed node).
	var emit func(nodes []*node, base int)
	emit = func(nodes []*node, base int) {
		for _, n := range nodes {
			if !marks[n] {
				continue
			}
			if changed[n] && old.byKey[n.key] == nil {
				render(&b, []*node{n}, 0, 0, base)
				continue
			}
			writeLine(&b, n.line, base)
			// A changed node shows its own lines; of its children, only
			// those that changed, in order.
			for _, it := range n.items {
				if it.kid == nil {
					if changed[n] {
						writeLine(&b, it.line, base)
					}
				} else {
					emit([]*node{it.kid}, base)
				}
			}
		}
	}
	// top finds the topmost changed nodes, skipping the ancestors that
	// only lead to them.
	var top func(nodes []*node)
	top = func(nodes []*node) {
		for _, n := range nodes {
			switch {
			case changed[n]:
				emit([]*node{n}, n.indent)
			case marks[n]:
				top(n.kids)
			}
		}
	}
	looseChanged := strings.Join(old.loose, "\n") != strings.Join(t.loose, "\n")
	if looseChanged {
		for _, l := range t.loose {
			writeLine(&b, l, 0)
		}
	}
	top(t.roots)
	var gone []string
	for _, n := range orderedNodes(old) {
		// A removed subtree is named by its top node only.
		if t.byKey[n.key] == nil && (n.parent == nil || t.byKey[n.parent.key] != nil) {
			gone = append(gone, n.ref)
		}
	}
	if len(gone) > 0 {
		fmt.Fprintf(&b, "# removed: %s\n", strings.Join(gone, ", "))
	}
	return b.String()
}

// orderedNodes lists t's nodes in document order.
func orderedNodes(t *tree) []*node {
	var out []*node
	var walk func([]*node)
	walk = func(ns []*node) {
		for _, n := range ns {
			out = append(out, n)
			walk(n.kids)
		}
	}
	walk(t.roots)
	return out
}
