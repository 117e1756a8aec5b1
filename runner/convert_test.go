package runner

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	gherkin "github.com/cucumber/gherkin/go/v32"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/messages"
)

// The field-by-field copy of the Gherkin library's documents and pickles
// gives exactly what their JSON form decodes to, for every CCK feature.
func TestConversionMatchesJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(oracles.CCKFeatures(t), "*", "*.feature"))
	if len(files) < 40 {
		t.Fatalf("%d feature files", len(files))
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(data), newID)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		doc.Uri = "x.feature"
		viaJSON := func(in, out any) string {
			b, _ := json.Marshal(in)
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatal(err)
			}
			o, _ := json.Marshal(out)
			return string(o)
		}
		direct, _ := json.Marshal(convDocument(doc))
		if want := viaJSON(doc, &messages.GherkinDocument{}); string(direct) != want {
			t.Fatalf("%s: document differs\n got %s\nwant %s", f, direct, want)
		}
		for _, p := range gherkin.Pickles(*doc, "x.feature", newID) {
			direct, _ := json.Marshal(convPickle(p))
			if want := viaJSON(p, &messages.Pickle{}); string(direct) != want {
				t.Fatalf("%s: pickle differs\n got %s\nwant %s", f, direct, want)
			}
		}
	}
}
