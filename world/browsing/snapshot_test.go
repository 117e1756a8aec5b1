package browsing

import (
	"strings"
	"testing"
)

// Playwright 1.52's output for the demo app's todo page, before and after
// adding a todo (its element numbers shift; ours must not).
const todoBefore = `- banner [ref=s1e3]:
  - link "ferridriver demo" [ref=s1e4]:
    - /url: /
- main [ref=s1e5]:
  - heading "Todo list" [level=1] [ref=s1e6]
  - form "Add todo" [ref=s1e8]:
    - text: New todo
    - textbox "New todo" [ref=s1e10]
    - button "Add" [ref=s1e11]
  - list "Todos" [ref=s1e12]
  - status [ref=s1e14]: 0 items left
  - button "Clear completed" [ref=s1e19]`

const todoAfter = `- banner [ref=s2e3]:
  - link "ferridriver demo" [ref=s2e4]:
    - /url: /
- main [ref=s2e5]:
  - heading "Todo list" [level=1] [ref=s2e6]
  - form "Add todo" [ref=s2e8]:
    - text: New todo
    - textbox "New todo" [ref=s2e10]
    - button "Add" [ref=s2e11]
  - list "Todos" [ref=s2e12]:
    - listitem [ref=s2e13]:
      - text: Buy milk
      - checkbox "Buy milk" [ref=s2e14]
  - status [ref=s2e16]: 1 item left
  - button "Clear completed" [ref=s2e21]`

func TestParseLine(t *testing.T) {
	for _, tc := range []struct {
		body, role, name string
		hasName          bool
		ref              string
	}{
		{`button "Log in" [ref=s1e12]`, "button", "Log in", true, "s1e12"},
		{`heading "Todo list" [level=1] [ref=s1e6]`, "heading", "Todo list", true, "s1e6"},
		{`status [ref=s1e14]: 0 items left`, "status", "", false, "s1e14"},
		{`textbox "Say \"hi\"" [ref=s1e9]: x`, "textbox", `Say "hi"`, true, "s1e9"},
		{`'button "a: b" [ref=s2e1]'`, "button", "a: b", true, "s2e1"},
		{`text: Username`, "text", "", false, ""},
		{`/url: /`, "/url", "", false, ""},
	} {
		role, name, has, ref := parseLine(tc.body)
		if role != tc.role || name != tc.name || has != tc.hasName || ref != tc.ref {
			t.Errorf("parseLine(%q) = %q %q %v %q, want %q %q %v %q", tc.body, role, name, has, ref, tc.role, tc.name, tc.hasName, tc.ref)
		}
	}
}

func TestRefsStayStableAndDiffShowsChangesOnly(t *testing.T) {
	rs := newRefs()
	before := parseSnapshot(todoBefore, rs)
	after := parseSnapshot(todoAfter, rs)
	for _, name := range []string{"New todo", "Add", "Clear completed"} {
		var b, a *node
		for _, n := range orderedNodes(before) {
			if n.name == name {
				b = n
			}
		}
		for _, n := range orderedNodes(after) {
			if n.name == name {
				a = n
			}
		}
		if a == nil || b == nil || a.ref != b.ref {
			t.Fatalf("%s: ref changed or missing (%v, %v)", name, b, a)
		}
	}
	full, err := before.full("", 0)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(full, "s1e") || !strings.Contains(full, "  - form \"Add todo\" [ref=e5]:\n    - textbox \"New todo\" [ref=e6]") {
		t.Errorf("full snapshot should use our refs and keep line order:\n%s", full)
	}
	d := diff(before, after)
	want := `- list "Todos" [ref=e8]:
  - listitem [ref=e11]:
    - checkbox "Buy milk" [ref=e12]
- status [ref=e9]: 1 item left
`
	if d != want {
		t.Errorf("diff:\n%s\nwant:\n%s", d, want)
	}
	if diff(after, after) != "" {
		t.Errorf("no change should diff to nothing")
	}
	back := parseSnapshot(todoBefore, rs)
	if d := diff(after, back); !strings.Contains(d, "# removed: e11") || strings.Contains(d, "e12") {
		t.Errorf("removal should name the removed subtree's top only:\n%s", d)
	}
}

func TestScopeAndDepth(t *testing.T) {
	tr := parseSnapshot(todoAfter, newRefs())
	got, err := tr.full("e8", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "- list \"Todos\" [ref=e8]:\n  - listitem [ref=e9]:\n    - checkbox \"Buy milk\" [ref=e10]\n"
	if got != want {
		t.Errorf("scoped:\n%s\nwant:\n%s", got, want)
	}
	got, _ = tr.full("", 1)
	if strings.Contains(got, "heading") || !strings.Contains(got, "- main [ref=e3]:\n  - …") {
		t.Errorf("depth 1:\n%s", got)
	}
	if _, err := tr.full("e99", 0); err == nil || !strings.Contains(err.Error(), "browser_snapshot") {
		t.Errorf("unknown ref: %v", err)
	}
}

func TestDuplicateSiblingsGetDistinctRefs(t *testing.T) {
	tr := parseSnapshot("- list [ref=s1e1]:\n  - listitem [ref=s1e2]: a\n  - listitem [ref=s1e3]: b\n", newRefs())
	n := orderedNodes(tr)
	if len(n) != 3 || n[1].ref == n[2].ref || n[1].pwRef != "s1e2" || n[2].pwRef != "s1e3" {
		t.Fatalf("nodes: %+v", n)
	}
}

// The text of a label next to the control it names is left out (the
// control's line carries it); other text keeps its place.
func TestLabelTextNextToItsControlIsLeftOut(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"- form [ref=s1e1]:\n  - text: User\n  - textbox \"User\" [ref=s1e2]\n", "- form [ref=e1]:\n  - textbox \"User\" [ref=e2]\n"},
		{"- listitem [ref=s1e1]:\n  - checkbox \"Buy milk\" [ref=s1e2]\n  - text: Buy milk\n", "- listitem [ref=e1]:\n  - checkbox \"Buy milk\" [ref=e2]\n"},
		{"- form [ref=s1e1]:\n  - text: \"Name:\"\n  - textbox \"Name:\" [ref=s1e2]\n", "- form [ref=e1]:\n  - textbox \"Name:\" [ref=e2]\n"},
		// Not a label of its neighbour: kept, in order.
		{"- paragraph [ref=s1e1]:\n  - text: \"Hint:\"\n  - code [ref=s1e2]: demo\n  - text: /\n", "- paragraph [ref=e1]:\n  - text: \"Hint:\"\n  - code [ref=e2]: demo\n  - text: /\n"},
		{"- form [ref=s1e1]:\n  - text: User name\n  - textbox \"User\" [ref=s1e2]\n", "- form [ref=e1]:\n  - text: User name\n  - textbox \"User\" [ref=e2]\n"},
		// A text nested deeper than the control is not its sibling.
		{"- form [ref=s1e1]:\n  - textbox \"User\" [ref=s1e2]:\n    - text: User\n", "- form [ref=e1]:\n  - textbox \"User\" [ref=e2]:\n    - text: User\n"},
	} {
		got, err := parseSnapshot(tc.in, newRefs()).full("", 0)
		if err != nil || got != tc.want {
			t.Errorf("%q:\n%s\nwant:\n%s", tc.in, got, tc.want)
		}
	}
}
