package runner

import (
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// A step text up to maxSnippetText gets the generator's parameterised
// expressions; a longer one a single literal expression (the generator's
// time grows faster than the square of its parameters), which still
// matches the text exactly.
func TestSnippetExpressions(t *testing.T) {
	long := "I send " + strings.Repeat(`"a" 1 (x) {y} a/b \ `, 20)
	for _, tc := range []struct {
		name, text string
		want       []string // expression sources, in order
		params     int      // parameters of the first
	}{
		{"short", `I have 42 "cukes"`, []string{`I have {int} {string}`, `I have {float} {string}`}, 2},
		{"long", long, []string{escapeCucumberExpression(long)}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := newMatcher(&jsbridge.Registry{})
			if err != nil {
				t.Fatal(err)
			}
			got := m.snippetExprs(tc.text)
			if len(got) < len(tc.want) {
				t.Fatalf("got %d expressions, want at least %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				if got[i].source != w {
					t.Errorf("expression %d: got %q, want %q", i, got[i].source, w)
				}
			}
			if len(got[0].params) != tc.params {
				t.Errorf("parameters: got %v, want %d", got[0].params, tc.params)
			}
			expr, err := m.cucumberExpression(got[0].source)
			if err != nil {
				t.Fatalf("the snippet's expression does not compile: %v", err)
			}
			if args, err := expr.Match(tc.text); err != nil || args == nil {
				t.Errorf("the snippet's expression %q does not match its text (err %v)", got[0].source, err)
			}
		})
	}
	if n := len(long); n <= maxSnippetText {
		t.Fatalf("the long text is %d bytes, not over %d", n, maxSnippetText)
	}
}
