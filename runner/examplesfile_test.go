package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// An Examples block tagged @from:FILE gets its rows from a CSV or JSON
// file before pickles are compiled: one pickle per row, with the row's
// values in its name and steps, and a clear error (the tag's line and
// column, the file's line) when the file cannot give rows.
func TestExamplesFromFiles(t *testing.T) {
	const outline = "Feature: f\n  Scenario Outline: <name> is <age>\n    Given <name> is <age>\n\n    %s\n    Examples:%s\n"
	for _, tc := range []struct {
		name, tag, table string
		files            map[string]string
		want             []string // pickle names
		err              string
	}{
		{name: "csv", tag: "@from:data/people.csv", files: map[string]string{"data/people.csv": "\ufeffname,age\nAda,36\n\"Hopper, Grace\",85\n"},
			want: []string{"Ada is 36", "Hopper, Grace is 85"}},
		{name: "json", tag: "@from:data/people.json", files: map[string]string{"data/people.json": `[{"name": "Ada", "age": 36}, {"age": 41, "name": "Alan", "tags": ["x"]}, {"name": null}]`},
			want: []string{"Ada is 36", "Alan is 41", " is "}},
		{name: "an empty data set", tag: "@from:data/none.json", files: map[string]string{"data/none.json": `[]`},
			err: "features/a.feature:5:5: @from:data/none.json: data/none.json: the file has no columns"},
		{name: "header only", tag: "@from:data/h.csv", files: map[string]string{"data/h.csv": "name,age\n"}, want: nil},
		{name: "missing file", tag: "@from:data/nope.csv",
			err: "features/a.feature:5:5: @from:data/nope.csv: data/nope.csv does not exist (looked for features/data/nope.csv: the path is relative to the feature file's directory)"},
		{name: "a table too", tag: "@from:data/h.csv", table: "\n      | name | age |\n      | Ada  | 36  |", files: map[string]string{"data/h.csv": "name,age\n"},
			err: "features/a.feature:5:5: @from:data/h.csv: this Examples block takes its rows from data/h.csv: remove its table"},
		{name: "two files", tag: "@from:a.csv @from:b.csv",
			err: "features/a.feature:5:17: @from:b.csv: an Examples block takes its rows from one file (it is also tagged @from:a.csv)"},
		{name: "no path", tag: "@from:", err: "features/a.feature:5:5: @from:: @from: names a CSV or JSON file"},
		{name: "another format", tag: "@from:data/x.yaml", files: map[string]string{"data/x.yaml": "a: 1\n"},
			err: "@from:data/x.yaml: data/x.yaml: examples are read from a .csv or .json file"},
		{name: "bad csv", tag: "@from:d.csv", files: map[string]string{"d.csv": "a,b\n1,\"2\n"}, err: `@from:d.csv: d.csv: line 2, column 6: extraneous or missing " in quoted-field`},
		{name: "ragged csv", tag: "@from:d.csv", files: map[string]string{"d.csv": "a,b\n1,2,3\n"}, err: "@from:d.csv: d.csv: line 2, column 1: wrong number of fields"},
		{name: "json not objects", tag: "@from:d.json", files: map[string]string{"d.json": `[{"a": 1}, 2]`}, err: "@from:d.json: d.json: element 1 is not an object: 2"},
		{name: "json syntax", tag: "@from:d.json", files: map[string]string{"d.json": "[\n{\"a\": 1},\n}"}, err: "@from:d.json: d.json: line 3: invalid character '}'"},
		{name: "json not an array", tag: "@from:d.json", files: map[string]string{"d.json": `{"a": 1}`}, err: "@from:d.json: d.json: expected an array of objects, one per row"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tc.files {
				p := filepath.Join(dir, "features", filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			src := strings.Replace(strings.Replace(outline, "%s", tc.tag, 1), "%s", tc.table, 1)
			f, err := parseFeatureData([]byte(src), filepath.Join(dir, "features", "a.feature"), "features/a.feature", "")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range f.pickles {
				got = append(got, p.Name)
				if p.Location == nil || p.Location.Line != 5 {
					t.Errorf("%s: location %v, want the tag's line 5", p.Name, p.Location)
				}
				if len(p.Tags) != 1 || p.Tags[0].Name != tc.tag {
					t.Errorf("%s: tags %v, want the tag %s", p.Name, p.Tags, tc.tag)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("pickles %q, want %q", got, tc.want)
			}
			// The Gherkin document carries the rows, for reports that show the table.
			ex := f.doc.Feature.Children[0].Scenario.Examples[0]
			if ex.TableHeader == nil || len(ex.TableBody) != len(tc.want) {
				t.Fatalf("the document's examples: header %v, %d rows", ex.TableHeader, len(ex.TableBody))
			}
		})
	}
}
