package formatters

import (
	"bytes"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// TestTerminalFormatsMatchOfficial compares pretty, progress and summary
// with what cucumber-js prints for every CCK stream, with and without
// colours and with non-default options.
func TestTerminalFormatsMatchOfficial(t *testing.T) {
	for _, tc := range []struct {
		format  string
		color   bool
		options string
	}{
		{"pretty", false, `{}`},
		{"pretty", true, `{}`},
		{"pretty", false, `{"pretty":{"includeFeatureLine":false,"useStatusIcon":false},"includeAttachments":false}`},
		{"pretty", false, `{"pretty":{"includeRuleLine":false}}`},
		{"progress", false, `{}`},
		{"progress", true, `{}`},
		{"summary", false, `{}`},
		{"summary", true, `{}`},
		{"summary", false, `{"includeAttachments":false}`},
	} {
		name := tc.format
		if tc.color {
			name += "/color"
		}
		if tc.options != `{}` {
			name += "/options"
		}
		t.Run(name, func(t *testing.T) {
			env := []string{"NO_COLOR="}
			if tc.color {
				env = []string{"FORCE_COLOR=1"}
			}
			official := official(t, "pretty-oracle.mjs", tc.format, ".txt", env, tc.options, cckPaths(t))
			fo, err := MergeFormatOptions([]string{tc.options})
			if err != nil {
				t.Fatal(err)
			}
			same := 0
			for _, s := range cckStreams(t) {
				got := render(t, tc.format, Options{Color: tc.color, FormatOptions: fo}, oracles.ReadStream(t, s.path))
				if want := official[s.name]; !bytes.Equal(want, got) {
					t.Errorf("%s: %s differs from cucumber-js: %s", s.name, tc.format, diff(want, got))
					continue
				}
				same++
			}
			t.Logf("%s byte-identical on %d/%d CCK streams", name, same, len(official))
		})
	}
}
