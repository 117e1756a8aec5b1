package godogworld_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cucumber/godog"

	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/godogworld/internal/godogtest"
	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/world"
)

const reportFeature = `Feature: Reports
  Scenario: Passing
    Given I open "/login"
    Then the heading reads "Log in"

  Scenario: Failing
    Given I open "/login"
    When I note "a note"
    Then the heading reads "Not this"
    And the heading reads "Log in"

  Scenario Outline: Outline <heading>
    Given I open "<path>"
    Then the heading reads "<heading>"

    Examples:
      | path     | heading |
      | /login   | Log in  |
      | /welcome | Nope    |

  Scenario: Undefined
    Given a step nobody wrote
`

// noteStep attaches its text (godog.Attach) to the step.
func noteStep(sc *godog.ScenarioContext) {
	goSteps(sc)
	sc.Step(`^I note "([^"]*)"$`, func(ctx context.Context, note string) (context.Context, error) {
		return godog.Attach(ctx, godog.Attachment{Body: []byte(note), FileName: "note.txt", MediaType: "text/plain"}), nil
	})
}

// TestMessageFormat: the "message" formatter writes a stream that is
// valid against the Cucumber Messages schema and consistent (every id it
// refers to exists), with each scenario's steps, statuses, the step
// definitions' Go source lines, and the attachments (the failure
// screenshot as a PNG, godog.Attach's text), also when godog runs
// scenarios concurrently.
func TestMessageFormat(t *testing.T) {
	testenv.NeedBrowser(t)
	s, err := godogworld.New(godogworld.Options{Browser: world.Config{BaseURL: testenv.DemoApp(t), OutputDir: t.TempDir()}, ExpectTimeout: 300 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.ndjson")
	status, _, _ := godogtest.Run(t, s, map[string]string{"features/reports.feature": reportFeature}, 2, noteStep, "message:"+path)
	if status != 1 {
		t.Fatalf("godog exit status %d", status)
	}
	envs := validStream(t, path)
	cases := testCases(envs)
	want := map[string]string{
		"Passing": "PASSED PASSED", "Failing": "PASSED PASSED FAILED SKIPPED",
		"Outline Log in": "PASSED PASSED", "Outline Nope": "PASSED FAILED", "Undefined": "UNDEFINED",
	}
	got := map[string]string{}
	for _, c := range cases {
		got[c.name] = strings.Join(c.statuses, " ")
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: steps %q, want %q", name, got[name], w)
		}
	}
	if len(cases) != 5 {
		t.Errorf("%d test cases, want 5", len(cases))
	}
	for _, c := range cases {
		if c.name == "Outline Nope" {
			if strings.Join(c.attachments, ",") != "1:image/png:failure.png" {
				t.Errorf("%s: attachments %v", c.name, c.attachments)
			}
			continue
		}
		if c.name != "Failing" {
			if len(c.attachments) != 0 {
				t.Errorf("%s: attachments %v", c.name, c.attachments)
			}
			continue
		}
		if strings.Join(c.attachments, ",") != "1:text/plain:note.txt:a note,2:image/png:failure.png" {
			t.Errorf("Failing: attachments %v, want the note on step 2 and one screenshot on step 3", c.attachments)
		}
	}
	var defs []string
	for _, e := range envs {
		if d := e.StepDefinition; d != nil {
			defs = append(defs, d.Pattern.Source+" "+d.SourceReference.GetURI())
		}
	}
	for _, d := range defs {
		if !strings.HasSuffix(d, "examples/godogdemo/steps.go") && !strings.HasSuffix(d, " message_test.go") {
			t.Errorf("step definition %s: not at its Go source", d)
		}
	}
	if last := envs[len(envs)-1]; last.TestRunFinished == nil || last.TestRunFinished.Success {
		t.Errorf("the stream ends with %s, want an unsuccessful testRunFinished", last.Kind())
	}
}

// TestRunWithRetries: the scenarios that failed run again, alone, up to
// the retries; the run passes when each passed in its last attempt; the
// message stream has every attempt of a retried test case (attempt,
// willBeRetried) and the outline examples that had passed only once;
// file reports of a retry get their own file.
func TestRunWithRetries(t *testing.T) {
	testenv.NeedBrowser(t)
	s, err := godogworld.New(godogworld.Options{Browser: world.Config{BaseURL: testenv.DemoApp(t), OutputDir: t.TempDir()}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	dir := t.TempDir()
	feature := `Feature: Flaky
  Scenario: Second time lucky
    Given I open "/login"
    Then "lucky" passes on run 2

  Scenario Outline: Outline <name>
    Given I open "/login"
    Then "<name>" passes on run <run>

    Examples:
      | name   | run |
      | steady | 1   |
      | flaky  | 3   |

  Scenario: Steady
    Then "steady scenario" passes on run 1
`
	testenv.WriteFiles(t, dir, map[string]string{"features/flaky.feature": feature, "features/never.feature": strings.ReplaceAll(strings.ReplaceAll(feature, "Flaky", "Never"), "| flaky  | 3   |", "| flaky  | 9   |")})
	var mu sync.Mutex
	runs := map[string]int{}
	init := func(sc *godog.ScenarioContext) {
		goSteps(sc)
		sc.Step(`^"([^"]*)" passes on run (\d+)$`, func(ctx context.Context, name string, run int) error {
			mu.Lock()
			defer mu.Unlock()
			uri, _, _ := strings.Cut(godogworld.MustFromContext(ctx).Scenario.Uri, ".feature")
			key := uri + name // a rerun's uri ends in :line
			runs[key]++
			if runs[key] < run {
				return fmt.Errorf("%s: run %d of %d", name, runs[key], run)
			}
			return nil
		})
	}
	run := func(path string, retries int) (int, []*messages.Envelope) {
		out := filepath.Join(t.TempDir(), "out")
		var console bytes.Buffer
		status, err := s.RunWithRetries(godog.TestSuite{
			ScenarioInitializer: s.ScenarioInitializer(init),
			Options: &godog.Options{
				Format: "progress,message:" + out + ".ndjson,cucumber:" + out + ".json", Output: &console, NoColors: true, Strict: true,
				Paths: []string{filepath.Join(dir, "features", path)}, Concurrency: 2,
			},
		}, retries)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", console.Bytes())
		for i := 1; i <= retries; i++ {
			if _, err := os.Stat(fmt.Sprintf("%s.retry%d.json", out, i)); err != nil {
				t.Errorf("retry %d's cucumber JSON: %v", i, err)
			}
		}
		return status, validStream(t, out+".ndjson")
	}
	attempts := func(envs []*messages.Envelope) string {
		var out []string
		for _, c := range testCases(envs) {
			out = append(out, fmt.Sprintf("%s:%s", c.name, strings.Join(c.attempts, "")))
		}
		sort.Strings(out)
		return strings.Join(out, " ")
	}

	status, envs := run("flaky.feature", 2)
	// F: failed, will be retried; f: failed, final; p: passed.
	if got, want := attempts(envs), "Outline flaky:FFp Outline steady:p Second time lucky:Fp Steady:p"; status != 0 || got != want {
		t.Errorf("flaky: status %d, attempts %s\nwant status 0, %s", status, got, want)
	}
	if f := envs[len(envs)-1].TestRunFinished; f == nil || !f.Success {
		t.Error("flaky: the run is not a success")
	}

	status, envs = run("never.feature", 1)
	if got, want := attempts(envs), "Outline flaky:Ff Outline steady:p Second time lucky:Fp Steady:p"; status != 1 || got != want {
		t.Errorf("never: status %d, attempts %s\nwant status 1, %s", status, got, want)
	}
	if f := envs[len(envs)-1].TestRunFinished; f == nil || f.Success {
		t.Error("never: the run is a success")
	}

	if _, err := s.RunWithRetries(godog.TestSuite{ScenarioInitializer: s.ScenarioInitializer(init), Options: &godog.Options{TestingT: t}}, 1); err == nil || !strings.Contains(err.Error(), "TestingT to nil") {
		t.Errorf("retries with TestingT: %v", err)
	}
}

// validStream reads the NDJSON at path, checks every line against the
// Cucumber Messages schema and every reference between messages.
func validStream(t *testing.T, path string) []*messages.Envelope {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		if err := oracles.ValidateEnvelopeJSON(t, sc.Bytes()); err != nil {
			t.Errorf("%s:%d: not a valid envelope: %v", path, n, err)
		}
	}
	envs := oracles.ReadStream(t, path)
	if len(envs) < 3 || envs[0].Meta == nil || envs[len(envs)-1].TestRunFinished == nil {
		t.Fatalf("the stream does not start with meta and end with testRunFinished: %d envelopes", len(envs))
	}
	ids := map[string]string{} // id -> kind
	pickleSteps := map[string]bool{}
	testSteps := map[string]string{} // test step -> test case
	caseOf := map[string]string{}    // test case started -> test case
	need := func(id, kind, what string) {
		if ids[id] != kind {
			t.Errorf("%s refers to %s %q, which is not before it", what, kind, id)
		}
	}
	for _, e := range envs {
		switch {
		case e.GherkinDocument != nil:
			ids[*e.GherkinDocument.URI] = "gherkinDocument"
		case e.Pickle != nil:
			ids[e.Pickle.ID] = "pickle"
			need(e.Pickle.URI, "gherkinDocument", "pickle "+e.Pickle.Name)
			for _, s := range e.Pickle.Steps {
				pickleSteps[e.Pickle.ID+"/"+s.ID] = true
			}
		case e.StepDefinition != nil:
			ids[e.StepDefinition.ID] = "stepDefinition"
		case e.TestRunStarted != nil:
			ids[*e.TestRunStarted.ID] = "testRunStarted"
		case e.TestCase != nil:
			tc := e.TestCase
			ids[tc.ID] = "testCase"
			need(tc.PickleID, "pickle", "testCase")
			need(*tc.TestRunStartedID, "testRunStarted", "testCase")
			for _, s := range tc.TestSteps {
				testSteps[s.ID] = tc.ID
				if !pickleSteps[tc.PickleID+"/"+s.GetPickleStepID()] {
					t.Errorf("test step %s: pickle step %s is not one of its pickle's", s.ID, s.GetPickleStepID())
				}
				for _, d := range s.StepDefinitionIDs {
					need(d, "stepDefinition", "test step")
				}
			}
		case e.TestCaseStarted != nil:
			ids[e.TestCaseStarted.ID] = "testCaseStarted"
			need(e.TestCaseStarted.TestCaseID, "testCase", "testCaseStarted")
			caseOf[e.TestCaseStarted.ID] = e.TestCaseStarted.TestCaseID
		case e.TestStepStarted != nil, e.TestStepFinished != nil, e.Attachment != nil:
			var started, step string
			switch {
			case e.TestStepStarted != nil:
				started, step = e.TestStepStarted.TestCaseStartedID, e.TestStepStarted.TestStepID
			case e.TestStepFinished != nil:
				started, step = e.TestStepFinished.TestCaseStartedID, e.TestStepFinished.TestStepID
			default:
				started, step = e.Attachment.GetTestCaseStartedID(), e.Attachment.GetTestStepID()
			}
			need(started, "testCaseStarted", e.Kind())
			if testSteps[step] != caseOf[started] {
				t.Errorf("%s: test step %s is not a step of its test case", e.Kind(), step)
			}
		case e.TestCaseFinished != nil:
			need(e.TestCaseFinished.TestCaseStartedID, "testCaseStarted", "testCaseFinished")
			ids[e.TestCaseFinished.TestCaseStartedID] = "finished"
		}
	}
	for id, kind := range ids {
		if kind == "testCaseStarted" {
			t.Errorf("test case started %s never finished", id)
		}
	}
	return envs
}

// testCaseRun is one test case of a stream: its pickle's name, each
// attempt's outcome and the last attempt's step statuses and attachments
// ("step:mediaType:fileName[:text]").
type testCaseRun struct {
	name        string
	attempts    []string
	statuses    []string
	attachments []string
}

func testCases(envs []*messages.Envelope) []*testCaseRun {
	names := map[string]string{}
	byCase := map[string]*testCaseRun{}
	stepIndex := map[string]int{}
	startedCase := map[string]string{}
	var order []*testCaseRun
	byPickle := map[string]*testCaseRun{}
	for _, e := range envs {
		switch {
		case e.Pickle != nil:
			names[e.Pickle.ID] = e.Pickle.Name
		case e.TestCase != nil:
			run := byPickle[e.TestCase.PickleID]
			if run == nil {
				run = &testCaseRun{name: names[e.TestCase.PickleID]}
				byPickle[e.TestCase.PickleID] = run
				order = append(order, run)
			}
			byCase[e.TestCase.ID] = run
			for i, s := range e.TestCase.TestSteps {
				stepIndex[s.ID] = i
			}
		case e.TestCaseStarted != nil:
			startedCase[e.TestCaseStarted.ID] = e.TestCaseStarted.TestCaseID
			run := byCase[e.TestCaseStarted.TestCaseID]
			run.statuses, run.attachments = nil, nil
		case e.TestStepFinished != nil:
			run := byCase[startedCase[e.TestStepFinished.TestCaseStartedID]]
			run.statuses = append(run.statuses, string(e.TestStepFinished.TestStepResult.Status))
		case e.Attachment != nil:
			run := byCase[startedCase[e.Attachment.GetTestCaseStartedID()]]
			a := fmt.Sprintf("%d:%s:%s", stepIndex[e.Attachment.GetTestStepID()], e.Attachment.MediaType, e.Attachment.GetFileName())
			if e.Attachment.ContentEncoding == messages.AttachmentContentEncodingIdentity {
				a += ":" + e.Attachment.Body
			} else if b, err := base64.StdEncoding.DecodeString(e.Attachment.Body); err != nil {
				a += ":not base64"
			} else if _, err := png.DecodeConfig(bytes.NewReader(b)); err != nil {
				a += ":not a PNG"
			}
			run.attachments = append(run.attachments, a)
		case e.TestCaseFinished != nil:
			run := byCase[startedCase[e.TestCaseFinished.TestCaseStartedID]]
			outcome := "p"
			for _, s := range run.statuses {
				if s == "FAILED" {
					outcome = "f"
					if e.TestCaseFinished.WillBeRetried {
						outcome = "F"
					}
				}
			}
			run.attempts = append(run.attempts, outcome)
		}
	}
	return order
}
