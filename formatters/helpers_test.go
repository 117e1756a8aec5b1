package formatters

import (
	"bytes"
	"flag"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/messages"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden from the current output")

// cckStream is one sample stream of the Cucumber Compatibility Kit.
type cckStream struct {
	name string // sample name, e.g. "attachments"
	path string // the .ndjson file
}

func cckStreams(t testing.TB) []cckStream {
	t.Helper()
	dir := oracles.CCKFeatures(t)
	paths, err := filepath.Glob(filepath.Join(dir, "*", "*.ndjson"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no CCK streams under %s: %v", dir, err)
	}
	sort.Strings(paths)
	var out []cckStream
	for _, p := range paths {
		out = append(out, cckStream{name: strings.TrimSuffix(filepath.Base(p), ".ndjson"), path: p})
	}
	return out
}

// render runs one registered format over envs and returns what it wrote.
func render(t testing.TB, format string, o Options, envs []*messages.Envelope) []byte {
	t.Helper()
	var buf bytes.Buffer
	o.Out = &buf
	if o.FormatOptions == nil {
		o.FormatOptions = map[string]any{}
	}
	registryMu.RLock()
	factory := registry[format]
	registryMu.RUnlock()
	if factory == nil {
		t.Fatalf("format %q not registered", format)
	}
	f, err := factory(o)
	if err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	for _, e := range envs {
		if err := f.Handle(e); err != nil {
			t.Fatalf("%s: Handle(%s): %v", format, e.Kind(), err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatalf("%s: Close: %v", format, err)
	}
	return buf.Bytes()
}

// writeStream writes envs as NDJSON to a temporary file.
func writeStream(t testing.TB, envs []*messages.Envelope) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "stream.ndjson")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := messages.NewWriter(f)
	for _, e := range envs {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// node runs a script under testdata with the oracles' node_modules as its
// first argument and returns its stdout.
func node(t testing.TB, env []string, script string, args ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is required to run the official formatters: %v", err)
	}
	abs, _ := filepath.Abs(filepath.Join("testdata", script))
	cmd := exec.Command("node", append([]string{abs, oracles.NodeModules(t)}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s %v: %v\n%s", script, args, err, stderr.String())
	}
	return out
}

// truncate cuts a stream after a randomly chosen testStepStarted and ends it
// as an interrupted run does: testRunFinished with success=false.
func truncate(envs []*messages.Envelope, rng *rand.Rand) ([]*messages.Envelope, bool) {
	var cuts []int
	for i, e := range envs {
		if e.TestStepStarted != nil {
			cuts = append(cuts, i)
		}
	}
	if len(cuts) == 0 {
		return nil, false
	}
	cut := cuts[rng.Intn(len(cuts))]
	out := append([]*messages.Envelope{}, envs[:cut+1]...)
	ts := envs[cut].TestStepStarted.Timestamp
	ts.Nanos++
	out = append(out, &messages.Envelope{TestRunFinished: &messages.TestRunFinished{Success: false, Timestamp: ts}})
	return out, true
}

// diff returns a short description of the first difference.
func diff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g || (i >= len(wl)) != (i >= len(gl)) {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + quote(w) + "\n  got:  " + quote(g)
		}
	}
	return "identical"
}

func quote(s string) string { return "`" + s + "`" }
