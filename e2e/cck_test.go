package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// cckSkips are the CCK samples ferridriver does not run, with the reason.
var cckSkips = map[string]string{
	"test-run-exception": "the --error switch is specific to fake-cucumber (it contrives an internal error)",
}

// cckIgnoredKeys are the volatile keys cucumber-js's own CCK test ignores
// (ids, locations, timings, error texts, snippet code).
var cckIgnoredKeys = map[string]bool{
	"meta": true, "uri": true, "line": true, "astNodeId": true, "astNodeIds": true, "hookId": true, "id": true,
	"pickleId": true, "pickleStepId": true, "stepDefinitionIds": true, "testRunStartedId": true,
	"testRunHookStartedId": true, "testCaseId": true, "testCaseStartedId": true, "testStepId": true,
	"nanos": true, "seconds": true, "message": true, "stackTrace": true, "language": true, "code": true,
	"workerId": true, // which worker ran a test case is not part of the result
}

// The fake-cucumber API of the samples, mapped onto @cucumber/cucumber.
const fakeCucumberShim = `export * from '@cucumber/cucumber'
export { defineParameterType as ParameterType } from '@cucumber/cucumber'
`

// TestCCK runs every sample of the Cucumber Compatibility Kit through the
// binary with the sample's own steps and arguments, and compares our
// message stream with the kit's as cucumber-js does: the same sequence of
// envelope types, then deep equality ignoring volatile keys. Every
// envelope must also be valid against the official JSON schema. Each
// sample runs with the built-in step library off, again with 3 workers,
// and once more with the default configuration (the library on), which a
// project that does not use the library must not notice.
func TestCCK(t *testing.T) {
	features := oracles.CCKFeatures(t)
	entries, err := os.ReadDir(features)
	if err != nil {
		t.Fatal(err)
	}
	var passed, passedDefault, total atomic.Int32
	var mu sync.Mutex
	var failed, failedDefault []string
	t.Cleanup(func() {
		msg := fmt.Sprintf("CCK: %d/%d samples passed (%d skipped: %s)", passed.Load(), total.Load(), len(cckSkips), strings.Join(sortedKeys(cckSkips), ", "))
		if len(failed) > 0 {
			msg += "; failed: " + strings.Join(failed, ", ")
		}
		fmt.Println(msg)
		msg = fmt.Sprintf("CCK with the default configuration (built-in library on): %d/%d samples passed", passedDefault.Load(), total.Load())
		if len(failedDefault) > 0 {
			msg += "; failed: " + strings.Join(failedDefault, ", ")
		}
		fmt.Println(msg)
	})
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		name := e.Name()
		total.Add(1)
		t.Run(name, func(t *testing.T) {
			if why, ok := cckSkips[name]; ok {
				t.Skip(why)
			}
			t.Parallel()
			ok := t.Run("compare", func(t *testing.T) { runCCKSample(t, filepath.Join(features, name), name, false) })
			// The same stream whatever the number of workers: only the
			// test run hooks, which run once per worker, are per worker.
			ok = t.Run("parallel", func(t *testing.T) { runCCKSample(t, filepath.Join(features, name), name, false, "--parallel", "3") }) && ok
			if ok {
				passed.Add(1)
			} else {
				mu.Lock()
				failed = append(failed, name)
				mu.Unlock()
			}
			if t.Run("default configuration", func(t *testing.T) { runCCKSample(t, filepath.Join(features, name), name, true) }) {
				passedDefault.Add(1)
			} else {
				mu.Lock()
				failedDefault = append(failedDefault, name)
				mu.Unlock()
			}
		})
	}
}

// runCCKSample runs one sample and compares its stream with the kit's;
// withLibrary leaves the built-in step library at its default (on).
func runCCKSample(t *testing.T, src, name string, withLibrary bool, extraArgs ...string) {
	dir := t.TempDir()
	sampleDir := filepath.Join(dir, "samples", name)
	if err := os.CopyFS(sampleDir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	builtinSteps := "builtinSteps = false\n"
	if withLibrary {
		builtinSteps = ""
	}
	testenv.WriteFiles(t, dir, map[string]string{
		"fake-cucumber.ts": fakeCucumberShim,
		"ferridriver.toml": fmt.Sprintf("[test]\nsteps = [\"samples/%s/*.ts\"]\n%s\n[bundler]\nalias = { \"@cucumber/fake-cucumber\" = \"./fake-cucumber.ts\" }\n", name, builtinSteps),
	})
	args := []string{"bdd", "--format", "message:out.ndjson", "--format", "summary"}
	if extra, err := os.ReadFile(filepath.Join(src, name+".arguments.txt")); err == nil {
		args = append(args, strings.Fields(string(extra))...)
	}
	args = append(args, extraArgs...)
	args = append(args, "samples/"+name)
	res := ferridriver(t, dir, args...)
	out, err := os.ReadFile(filepath.Join(dir, "out.ndjson"))
	if err != nil {
		t.Fatalf("no message output (exit %d): %v\n%s", res.code, err, res.stderr)
	}
	want, err := os.ReadFile(filepath.Join(src, name+".ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	got := splitLines(out)
	for i, line := range got {
		if err := oracles.ValidateEnvelopeJSON(t, line); err != nil {
			t.Errorf("line %d is not a valid envelope: %v\n%s", i+1, err, line)
		}
	}
	wantEnvs := decodeLines(t, splitLines(want))
	gotEnvs := decodeLines(t, got)
	if len(extraArgs) > 0 {
		wantEnvs, gotEnvs = withoutRunHooks(wantEnvs), withoutRunHooks(gotEnvs)
	}
	if a, b := kinds(wantEnvs), kinds(gotEnvs); !reflect.DeepEqual(a, b) {
		t.Fatalf("envelope sequence differs:\nwant %v\ngot  %v\nstderr: %s", a, b, res.stderr)
	}
	for i := range wantEnvs {
		w, g := strip(wantEnvs[i]), strip(gotEnvs[i])
		if !reflect.DeepEqual(w, g) {
			wj, _ := json.Marshal(w)
			gj, _ := json.Marshal(g)
			t.Errorf("envelope %d (%s) differs:\nwant %s\ngot  %s", i+1, kinds(wantEnvs[i : i+1])[0], wj, gj)
		}
	}
	// The exit code agrees with the stream's verdict.
	var success bool
	for _, e := range gotEnvs {
		if fin, ok := e["testRunFinished"].(map[string]any); ok {
			success, _ = fin["success"].(bool)
		}
	}
	if wantCode := map[bool]int{true: 0, false: 1}[success]; res.code != wantCode {
		t.Errorf("exit code %d, want %d (success=%v)\nstderr: %s", res.code, wantCode, success, res.stderr)
	}
}

// withoutRunHooks drops BeforeAll/AfterAll executions and their
// attachments, which happen once per worker.
func withoutRunHooks(envs []map[string]any) []map[string]any {
	var out []map[string]any
	for _, e := range envs {
		if e["testRunHookStarted"] != nil || e["testRunHookFinished"] != nil {
			continue
		}
		if a, ok := e["attachment"].(map[string]any); ok && a["testRunHookStartedId"] != nil {
			continue
		}
		out = append(out, e)
	}
	return out
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		if len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

func decodeLines(t *testing.T, lines [][]byte) []map[string]any {
	out := make([]map[string]any, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal(l, &out[i]); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		var env messages.Envelope
		if err := json.Unmarshal(l, &env); err != nil || env.Kind() == "" {
			t.Fatalf("line %d is not an envelope: %s", i+1, l)
		}
	}
	return out
}

func kinds(envs []map[string]any) []string {
	out := make([]string, len(envs))
	for i, e := range envs {
		for k := range e {
			out[i] = k
		}
	}
	return out
}

// strip removes the ignored keys at every depth.
func strip(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if !cckIgnoredKeys[k] {
				out[k] = strip(val)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = strip(val)
		}
		return out
	}
	return v
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
