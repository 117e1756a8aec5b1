package browsing

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/runner"
	"github.com/ferridriver/ferridriver/steps"

	// The library imports @playwright/test, whose module the browser
	// bindings register.
	_ "github.com/ferridriver/ferridriver/world/jsapi"
)

// samples are argument lists for a phrase's parameters: plain values, then
// values that need quoting (both quotes, a backslash) and the negation.
func samples(p phrase) [][]any {
	plain := map[string]any{"text": "Ada", "target": `role=button[name="Log in"]`, "expected": "demo", "int": 2, "to": wordTo, "validation": wordToEqual}
	tricky := map[string]any{"text": `say "it's" \ ok`, "target": `role=row[name="it's"] >> nth=3`, "expected": `a "b" 'c'`, "int": 12, "to": wordNotTo, "validation": wordToEqual}
	var out [][]any
	for _, vals := range []map[string]any{plain, tricky} {
		var args []any
		for _, typ := range p.params() {
			args = append(args, vals[typ])
		}
		out = append(out, args)
	}
	return out
}

// Every phrasing the recording writes is a definition of the built-in
// library (its expression, verbatim), and every step rendered from it,
// with plain and awkward arguments, matches that definition and no other
// through the matcher `bdd` uses: an exported session replays with the
// built-in steps.
func TestRecordedPhrasesAreLibrarySteps(t *testing.T) {
	var out strings.Builder
	lib, err := runner.LoadBuiltinSteps(runner.Options{Dir: t.TempDir(), Library: steps.Library(), Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatalf("the library does not load: %v", err)
	}
	t.Cleanup(lib.Close)
	reg := lib.Registry()
	rendered := 0
	for _, p := range phrases {
		n := 0
		for _, d := range reg.Steps {
			if d.Pattern == string(p) && !d.IsRegexp {
				n++
			}
		}
		if n != 1 {
			t.Errorf("phrase %q: %d library definitions have this expression, want 1", p, n)
			continue
		}
		for _, args := range samples(p) {
			text := p.render(args...)
			rendered++
			got, err := lib.MatchText(text)
			switch {
			case err != nil:
				t.Errorf("%q (of %q): %v", text, p, err)
			case len(got) != 1:
				t.Errorf("%q (of %q) matches %d library steps, want 1", text, p, len(got))
			case got[0].Pattern != string(p):
				t.Errorf("%q (of %q) matches %q instead", text, p, got[0].Pattern)
			}
		}
	}
	if rendered < 2*len(phrases) {
		t.Fatalf("rendered %d steps of %d phrases", rendered, len(phrases))
	}
}

// The phrases list holds every phrase constant the package declares (the
// test above checks the list), and the recording writes step text only
// through them: no step text is a literal or formatted elsewhere.
func TestEveryPhraseIsListed(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, pkg := range pkgs {
		for name, f := range pkg.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.ValueSpec:
					if id, ok := x.Type.(*ast.Ident); ok && id.Name == "phrase" {
						for _, v := range x.Values {
							s, _ := strconv.Unquote(v.(*ast.BasicLit).Value)
							declared = append(declared, s)
						}
					}
				case *ast.KeyValueExpr:
					// Step{Text: ...} is built only by actionStep and checkStep.
					if k, ok := x.Key.(*ast.Ident); ok && k.Name == "Text" {
						if lit, ok := x.Value.(*ast.BasicLit); ok && strings.HasPrefix(lit.Value, `"I `) {
							t.Errorf("%s: a step written as a literal (%s): use a phrase", fset.Position(x.Pos()), lit.Value)
						}
						if c, ok := x.Value.(*ast.CallExpr); ok {
							if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
								if pk, ok := sel.X.(*ast.Ident); ok && pk.Name == "fmt" {
									t.Errorf("%s: a step formatted with fmt: use a phrase", fset.Position(x.Pos()))
								}
							}
						}
					}
				}
				return true
			})
			_ = name
		}
	}
	if len(declared) == 0 {
		t.Fatal("no phrase constant found")
	}
	for _, d := range declared {
		if !slices.Contains(phrases, phrase(d)) {
			t.Errorf("phrase %q is not in phrases (so not checked against the library)", d)
		}
	}
	if len(declared) != len(phrases) {
		t.Errorf("%d phrase constants, %d in phrases", len(declared), len(phrases))
	}
}

func TestPhraseRender(t *testing.T) {
	for _, tc := range []struct {
		p    phrase
		args []any
		want string
	}{
		{phClick, []any{`role=button[name="Add"]`}, `I click 'role=button[name="Add"]'`},
		{phWaitMillis, []any{500}, `I wait 500 milliseconds`},
		{phExpectChecked, []any{"#terms", wordNotTo}, `I expect "#terms" not to be checked`},
		{phExpectURL, []any{wordToEqual, "/todo.html"}, `I expect the URL to equal "/todo.html"`},
		{phCloseTab, []any{2}, `I close tab 2`},
		{phGoBack, nil, `I go back`},
	} {
		if got := tc.p.render(tc.args...); got != tc.want {
			t.Errorf("%q.render(%v) = %s, want %s", tc.p, tc.args, got, tc.want)
		}
	}
	for _, bad := range [][]any{{}, {"a", "b"}, {3}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("render(%v) of %q did not panic", bad, phClick)
				}
			}()
			phClick.render(bad...)
		}()
	}
}

func TestArticle(t *testing.T) {
	for in, want := range map[string]string{"alert": "an alert", "confirm": "a confirm", "prompt": "a prompt", "beforeunload": "a beforeunload"} {
		if got := article(in); got != want {
			t.Errorf("article(%q) = %q, want %q", in, got, want)
		}
	}
}

// A suggested check is left out of the export when the agent's own check
// follows it (notes in between do not count), kept otherwise.
func TestExportedDropsSuggestedCheckBeforeAgentCheck(t *testing.T) {
	open := actionStep(phOpen, "/todo.html")
	sug := checkStep(phExpectURL, wordToEqual, "/todo.html")
	sug.Suggested = true
	own := checkStep(phExpectPageText, wordTo, "Todo")
	click := actionStep(phClick, "#add")
	note := Step{Comment: "ran code"}
	for _, tc := range []struct {
		name string
		in   []Step
		want int // steps kept
	}{
		{"kept before an action", []Step{open, sug, click}, 3},
		{"kept at the end", []Step{open, sug}, 2},
		{"dropped before the agent's check", []Step{open, sug, own}, 2},
		{"dropped before a note and the agent's check", []Step{open, sug, note, own}, 3},
		{"kept before another suggested check", []Step{open, sug, sug}, 3},
	} {
		if got := Exported(tc.in); len(got) != tc.want {
			t.Errorf("%s: %d steps kept, want %d: %+v", tc.name, len(got), tc.want, got)
		}
	}
}
