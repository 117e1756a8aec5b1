package runner

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAPanicOfTheGherkinReaderIsTheFilesError: a panic while a file is
// parsed (in a goroutine of its own, which no caller could recover) is
// that file's error, so that a process serving runs (ferridriver mcp's
// run_bdd) carries on.
func TestAPanicOfTheGherkinReaderIsTheFilesError(t *testing.T) {
	defer func(f func(string, string, string) (*feature, error)) { parseOne = f }(parseOne)
	parseOne = func(path, uri, language string) (*feature, error) {
		if strings.HasSuffix(path, "bad.feature") {
			var m map[string]int
			m["x"]++
		}
		return &feature{}, nil
	}
	dir := t.TempDir()
	_, err := parseFeatures(dir, []featureFile{{path: filepath.Join(dir, "good.feature")}, {path: filepath.Join(dir, "bad.feature")}}, "")
	if err == nil || !strings.HasPrefix(err.Error(), "bad.feature: the Gherkin reader failed on this file (assignment to entry in nil map)") {
		t.Fatalf("got %v", err)
	}
}
