package formatters

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// official runs an oracle script of testdata/ over streams in one node
// process: `node <script> <node_modules> [format] <out dir> <options> <stream>...`.
// The script writes <out dir>/<stream name><ext>; the outputs are returned
// by stream name.
func official(t *testing.T, script, format, ext string, env []string, options string, streams []string) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	var args []string
	if format != "" {
		args = append(args, format)
	}
	args = append(args, dir, options)
	node(t, env, script, append(args, streams...)...)
	out := map[string][]byte{}
	for _, s := range streams {
		name := strings.TrimSuffix(filepath.Base(s), ".ndjson")
		b, err := os.ReadFile(filepath.Join(dir, name+ext))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	return out
}

func cckPaths(t *testing.T) []string {
	var out []string
	for _, s := range cckStreams(t) {
		out = append(out, s.path)
	}
	return out
}
