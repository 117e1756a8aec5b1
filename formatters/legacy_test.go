package formatters

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// withoutRuleTagLines drops from got the "line" of every tag that has none
// in want: cucumber-js leaves it out for tags inherited from a Rule, which
// makes its output invalid against the schema, and we fill it in.
func withoutRuleTagLines(want, got any) any {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		if _, hasName := w["name"]; hasName {
			if _, hasLine := w["line"]; !hasLine {
				if _, tagLike := g["line"]; tagLike && len(w) == 1 {
					delete(g, "line")
				}
			}
		}
		for k := range w {
			g[k] = withoutRuleTagLines(w[k], g[k])
		}
		return g
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return got
		}
		for i := range w {
			g[i] = withoutRuleTagLines(w[i], g[i])
		}
		return g
	}
	return got
}

func sameJSONButRuleTagLines(want, got []byte) bool {
	var w, g any
	if json.Unmarshal(want, &w) != nil || json.Unmarshal(got, &g) != nil {
		return false
	}
	return reflect.DeepEqual(w, withoutRuleTagLines(w, g))
}

// TestLegacyFormatsMatchCucumberJS compares json, rerun, usage and
// usage-json with cucumber-js's own formatter classes run on every CCK
// stream.
func TestLegacyFormatsMatchCucumberJS(t *testing.T) {
	for _, tc := range []struct{ format, options string }{
		{"json", `{}`},
		{"rerun", `{}`},
		{"rerun", `{"rerun":{"separator":" "}}`},
		{"usage", `{}`},
		{"usage-json", `{}`},
	} {
		t.Run(tc.format, func(t *testing.T) {
			want := official(t, "legacy-oracle.cjs", tc.format, ".out", nil, tc.options, cckPaths(t))
			fo, err := MergeFormatOptions([]string{tc.options})
			if err != nil {
				t.Fatal(err)
			}
			same, tagLines := 0, 0
			for _, s := range cckStreams(t) {
				got := render(t, tc.format, Options{FormatOptions: fo}, oracles.ReadStream(t, s.path))
				switch {
				case bytes.Equal(want[s.name], got):
					same++
				case tc.format == "json" && sameJSONButRuleTagLines(want[s.name], got):
					tagLines++
				default:
					t.Errorf("%s: %s differs from cucumber-js: %s", s.name, tc.format, diff(want[s.name], got))
				}
			}
			t.Logf("%s (options %s): byte-identical on %d/%d CCK streams, %d more equal but for the lines of Rule tags",
				tc.format, tc.options, same, len(want), tagLines)
		})
	}
}
