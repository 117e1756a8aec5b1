package e2e

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// longText is a 70,000-character run of text, past bufio.Scanner's 64 KiB
// line limit at which the Gherkin library's scanner gave up (and its parser
// then panicked on a nil line).
var longText = strings.Repeat("abcdefghij", 7000)

// A feature with 70,000-character lines (a step, a description, a doc
// string, a table cell) runs and reports; a 70,000-character line that is
// not Gherkin is a parse error with its file, line and column (exit 2),
// never a crash (issue 25 item 3).
func TestBDDLongGherkinLines(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/long.feature": "Feature: long lines\n  " + longText + "\n\n" +
			"  Scenario: a long step\n    Given the text " + longText + "\n\n" +
			"  Scenario: a long doc string\n    Given a doc string:\n      \"\"\"\n      " + longText + "\n      \"\"\"\n\n" +
			"  Scenario: a long cell\n    Given a table:\n      | " + longText + " | short |\n",
		"steps/steps.js": `const { Given } = require('@cucumber/cucumber')
const want = 'abcdefghij'.repeat(7000)
const check = (s) => { if (s !== want) throw new Error('got ' + s.length + ' characters') }
Given(/^the text (\w+)$/, check)
Given('a doc string:', check)
Given('a table:', (t) => check(t.raw()[0][0]))
`,
	})
	r := ferridriver(t, dir, "bdd", "--format", "summary", "--format", "junit:out/junit.xml", "--format", "message:out/run.ndjson")
	if r.code != 0 || !strings.Contains(r.stdout, "3 scenarios (3 passed)") {
		t.Fatalf("exit %d\n%s\n%.2000s", r.code, r.stdout, r.stderr)
	}
	js := readJUnit(t, filepath.Join(dir, "out", "junit.xml"))
	if js.Tests != 3 {
		t.Errorf("junit: %d tests, want 3", js.Tests)
	}
	envs := readEnvelopes(t, filepath.Join(dir, "out", "run.ndjson"))
	if count(envs, "testCaseFinished") != 3 {
		t.Errorf("message stream: %d test cases finished, want 3", count(envs, "testCaseFinished"))
	}

	testenv.WriteFiles(t, dir, map[string]string{
		"features/long.feature": "Feature: not Gherkin\n  Scenario: s\n    Given the text x\n    | a |\n" + longText + "\n",
	})
	r = ferridriver(t, dir, "bdd")
	if r.code != 2 || !strings.Contains(r.stderr, "features/long.feature:5:1: ") || strings.Contains(r.stderr, "panic") {
		t.Errorf("a long line that is not Gherkin: exit %d, want 2 and features/long.feature:5:1\n%.2000s", r.code, r.stderr)
	}
}

// run_bdd with a 70,000-character step line answers with its result, and
// the server goes on serving its clients (issue 25 item 3: the Gherkin
// reader's panic took the whole server down).
func TestMCPRunBDDLongLine(t *testing.T) {
	dir := browserProject(t)
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": strings.Replace(readFile(t, filepath.Join(dir, "ferridriver.toml")), "[test]\n", "[test]\nsteps = [\"steps/**/*.js\"]\n", 1),
		"steps/steps.js": `const { Given } = require('@cucumber/cucumber')
Given(/^the text (\w+)$/, (s) => { if (s.length !== 70000) throw new Error('got ' + s.length) })
`,
	})
	endpoint := startMCPHTTP(t, dir, nil)
	a, b := httpClient(t, endpoint, ""), httpClient(t, endpoint, "")
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	for _, gherkin := range []string{
		"Feature: long\n  Scenario: a long step\n    Given the text " + longText + "\n",
		"Feature: long\n  " + longText + "\n  Scenario: a long description\n    Given a doc string:\n      \"\"\"\n      " + longText + "\n      \"\"\"\n",
	} {
		res, err := a.CallTool(ctx, &sdk.CallToolParams{Name: "run_bdd", Arguments: map[string]any{"gherkin": gherkin}})
		if err != nil {
			t.Fatalf("run_bdd with a 70,000-character line: %v", err)
		}
		var out struct {
			Scenarios []struct{ Name, Status string }
		}
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, &out); err != nil || len(out.Scenarios) != 1 {
			t.Fatalf("run_bdd result: %v\n%.2000s", err, resultText(res, 0))
		}
		if want := map[bool]string{true: "PASSED", false: "UNDEFINED"}[strings.Contains(gherkin, "the text")]; out.Scenarios[0].Status != want {
			t.Errorf("%s: %s, want %s\n%.2000s", out.Scenarios[0].Name, out.Scenarios[0].Status, want, resultText(res, 0))
		}
	}
	// Both clients are still served.
	for _, cs := range []*sdk.ClientSession{a, b} {
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Errorf("the server stopped serving after run_bdd: %v", err)
		}
	}
}

// killedRunFiles is a logic-only project whose two long scenarios say,
// each through a file, that they are running, then wait.
var killedRunFiles = map[string]string{
	"features/killed.feature": `Feature: killed
  Scenario: passes
    Given a step

  Scenario: fails
    Given a step that fails

  Scenario: runs long
    Given a step
    When a step that runs long as "first"
    Then a step

  Scenario: runs long too
    Given a step
    When a step that runs long as "second"

  Scenario: never starts
    Given a step
`,
	"steps/steps.js": `const { Given } = require('@cucumber/cucumber')
const fs = require('fs')
Given('a step', function () { this.attach('attached ' + 'z'.repeat(20000)) })
Given('a step that fails', function () { throw new Error('boom') })
Given('a step that runs long as {string}', async function (name) {
  fs.writeFileSync('running-' + name, '')
  await new Promise((r) => setTimeout(r, 120000))
})
`,
}

// junitCases is a JUnit report's test cases with their outcome.
type junitCases struct {
	Tests   int `xml:"tests,attr"`
	Skipped int `xml:"skipped,attr"`
	Cases   []struct {
		Name    string    `xml:"name,attr"`
		Skipped *struct{} `xml:"skipped"`
		Failure *struct{} `xml:"failure"`
	} `xml:"testcase"`
}

// A run killed with SIGKILL while scenarios run (one worker, and two) leaves
// a message stream of whole lines (but perhaps the last) that shows every
// started scenario, those of the worker whose scenario waits behind the
// head of the plan too; `ferridriver report` rebuilds JUnit (valid against
// the Jenkins XSD), JSON and HTML from it, and from it cut in the middle of
// a line, with the unfinished scenarios skipped (issue 25 item 6).
func TestKilledRunStreamRebuildsReports(t *testing.T) {
	for _, parallel := range []string{"1", "2"} {
		t.Run("parallel "+parallel, func(t *testing.T) {
			dir := t.TempDir()
			testenv.WriteFiles(t, dir, killedRunFiles)
			cmd := exec.Command(binary, "bdd", "--parallel", parallel, "--format", "message:out/run.ndjson",
				"--format", "junit:out/junit.xml", "--format", "json:out/run.json")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "NO_COLOR=1")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			running := []string{"first"}
			if parallel == "2" {
				// The second worker's scenario waits behind the first's.
				running = append(running, "second")
			}
			deadline := time.Now().Add(60 * time.Second)
			for _, name := range running {
				for _, err := os.Stat(filepath.Join(dir, "running-"+name)); err != nil; _, err = os.Stat(filepath.Join(dir, "running-"+name)) {
					if time.Now().After(deadline) {
						cmd.Process.Kill()
						t.Fatalf("the scenario %q did not start", name)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()

			stream := filepath.Join(dir, "out", "run.ndjson")
			envs := readEnvelopes(t, stream)
			started := map[string]bool{}
			names := map[string]string{} // test case id -> scenario name
			pickles := map[string]string{}
			for _, e := range envs {
				switch {
				case e.Pickle != nil:
					pickles[e.Pickle.ID] = e.Pickle.Name
				case e.TestCase != nil:
					names[e.TestCase.ID] = pickles[e.TestCase.PickleID]
				case e.TestCaseStarted != nil:
					started[names[e.TestCaseStarted.TestCaseID]] = true
				}
			}
			want := []string{"passes", "fails", "runs long"}
			if parallel == "2" {
				want = append(want, "runs long too")
			}
			for _, name := range want {
				if !started[name] {
					t.Errorf("the stream lacks the testCaseStarted of %q (started: %v)", name, started)
				}
			}

			// A stream cut in the middle of its last line rebuilds too.
			cut := filepath.Join(dir, "cut.ndjson")
			whole := mustRead(t, stream)
			if err := os.WriteFile(cut, append(whole, []byte(`{"testStepStarted":{"testCaseStartedId":"`)...), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, from := range []string{stream, cut} {
				re := filepath.Join(dir, "re-"+filepath.Base(from))
				r := ferridriver(t, dir, "report", "--from", from, "--format", "junit:"+re+"/junit.xml",
					"--format", "json:"+re+"/run.json", "--format", "html:"+re+"/report.html")
				if r.code != 0 {
					t.Fatalf("report --from %s: exit %d\n%s", filepath.Base(from), r.code, r.stderr)
				}
				if from == cut && !strings.Contains(r.stderr, "cut.ndjson:") {
					t.Errorf("report from a cut stream: no note on stderr:\n%s", r.stderr)
				}
				validateJUnit(t, filepath.Join(re, "junit.xml"))
				var js junitCases
				if err := xml.Unmarshal(mustRead(t, filepath.Join(re, "junit.xml")), &js); err != nil {
					t.Fatal(err)
				}
				outcome := map[string]string{}
				for _, c := range js.Cases {
					outcome[c.Name] = map[bool]string{true: "skipped", false: "passed"}[c.Skipped != nil]
					if c.Failure != nil {
						outcome[c.Name] = "failed"
					}
				}
				wantOutcome := map[string]string{"passes": "passed", "fails": "failed", "runs long": "skipped"}
				if parallel == "2" {
					wantOutcome["runs long too"] = "skipped"
				}
				if fmt.Sprint(outcome) != fmt.Sprint(wantOutcome) || js.Tests != len(wantOutcome) {
					t.Errorf("rebuilt junit from %s: %d tests %v, want %v", filepath.Base(from), js.Tests, outcome, wantOutcome)
				}
				var features []struct {
					Elements []struct{ Name string } `json:"elements"`
				}
				if err := json.Unmarshal(mustRead(t, filepath.Join(re, "run.json")), &features); err != nil || len(features) != 1 || len(features[0].Elements) != len(wantOutcome) {
					t.Errorf("rebuilt json: %v, %+v", err, features)
				}
				if html := embeddedMessages(t, filepath.Join(re, "report.html")); count(html, "testCaseStarted") != len(wantOutcome) {
					t.Errorf("rebuilt html: %d test cases started, want %d", count(html, "testCaseStarted"), len(wantOutcome))
				}
			}
		})
	}
}

// A run whose report folder is a full disk (a 64 KiB tmpfs; root only, as
// CI runs) says which reports it could not write and exits 1 for its
// failed scenario: the message stream holds whole lines and rebuilds, and
// no report is left cut or empty (issue 25 item 6).
func TestReportsOnAFullDiskThroughTheBinary(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if o, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", out).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs: %v: %s", err, o)
	}
	t.Cleanup(func() { exec.Command("umount", out).Run() })
	var feature strings.Builder
	feature.WriteString("Feature: full disk\n  Scenario: fails\n    Given a step that fails\n")
	for i := range 8 {
		fmt.Fprintf(&feature, "  Scenario: attaches %d\n    Given a step\n", i)
	}
	files := map[string]string{"features/full.feature": feature.String(), "steps/steps.js": killedRunFiles["steps/steps.js"]}
	testenv.WriteFiles(t, dir, files)
	r := ferridriver(t, dir, "bdd", "--format", "message:out/run.ndjson", "--format", "junit:out/junit.xml", "--format", "json:out/run.json", "--format", "summary")
	if r.code != 1 || !strings.Contains(r.stdout, "9 scenarios (8 passed, 1 failed)") {
		t.Fatalf("exit %d, want 1 with every scenario run\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"format message:out/run.ndjson failed: ", "no space left on device", "the file keeps what was written up to its last whole line",
		"format json:out/run.json failed: ", "the file was not written",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	stream := mustRead(t, filepath.Join(out, "run.ndjson"))
	if len(stream) == 0 || stream[len(stream)-1] != '\n' {
		t.Errorf("the stream (%d bytes) does not end with a whole line", len(stream))
	}
	readEnvelopes(t, filepath.Join(out, "run.ndjson"))
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		info, _ := e.Info()
		if e.Name() != "run.ndjson" && (e.Name() != "junit.xml" || info.Size() == 0) {
			t.Errorf("left on the full disk: %s (%d bytes)", e.Name(), info.Size())
		}
	}
	if _, err := os.Stat(filepath.Join(out, "junit.xml")); err == nil {
		readJUnit(t, filepath.Join(out, "junit.xml"))
	}
	// What the stream holds rebuilds elsewhere.
	if r := ferridriver(t, dir, "report", "--from", "out/run.ndjson", "--format", "junit:re/junit.xml"); r.code != 0 {
		t.Errorf("report from the full disk's stream: exit %d\n%s", r.code, r.stderr)
	}
	validateJUnit(t, filepath.Join(dir, "re", "junit.xml"))
}

// An attachment over the limit fails its step with an error naming its
// size, the limit and the setting, and the run goes on with complete
// reports: with the default limit (64 MiB), with [test] attachmentLimit,
// and with --attachment-limit 0 (no limit) (issue 25 item 6).
func TestAttachmentLimitThroughTheBinary(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/attach.feature": `Feature: attachments
  Scenario: 65 MiB
    Given an attachment of 65 MiB
    Then a step

  Scenario: 2 MiB
    Given an attachment of 2 MiB
`,
		"steps/steps.js": `const { Given } = require('@cucumber/cucumber')
Given('an attachment of {int} MiB', function (n) { this.attach(Buffer.alloc(n << 20), 'application/octet-stream') })
Given('a step', function () {})
`,
	})
	run := func(args ...string) (runResult, map[string]string) {
		t.Helper()
		r := ferridriver(t, dir, append([]string{"bdd", "--format", "summary", "--format", "junit:out/junit.xml", "--format", "message:out/run.ndjson"}, args...)...)
		status := map[string]string{}
		var js junitCases
		if err := xml.Unmarshal(mustRead(t, filepath.Join(dir, "out", "junit.xml")), &js); err != nil {
			t.Fatalf("junit: %v", err)
		}
		for _, c := range js.Cases {
			status[c.Name] = map[bool]string{true: "failed", false: "passed"}[c.Failure != nil]
		}
		return r, status
	}
	r, status := run()
	want := "attach: the attachment is 65 MiB, over the attachment limit of 64 MiB ([test] attachmentLimit in ferridriver.toml, FERRIDRIVER_TEST_ATTACHMENTLIMIT or --attachment-limit)"
	if r.code != 1 || !strings.Contains(r.stdout, want) || fmt.Sprint(status) != "map[2 MiB:passed 65 MiB:failed]" {
		t.Errorf("default limit: exit %d %v\n%s\n%s", r.code, status, r.stdout, r.stderr)
	}
	if envs := readEnvelopes(t, filepath.Join(dir, "out", "run.ndjson")); count(envs, "attachment") != 1 || count(envs, "testRunFinished") != 1 {
		t.Errorf("the stream holds %d attachments, want the small one only", count(envs, "attachment"))
	}

	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": "[test]\nattachmentLimit = 1\n"})
	r, status = run()
	if r.code != 1 || !strings.Contains(r.stdout, "the attachment is 2 MiB, over the attachment limit of 1 MiB") || fmt.Sprint(status) != "map[2 MiB:failed 65 MiB:failed]" {
		t.Errorf("attachmentLimit = 1: exit %d %v\n%s", r.code, status, r.stdout)
	}
	r, status = run("--attachment-limit", "0", "--name", "2 MiB")
	if r.code != 0 || fmt.Sprint(status) != "map[2 MiB:passed]" {
		t.Errorf("--attachment-limit 0: exit %d %v\n%s\n%s", r.code, status, r.stdout, r.stderr)
	}
}

// A step or hook that allocates without bound is stopped with an error
// saying so once it has grown the heap by the memory limit (the default,
// 1 GiB, and [test] memoryLimit); the run goes on and its reports are
// complete (issue 25 item 6). The hogs hold typed arrays, which Go
// allocates at once, a few milliseconds apart; they give up at 3 GiB, so
// that a build without the limit fails the test rather than the machine.
func TestMemoryLimitThroughTheBinary(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/memory.feature": `Feature: memory
  Scenario: a step that allocates without bound
    Given a step that allocates without bound
    Then a step

  Scenario: an async step that allocates without bound
    Given an async step that allocates without bound

  @hog
  Scenario: a hook that allocates without bound
    Given a step

  Scenario: after them
    Given a step
`,
		"steps/steps.js": `const { Given, Before } = require('@cucumber/cucumber')
const chunks = 192, chunk = 16 << 20
const pause = (ms) => { const t = Date.now(); while (Date.now() - t < ms) {} }
Given('a step that allocates without bound', { timeout: 60000 }, function () {
  const keep = []
  for (let i = 0; i < chunks; i++) { keep.push(new Uint8Array(chunk)); pause(5) }
})
Given('an async step that allocates without bound', { timeout: 60000 }, async function () {
  this.keep = []
  for (let i = 0; i < chunks; i++) { this.keep.push(new Uint8Array(chunk)); await new Promise((r) => setTimeout(r, 5)) }
})
Before({ tags: '@hog', timeout: 60000 }, function () {
  globalThis.kept = []
  for (let i = 0; i < chunks; i++) { globalThis.kept.push(new Uint8Array(chunk)); pause(5) }
})
Given('a step', function () {})
`,
	})
	for _, tc := range []struct {
		name, config, limit string
	}{
		{"default", "", "1024 MiB"},
		{"memoryLimit = 256", "[test]\nmemoryLimit = 256\n", "256 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": tc.config})
			r := ferridriver(t, dir, "bdd", "--format", "summary", "--format", "junit:out/junit.xml")
			if r.code != 1 || !strings.Contains(r.stdout, "4 scenarios (1 passed, 3 failed)") {
				t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			if n := strings.Count(r.stdout, "RangeError: stopped: ferridriver's heap grew by "); n != 3 {
				t.Errorf("%d steps or hooks stopped for their memory, want 3:\n%s", n, r.stdout)
			}
			if want := "over the memory limit of " + tc.limit + " a step or hook may use ([test] memoryLimit in ferridriver.toml, FERRIDRIVER_TEST_MEMORYLIMIT or --memory-limit)"; !strings.Contains(r.stdout, want) {
				t.Errorf("the error lacks %q:\n%s", want, r.stdout)
			}
			js := readJUnit(t, filepath.Join(dir, "out", "junit.xml"))
			if js.Tests != 4 || js.Failures != 3 {
				t.Errorf("junit: %d tests, %d failures", js.Tests, js.Failures)
			}
		})
	}
}
