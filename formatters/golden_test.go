package formatters

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// goldenSamples are the CCK samples whose renderings are kept under
// testdata/golden/<format>/ (run `go test ./formatters -run TestGolden
// -update` to rewrite them, then read the diff).
var goldenSamples = []string{
	"ambiguous", "attachments", "data-tables", "doc-strings", "examples-tables",
	"global-hooks-beforeall-error", "hooks", "minimal", "pending", "retry", "rules",
	"skipped", "undefined", "unknown-parameter-type", "unused-steps",
}

func TestGolden(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	streams := map[string]string{}
	for _, s := range cckStreams(t) {
		streams[s.name] = s.path
	}
	for _, tc := range []struct {
		dir, format string
		o           Options
	}{
		{"pretty", "pretty", Options{}},
		{"progress", "progress", Options{}},
		{"summary", "summary", Options{}},
		{"summary-seed", "summary", Options{Seed: "4711"}},
		{"progress-bar", "progress-bar", Options{}},
		{"progress-bar-tty", "progress-bar", Options{TTY: true}},
		{"rerun", "rerun", Options{}},
		{"usage", "usage", Options{}},
		{"usage-json", "usage-json", Options{}},
		{"snippets", "snippets", Options{}},
	} {
		for _, sample := range goldenSamples {
			path, ok := streams[sample]
			if !ok {
				t.Fatalf("no CCK sample %s", sample)
			}
			envs := oracles.ReadStream(t, path)
			check(t, filepath.Join("testdata", "golden", tc.dir, sample+".txt"), render(t, tc.format, tc.o, envs))
			if sample == "examples-tables" || sample == "hooks" {
				cut, _ := truncate(envs, rand.New(rand.NewSource(7)))
				check(t, filepath.Join("testdata", "golden", tc.dir, sample+"-interrupted.txt"), render(t, tc.format, tc.o, cut))
			}
		}
	}
}

func check(t *testing.T, golden string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s: %s", golden, diff(want, got))
	}
}
