package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// shardLogicFiles is a logic-only suite with every status: passed,
// failed, pending, undefined, skipped, a flaky step that passes on retry,
// attachments, a Rule, an outline, over three files.
var shardLogicFiles = map[string]string{
	"ferridriver.toml": "[test]\nretry = 1\n",
	"features/a.feature": `Feature: A
  Background:
    Given a passing step

  Scenario: passes
    Given a passing step
    And an attached note "hello"

  Scenario Outline: outline <n>
    Given the number <n>
    Examples:
      | n |
      | 1 |
      | 2 |
      | 3 |
`,
	"features/b.feature": `Feature: B
  Scenario: fails
    Given a failing step
    And a passing step

  Scenario: pending
    Given a pending step

  Scenario: undefined
    Given a step nobody defined

  Scenario: flaky
    Given a flaky step

  Rule: a rule
    Scenario: in a rule
      Given a passing step
`,
	"features/sub/c.feature": `@tagged
Feature: C
  Scenario: c1
    Given a passing step
  Scenario: c2
    Given the number 7
`,
	"steps/steps.ts": `import { Given } from '@cucumber/cucumber'
Given('a passing step', function () {})
Given('the number {int}', function (n: number) {})
Given('a failing step', function () { throw new Error('expected failure') })
Given('a pending step', function () { return 'pending' })
Given('an attached note {string}', function (s: string) { this.attach(s, 'text/plain') })
let tries = 0
Given('a flaky step', function () { if (tries++ === 0) throw new Error('first attempt fails') })
`,
}

// reportFormats are the reports compared between a whole run and merged
// shards: dir/junit.xml, dir/report.json...
func reportFormats(dir string) []string {
	return []string{
		"--format", "message:" + filepath.Join(dir, "run.ndjson"),
		"--format", "junit:" + filepath.Join(dir, "junit.xml"),
		"--format", "json:" + filepath.Join(dir, "report.json"),
		"--format", "html:" + filepath.Join(dir, "report.html"),
		"--format", "rerun:" + filepath.Join(dir, "rerun.txt"),
		"--format", "summary:" + filepath.Join(dir, "summary.txt"),
	}
}

// runShards runs `bdd --shard i/n` for i = 1..n in dir with extra args,
// shard i with i workers (the split must not depend on them), each
// saving its stream as shards/i.ndjson; it returns the number of test
// cases of each shard.
func runShards(t *testing.T, dir string, env []string, n int, args ...string) []int {
	t.Helper()
	sizes := make([]int, n)
	for i := 1; i <= n; i++ {
		stream := filepath.Join("shards", strconv.Itoa(i)+".ndjson")
		res := ferridriverWithEnv(t, dir, env, append([]string{"bdd", "--shard", fmt.Sprintf("%d/%d", i, n),
			"--parallel", strconv.Itoa(i), "--format", "message:" + stream, "--format", "summary"}, args...)...)
		if res.code != 0 && res.code != 1 {
			t.Fatalf("shard %d/%d: exit %d\n%s%s", i, n, res.code, res.stdout, res.stderr)
		}
		sizes[i-1] = count(readEnvelopes(t, filepath.Join(dir, stream)), "testCase")
	}
	return sizes
}

func readEnvelopes(t *testing.T, path string) []*messages.Envelope {
	t.Helper()
	envs, err := messages.ReadAll(bytes.NewReader(mustRead(t, path)), path)
	if err != nil {
		t.Fatal(err)
	}
	return envs
}

// embeddedMessages returns the messages an HTML report embeds.
func embeddedMessages(t *testing.T, path string) []*messages.Envelope {
	t.Helper()
	page := mustRead(t, path)
	const open = "window.CUCUMBER_MESSAGES = ["
	i := bytes.Index(page, []byte(open))
	j := bytes.Index(page[max(i, 0):], []byte("];\n</script>"))
	if i < 0 || j < 0 {
		t.Fatalf("%s embeds no messages", path)
	}
	// The formatter escapes "<" as \x3C, which is not JSON.
	data := bytes.ReplaceAll(page[i+len(open)-1:i+j+1], []byte(`\x3C`), []byte(`\u003c`))
	var envs []*messages.Envelope
	if err := json.Unmarshal(data, &envs); err != nil {
		t.Fatalf("%s: embedded messages are not JSON: %v", path, err)
	}
	return envs
}

var (
	junitTimes   = regexp.MustCompile(` (time|timestamp)="[^"]*"`)
	jsonDuration = regexp.MustCompile(`"duration": \d+`)
	summaryTime  = regexp.MustCompile(`(?m)^\d+m \d+\.\d+s \(.*\)$`)
	// summaryStartup are the summary's start-up lines (formatters' startupLines).
	summaryStartup = regexp.MustCompile(`(?m)^(Start-up: .*|\(\d+ more start-up waits: .*\))\n`)
)

// sameReports compares the reports in whole/ and merged/ (written with
// reportFormats) up to ids and times, and returns the number of test
// cases and their statuses.
func sameReports(t *testing.T, whole, merged string) (cases int, statuses map[string]int) {
	t.Helper()
	w, m := readEnvelopes(t, filepath.Join(whole, "run.ndjson")), readEnvelopes(t, filepath.Join(merged, "run.ndjson"))
	// Each shard starts its own browser: the start-up notes are the
	// process's, as times are.
	w, m = withoutStartupNotes(w), withoutStartupNotes(m)
	if a, b := testenv.NormalisedStream(t, w), testenv.NormalisedStream(t, m); a != b {
		t.Errorf("message: the merged stream differs from the whole run's up to ids and times: %s", firstDifference(a, b))
	}
	wh, mh := withoutStartupNotes(embeddedMessages(t, filepath.Join(whole, "report.html"))), withoutStartupNotes(embeddedMessages(t, filepath.Join(merged, "report.html")))
	if a, b := testenv.NormalisedStream(t, wh), testenv.NormalisedStream(t, mh); a != b || len(wh) != len(w) {
		t.Errorf("html: the merged report's data differs from the whole run's (%d and %d messages)", len(wh), len(mh))
	}
	for file, norm := range map[string]func(string) string{
		"junit.xml": func(s string) string { return junitTimes.ReplaceAllString(s, "") },
		"report.json": func(s string) string {
			return jsonDuration.ReplaceAllString(withoutStartupEmbeddings(t, s), `"duration": 0`)
		},
		"rerun.txt": func(s string) string { return s },
		"summary.txt": func(s string) string {
			return summaryStartup.ReplaceAllString(summaryTime.ReplaceAllString(s, "(time)"), "")
		},
	} {
		a, b := norm(string(mustRead(t, filepath.Join(whole, file)))), norm(string(mustRead(t, filepath.Join(merged, file))))
		if a != b {
			t.Errorf("%s of the merged shards differs from the whole run's: %s", file, firstDifference(a, b))
		}
	}
	statuses = map[string]int{}
	for _, e := range m {
		if e.TestStepFinished != nil {
			statuses[string(e.TestStepFinished.TestStepResult.Status)]++
		}
	}
	return count(m, "testCase"), statuses
}

// withoutStartupNotes leaves out the notes of steps that waited for the
// browser's start-up.
func withoutStartupNotes(envs []*messages.Envelope) []*messages.Envelope {
	var out []*messages.Envelope
	for _, e := range envs {
		if e.Attachment == nil || e.Attachment.MediaType != messages.StartupMediaType {
			out = append(out, e)
		}
	}
	return out
}

// withoutStartupEmbeddings is a Cucumber JSON report without the start-up
// notes among its embeddings, indented again.
func withoutStartupEmbeddings(t *testing.T, report string) string {
	t.Helper()
	var doc any
	dec := json.NewDecoder(strings.NewReader(report))
	dec.UseNumber() // durations stay as written
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				x[k] = walk(c)
			}
			if list, ok := x["embeddings"].([]any); ok {
				kept := []any{}
				for _, e := range list {
					if m, ok := e.(map[string]any); !ok || m["mime_type"] != messages.StartupMediaType {
						kept = append(kept, e)
					}
				}
				if len(kept) == 0 {
					delete(x, "embeddings")
				} else {
					x["embeddings"] = kept
				}
			}
		case []any:
			for i, c := range x {
				x[i] = walk(c)
			}
		}
		return v
	}
	out, err := json.MarshalIndent(walk(doc), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// firstDifference says where a and b first differ: the line number and
// both lines (whole reports are too long to read in a test log).
func firstDifference(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d (of %d and %d)\n--- whole\n%s\n--- merged\n%s", i+1, len(al), len(bl), x, y)
		}
	}
	return "no difference"
}

// checkBalanced fails t unless the shards' sizes add up to total and
// differ by at most one.
func checkBalanced(t *testing.T, sizes []int, total int) {
	t.Helper()
	sum, lo, hi := 0, sizes[0], sizes[0]
	for _, s := range sizes {
		sum += s
		lo, hi = min(lo, s), max(hi, s)
	}
	if sum != total || hi-lo > 1 {
		t.Fatalf("shards of %v test cases for a run of %d: want them to add up and differ by at most one", sizes, total)
	}
}

// A logic-only suite with every status, run whole and as 3 shards (with
// 1, 2 and 3 workers) whose streams are merged through a glob: the same
// message stream, JUnit, JSON, HTML data, rerun file and summary, up to
// ids and times. Streams of another suite, or a shard given twice, are
// refused.
func TestShardedRunMergesIntoTheWholeRun(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, shardLogicFiles)
	whole := ferridriver(t, dir, append([]string{"bdd"}, reportFormats("whole")...)...)
	if whole.code != 1 {
		t.Fatalf("whole run: exit %d, want 1 (a failing scenario)\n%s%s", whole.code, whole.stdout, whole.stderr)
	}
	total := count(readEnvelopes(t, filepath.Join(dir, "whole", "run.ndjson")), "testCase")
	sizes := runShards(t, dir, nil, 3)
	checkBalanced(t, sizes, total)

	res := ferridriver(t, dir, append([]string{"report", "--from", "shards/*.ndjson"}, reportFormats("merged")...)...)
	if res.code != 0 {
		t.Fatalf("report: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	cases, statuses := sameReports(t, filepath.Join(dir, "whole"), filepath.Join(dir, "merged"))
	// Step results of every attempt: "fails" and "flaky" are retried once.
	want := map[string]int{"PASSED": 13, "FAILED": 3, "SKIPPED": 2, "PENDING": 1, "UNDEFINED": 1}
	if cases != 11 || fmt.Sprint(statuses) != fmt.Sprint(want) {
		t.Errorf("merged: %d test cases with step statuses %v; want 11 with %v", cases, statuses, want)
	}

	// Another suite's stream (an edited feature file), and a shard given
	// twice, are refused with the difference.
	other := t.TempDir()
	files := map[string]string{}
	for k, v := range shardLogicFiles {
		files[k] = v
	}
	files["features/b.feature"] += "\n  Scenario: added\n    Given a passing step\n"
	testenv.WriteFiles(t, other, files)
	if r := ferridriver(t, other, "bdd", "--shard", "2/3", "--format", "message:"+filepath.Join(dir, "other.ndjson")); r.code > 1 {
		t.Fatalf("other suite: exit %d\n%s", r.code, r.stderr)
	}
	for _, tc := range []struct {
		from []string
		want string
	}{
		{[]string{"shards/1.ndjson", "other.ndjson"}, "ferridriver: report: shards/1.ndjson and other.ndjson are not shards of one suite: features/b.feature has different text"},
		{[]string{"shards", "shards/2.ndjson", "--from", "shards/2.ndjson"}, ""}, // one file given twice is read once
		{[]string{"shards/1.ndjson", filepath.Join(dir, "whole", "run.ndjson")}, "is also in shards/1.ndjson: the shards of one run never share a test case"},
	} {
		r := ferridriver(t, dir, append([]string{"report", "--format", "summary", "--from"}, tc.from...)...)
		switch {
		case tc.want == "" && r.code != 0:
			t.Errorf("report --from %v: exit %d\n%s", tc.from, r.code, r.stderr)
		case tc.want != "" && (r.code != 2 || !strings.Contains(r.stderr, tc.want)):
			t.Errorf("report --from %v: exit %d, want 2 with %q\n%s", tc.from, r.code, tc.want, r.stderr)
		}
	}
}

// More shards than test cases: the empty shard exits 0 and writes valid
// empty reports (JUnit valid against the Jenkins schema, JSON [], a
// message stream that ends in a successful testRunFinished, an HTML page
// embedding it), and merges with the others.
func TestEmptyShard(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/a.feature": "Feature: a\n  Scenario: one\n    Given a passing step\n  Scenario: two\n    Given a passing step\n",
		"steps/steps.ts":     "import { Given } from '@cucumber/cucumber'\nGiven('a passing step', function () {})\n",
	})
	res := ferridriver(t, dir, append([]string{"bdd", "--shard", "3/3"}, reportFormats("empty")...)...)
	if res.code != 0 {
		t.Fatalf("empty shard: exit %d, want 0\n%s%s", res.code, res.stdout, res.stderr)
	}
	out := filepath.Join(dir, "empty")
	envs := readEnvelopes(t, filepath.Join(out, "run.ndjson"))
	last := envs[len(envs)-1]
	if count(envs, "testCase") != 0 || count(envs, "source") != 1 || last.TestRunFinished == nil || !last.TestRunFinished.Success {
		t.Errorf("empty shard's stream: %d test cases, %d sources, last %s", count(envs, "testCase"), count(envs, "source"), last.Kind())
	}
	js := readJUnit(t, filepath.Join(out, "junit.xml"))
	if js.Tests != 0 || len(js.Cases) != 0 {
		t.Errorf("junit: %d tests", js.Tests)
	}
	validateJUnit(t, filepath.Join(out, "junit.xml"))
	if got := strings.TrimSpace(string(mustRead(t, filepath.Join(out, "report.json")))); got != "[]" {
		t.Errorf("json: %s, want []", got)
	}
	if html := embeddedMessages(t, filepath.Join(out, "report.html")); testenv.NormalisedStream(t, html) != testenv.NormalisedStream(t, envs) {
		t.Error("html: the page does not embed the stream")
	}
	if got := string(mustRead(t, filepath.Join(out, "rerun.txt"))); got != "" {
		t.Errorf("rerun: %q, want nothing", got)
	}
	if got := string(mustRead(t, filepath.Join(out, "summary.txt"))); !strings.Contains(got, "0 scenarios\n0 steps\n") {
		t.Errorf("summary:\n%s", got)
	}

	// With the other shards, it merges into the whole run.
	for i := 1; i <= 2; i++ {
		if r := ferridriver(t, dir, "bdd", "--shard", fmt.Sprintf("%d/3", i), "--format", fmt.Sprintf("message:shards/%d.ndjson", i)); r.code != 0 {
			t.Fatalf("shard %d/3: exit %d\n%s", i, r.code, r.stderr)
		}
	}
	r := ferridriver(t, dir, "report", "--from", "shards", "--from", filepath.Join(out, "run.ndjson"), "--format", "summary")
	if r.code != 0 || !strings.Contains(r.stdout, "2 scenarios (2 passed)") {
		t.Errorf("merge with the empty shard: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// validateJUnit validates a JUnit report against the Jenkins schema with
// libxml2 (the formatters' validator, from tools/oracles).
func validateJUnit(t *testing.T, path string) {
	t.Helper()
	root := oracles.Root()
	script := filepath.Join(root, "formatters", "testdata", "validate.mjs")
	xsd := filepath.Join(root, "formatters", "testdata", "jenkins-junit.xsd")
	cmd := exec.Command("node", script, oracles.NodeModules(t), "xsd", xsd, path)
	cmd.Env = os.Environ()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("validating %s: %v", path, err)
	}
	var results map[string][]string
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("validator output: %v: %s", err, out)
	}
	if errs, ok := results[path]; !ok || len(errs) > 0 {
		t.Errorf("%s is not valid against the Jenkins XSD: %v (%s)", path, errs, out)
	}
}

// The example suite (browser scenarios against the demo app) plus the
// logic-only suite with every status, run whole and as 3 shards (1, 2 and
// 3 workers): merged through a glob, the shards give the whole run's
// statuses and counts, and its message stream, JUnit, JSON, HTML data,
// rerun file and summary up to ids and times.
func TestShardedExampleSuiteMergesIntoTheWholeRun(t *testing.T) {
	t.Parallel()
	testenv.NeedBrowser(t)
	dir, _ := exampleSuite(t)
	extra := map[string]string{}
	for name, content := range shardLogicFiles {
		switch {
		case strings.HasPrefix(name, "features/"):
			extra["features/logic/"+strings.TrimPrefix(name, "features/")] = content
		case strings.HasPrefix(name, "steps/"):
			extra["features/support/logic.ts"] = content
		}
	}
	testenv.WriteFiles(t, dir, extra)
	// The built-in step library's own features (features/builtin/) attach
	// request timings, which differ from run to run; they have their own tests.
	args := []string{"--tags", "not @slow and not @builtin", "--retry", "1"}
	whole := ferridriver(t, dir, append(append([]string{"bdd"}, args...), reportFormats("whole")...)...)
	if whole.code != 1 {
		t.Fatalf("whole run: exit %d, want 1 (the logic suite has a failing scenario)\n%s%s", whole.code, whole.stdout, whole.stderr)
	}
	total := count(readEnvelopes(t, filepath.Join(dir, "whole", "run.ndjson")), "testCase")
	checkBalanced(t, runShards(t, dir, nil, 3, args...), total)
	res := ferridriver(t, dir, append([]string{"report", "--from", "shards/*.ndjson"}, reportFormats("merged")...)...)
	if res.code != 0 {
		t.Fatalf("report: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	cases, statuses := sameReports(t, filepath.Join(dir, "whole"), filepath.Join(dir, "merged"))
	if cases != total || cases < 30 || statuses["FAILED"] != 3 || statuses["PASSED"] < 100 {
		t.Errorf("merged: %d test cases (whole run: %d), step statuses %v", cases, total, statuses)
	}
}
