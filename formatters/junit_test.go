package formatters

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// uniqueSuffix is what our junit appends to the name of a test case whose
// classname and name are already taken (the official formatter keeps the
// duplicate, which GitLab and Jenkins then drop).
var uniqueSuffix = regexp.MustCompile(` \([^"()]+:[0-9]+\)" time=`)

// TestJUnitMatchesOfficialFormatter renders every CCK stream with our junit
// format and with @cucumber/junit-xml-formatter, and wants the same bytes,
// with the default options and with suiteName/testClassName.
func TestJUnitMatchesOfficialFormatter(t *testing.T) {
	for _, options := range []string{`{}`, `{"suiteName":"My suite","testClassName":"cls"}`} {
		want := official(t, "junit-oracle.mjs", "", ".xml", nil, options, cckPaths(t))
		fo, err := MergeFormatOptions([]string{`{"junit":` + options + `}`})
		if err != nil {
			t.Fatal(err)
		}
		same, renamed := 0, 0
		for _, s := range cckStreams(t) {
			got := render(t, "junit", Options{FormatOptions: fo}, oracles.ReadStream(t, s.path))
			switch {
			case bytes.Equal(want[s.name], got):
				same++
			case bytes.Equal(want[s.name], uniqueSuffix.ReplaceAll(got, []byte(`" time=`))):
				renamed++ // identical but for de-duplicated testcase names
			default:
				t.Errorf("%s (options %s): junit differs from the official formatter: %s", s.name, options, diff(want[s.name], got))
			}
		}
		t.Logf("junit (options %s): byte-identical on %d/%d CCK streams, %d more identical but for de-duplicated names",
			options, same, len(want), renamed)
	}
}
