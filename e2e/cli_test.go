package e2e

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

const cliSteps = `import { Given } from '@cucumber/cucumber'
Given('pass', () => {})
Given('fail', () => { throw new Error('boom') })
Given('sleep {int} ms', (ms: number) => new Promise((r) => setTimeout(r, ms)))
`

func cliProject(t *testing.T, extra map[string]string) string {
	dir := t.TempDir()
	files := map[string]string{
		"features/a.feature": "Feature: a\n  Scenario: passes\n    Given pass\n",
		"steps/steps.ts":     cliSteps,
	}
	for k, v := range extra {
		files[k] = v
	}
	testenv.WriteFiles(t, dir, files)
	return dir
}

// Exit codes and messages as documented: 0 passed, 1 failed, 2 bad input
// (one clear message with file:line:column where there is one, never a Go
// stack trace).
func TestExitCodesAndMessages(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		args  []string
		code  int
		want  string
	}{
		{"pass", nil, nil, 0, ""},
		{"failure", map[string]string{"features/b.feature": "Feature: b\n  Scenario: fails\n    Given fail\n"}, nil, 1, ""},
		{"undefined step", map[string]string{"features/b.feature": "Feature: b\n  Scenario: u\n    Given nothing matches\n"}, nil, 1, ""},
		{"pending under --no-strict", map[string]string{"steps/p.ts": "import { Given } from '@cucumber/cucumber'\nGiven('wip', () => 'pending')\n", "features/b.feature": "Feature: b\n  Scenario: p\n    Given wip\n"}, []string{"--no-strict"}, 0, ""},
		{"pending under strict", map[string]string{"steps/p.ts": "import { Given } from '@cucumber/cucumber'\nGiven('wip', () => 'pending')\n", "features/b.feature": "Feature: b\n  Scenario: p\n    Given wip\n"}, nil, 1, ""},
		{"unknown config key", map[string]string{"ferridriver.toml": "[test]\nparalel = 2\n"}, nil, 2, `ferridriver.toml: test.paralel: unknown key (did you mean "parallel"?)`},
		{"ill-typed config key", map[string]string{"ferridriver.toml": "[test]\nretry = \"twice\"\n"}, nil, 2, `ferridriver.toml: test.retry: expected an integer`},
		{"unparsable feature", map[string]string{"features/b.feature": "Feature: b\n  Scenario: s\n    Given pass\n    | a |\n    | b | c |\n"}, nil, 2, "features/b.feature:5:5: inconsistent cell count"},
		{"step file syntax error", map[string]string{"steps/bad.ts": "import { Given } from '@cucumber/cucumber'\nGiven('x', () => {\n"}, nil, 2, "steps/bad.ts:3:"},
		{"throw while loading", map[string]string{"steps/bad.ts": "const x: number = 1\nthrow new Error('config missing ' + x)\n"}, nil, 2, "steps/bad.ts:2:"},
		{"invalid tag expression", nil, []string{"--tags", "@a and"}, 2, `invalid tag expression "@a and"`},
		{"unknown format", nil, []string{"--format", "nope"}, 2, `unknown format "nope"`},
		{"unknown flag", nil, []string{"--no-such-flag"}, 2, "unknown flag: --no-such-flag"},
		{"bad world parameters", nil, []string{"--world-parameters", "{nope"}, 2, "--world-parameters: not a JSON object"},
		{"missing path", nil, []string{"features/nope.feature"}, 2, `"features/nope.feature" does not exist`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := cliProject(t, tc.files)
			res := ferridriver(t, dir, append([]string{"bdd"}, tc.args...)...)
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", res.code, tc.code, res.stdout, res.stderr)
			}
			if !strings.Contains(res.stderr, tc.want) {
				t.Fatalf("stderr does not contain %q:\n%s", tc.want, res.stderr)
			}
			if strings.Contains(res.stderr, "goroutine ") || strings.Contains(res.stderr, "panic:") {
				t.Fatalf("a Go stack trace reached the user:\n%s", res.stderr)
			}
			if tc.code == 2 && strings.Count(strings.TrimSpace(res.stderr), "\n") > 3 {
				t.Fatalf("want one clear message, got:\n%s", res.stderr)
			}
		})
	}
}

func TestDefaultProgressAndReports(t *testing.T) {
	dir := cliProject(t, map[string]string{"features/b.feature": "Feature: b\n  Scenario: fails\n    Given fail\n"})
	res := ferridriver(t, dir, "bdd", "--format", "junit:reports/deep/junit.xml", "--format", "rerun:@rerun.txt", "--order", "random:7")
	if res.code != 1 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	// Progress is on stdout when no format claims it.
	if !strings.Contains(res.stdout, ".F") && !strings.Contains(res.stdout, "F.") {
		t.Fatalf("no progress output:\n%s", res.stdout)
	}
	if !strings.Contains(res.stderr, "random order with seed 7") {
		t.Fatalf("the seed is not printed:\n%s", res.stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "reports", "deep", "junit.xml"))
	if err != nil || xml.Unmarshal(data, new(struct{})) != nil {
		t.Fatalf("junit report: %v\n%s", err, data)
	}
	rerun, _ := os.ReadFile(filepath.Join(dir, "@rerun.txt"))
	if !strings.Contains(string(rerun), "features/b.feature:2") {
		t.Fatalf("rerun file: %q", rerun)
	}
	// The rerun file selects exactly the failed scenario again.
	res = ferridriver(t, dir, "bdd", "--format", "message:again.ndjson", "@@rerun.txt")
	envs := oracles.ReadStream(t, filepath.Join(dir, "again.ndjson"))
	if n := count(envs, "testCase"); res.code != 1 || n != 1 {
		t.Fatalf("rerun ran %d test cases (exit %d)\n%s", n, res.code, res.stderr)
	}
}

// SIGINT in the middle of a slow suite: the run stops, exits 130, and the
// reports written are valid and complete for what ran.
func TestInterruptKeepsReportsValid(t *testing.T) {
	var b strings.Builder
	b.WriteString("Feature: slow\n")
	for i := range 40 {
		b.WriteString("  Scenario: s" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + "\n    Given sleep 100 ms\n    Given pass\n")
	}
	dir := cliProject(t, map[string]string{"features/a.feature": b.String()})
	cmd := exec.Command(binary, "bdd", "--format", "message:out/run.ndjson", "--format", "junit:out/junit.xml", "--format", "json:out/run.json")
	cmd.Dir = dir
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until some test cases have run.
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(filepath.Join(dir, "out", "run.ndjson"))
		if strings.Count(string(data), "testCaseFinished") >= 3 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130\n%s", err, stderr.String())
	}
	envs := oracles.ReadStream(t, filepath.Join(dir, "out", "run.ndjson"))
	last := envs[len(envs)-1]
	if last.TestRunFinished == nil || last.TestRunFinished.Success {
		t.Fatalf("the stream must end with testRunFinished success=false, got %s", last.Kind())
	}
	if started, finished := count(envs, "testCaseStarted"), count(envs, "testCaseFinished"); started != finished || finished >= 40 || finished < 3 {
		t.Fatalf("%d test cases started, %d finished: want every started one finished and the run cut short", started, finished)
	}
	checkInterruptedReports(t, filepath.Join(dir, "out"))
	if data := mustRead(t, filepath.Join(dir, "out", "run.json")); !strings.HasPrefix(strings.TrimSpace(string(data)), "[") {
		t.Fatalf("json after interrupt: %.200s", data)
	}
}

// checkInterruptedReports checks what an interrupted run left in outDir:
// run.ndjson with every envelope valid, and a junit.xml that parses.
func checkInterruptedReports(t *testing.T, outDir string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(string(mustRead(t, filepath.Join(outDir, "run.ndjson")))), "\n") {
		if err := oracles.ValidateEnvelopeJSON(t, []byte(line)); err != nil {
			t.Fatalf("invalid envelope after interrupt: %v", err)
		}
	}
	if err := xml.Unmarshal(mustRead(t, filepath.Join(outDir, "junit.xml")), new(struct{})); err != nil {
		t.Fatalf("junit after interrupt: %v", err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func count(envs []*messages.Envelope, kind string) int {
	n := 0
	for _, e := range envs {
		if e.Kind() == kind {
			n++
		}
	}
	return n
}
