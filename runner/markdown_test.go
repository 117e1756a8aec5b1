package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// markdownCases are Markdown with Gherkin documents exercising each token
// type of the Markdown matcher.
var markdownCases = map[string]string{
	"headers and bullets":            "# Feature: Shop\n\nSome prose.\n\n## Background:\n\n* Given a shop\n\n## Scenario: buy\n\n- When I buy 2 apples\n+ Then I have 2 apples\n* And nothing else\n* But no pears\n",
	"tags":                           "`@smoke` `@fast`\n# Feature: Tagged\n\n`@wip`\n## Scenario: one\n* Given x\n\n  `@slow` and prose\n## Scenario: two\n* Given y\n",
	"doc strings":                    "# Feature: Docs\n## Scenario: s\n* Given code:\n  ```js\n  const a = 1\n    indented\n  ```\n* And more:\n  ````\n  ```\n  nested fence\n  ```\n  ````\n",
	"tables":                         "# Feature: Tables\n\n| not | gherkin |\n| --- | --- |\n| x | y |\n\n## Scenario Outline: o <n>\n* Given n is <n>\n  | a | b |\n  | :-- | --: |\n  | 1 | 2 |\n### Examples: e\n  | n |\n  | --- |\n  | 1 |\n  | 2 |\n",
	"no feature header":              "Just a title line\n\n## Scenario: s\n* Given a\n",
	"rules":                          "# Feature: R\n## Rule: r1\n### Scenario: a\n* Given a\n## Rule: r2\n### Example: b\n* When b\n",
	"star is not a step":             "# Feature: Star\n## Scenario: s\n* * not a step\n* Given a step\n",
	"deep headers":                   "###### Feature: deep\n####### Scenario: too deep\n###### Scenario: deepest\n* Given z\n",
	"fr: French keywords":            "# Fonctionnalité: panier\n## Scénario: ajout\n* Soit un panier\n* Quand j'ajoute 2 pommes\n* Alors le panier a 2 fruits\n* Et rien d'autre\n",
	"fr: a language header is prose": "# language: en\n## Scénario: s\n* Soit a\n",
}

// markdownLanguage is the language a case is parsed in: its "xx:" prefix.
func markdownLanguage(name string) string {
	if lang, _, ok := strings.Cut(name, ": "); ok && len(lang) == 2 {
		return lang
	}
	return "en"
}

// TestMarkdownMatchesJavaScriptParser parses each document with ours and
// with the official JavaScript parser (GherkinInMarkdownTokenMatcher) and
// compares the GherkinDocument (ids aside) and the pickles.
func TestMarkdownMatchesJavaScriptParser(t *testing.T) {
	nm := oracles.NodeModules(t)
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is required for the JavaScript Gherkin parser: %v", err)
	}
	var names []string
	for n := range markdownCases {
		names = append(names, n)
	}
	sort.Strings(names)
	type doc struct {
		Data     string `json:"data"`
		Language string `json:"language"`
	}
	docs := make([]doc, len(names))
	for i, n := range names {
		docs[i] = doc{markdownCases[n], markdownLanguage(n)}
	}
	in, _ := json.Marshal(docs)
	script, _ := filepath.Abs(filepath.Join("testdata", "markdown-oracle.mjs"))
	cmd := exec.Command("node", script, nm)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("markdown oracle: %v\n%s", err, stderr.String())
	}
	var want []struct {
		Doc     map[string]any   `json:"doc"`
		Pickles []map[string]any `json:"pickles"`
		Error   string           `json:"error"`
	}
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			f, err := parseFeatureData([]byte(docs[i].Data), "x.feature.md", "x.feature.md", docs[i].Language)
			if want[i].Error != "" {
				if err == nil {
					t.Fatalf("JavaScript parser fails (%s), ours does not", want[i].Error)
				}
				return
			}
			if err != nil {
				t.Fatalf("ours: %v (the JavaScript parser accepts it)", err)
			}
			gotDoc := normalise(t, f.doc)
			delete(gotDoc.(map[string]any), "uri")
			w := stripIDs(want[i].Doc)
			// A feature line without "Feature:" has an undefined keyword
			// in JavaScript; the message schema requires a string: "".
			if feat, ok := w.(map[string]any)["feature"].(map[string]any); ok {
				if _, ok := feat["keyword"]; !ok {
					feat["keyword"] = ""
				}
			}
			if !reflect.DeepEqual(gotDoc, w) {
				gj, _ := json.Marshal(gotDoc)
				wj, _ := json.Marshal(w)
				t.Errorf("document differs:\ngot  %s\nwant %s", gj, wj)
			}
			// Every case has a scenario: an empty result would compare
			// equal and prove nothing.
			if len(want[i].Pickles) == 0 {
				t.Fatalf("the JavaScript parser found no pickle in %q", docs[i].Data)
			}
			var gotPickles []any
			for _, p := range f.pickles {
				gotPickles = append(gotPickles, normalise(t, p))
			}
			var wantPickles []any
			for _, p := range want[i].Pickles {
				wantPickles = append(wantPickles, stripIDs(p))
			}
			if !reflect.DeepEqual(gotPickles, wantPickles) {
				gj, _ := json.Marshal(gotPickles)
				wj, _ := json.Marshal(wantPickles)
				t.Errorf("pickles differ:\ngot  %s\nwant %s", gj, wj)
			}
		})
	}
}

// normalise turns v into its JSON form without ids, uri or location.
func normalise(t *testing.T, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return stripIDs(m)
}

// stripIDs drops the keys that differ between two parsers' runs: ids and
// the references to them, and the pickle's uri and location (set by the
// runner, not the parser).
func stripIDs(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			switch k {
			case "id", "astNodeId", "astNodeIds", "uri":
				continue
			}
			out[k] = stripIDs(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stripIDs(e)
		}
		return out
	}
	return v
}

// Discovery picks up Markdown with Gherkin beside .feature files, by
// default, in directories and through globs; other Markdown is not Gherkin.
func TestDiscoverMarkdownFeatures(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"features/a.feature", "features/sub/b.feature.md", "features/README.md", "other/c.feature.md"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# Feature: x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		paths []string
		want  []string
	}{
		{nil, []string{"features/a.feature", "features/sub/b.feature.md"}},
		{[]string{"features"}, []string{"features/a.feature", "features/sub/b.feature.md"}},
		{[]string{"**/*.feature.md"}, []string{"features/sub/b.feature.md", "other/c.feature.md"}},
		{[]string{"other/c.feature.md:3"}, []string{"other/c.feature.md"}},
	} {
		files, err := discoverFeatures(dir, tc.paths)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range files {
			rel, _ := filepath.Rel(dir, f.path)
			got = append(got, filepath.ToSlash(rel))
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("discover %v = %v, want %v", tc.paths, got, tc.want)
		}
	}
}
