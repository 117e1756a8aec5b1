package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// burnCPU keeps every core busy until the test ends, with processes of its
// own (as other jobs on a CI machine would).
func burnCPU(t *testing.T) {
	t.Helper()
	for range runtime.NumCPU() {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting a CPU burner: %v", err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
}

// The browser's start-up (driver, launch, first context) is never charged
// to a step: on a machine whose cores are all busy, a suite whose first
// step opens a page passes with the default 5 s step timeout, the step's
// duration leaves the start-up out, and a note on that step and the
// summary say how long start-up took.
func TestFirstStepOnABusyMachine(t *testing.T) {
	dir := browserProject(t)
	files := map[string]string{}
	for i := range 3 {
		files[fmt.Sprintf("features/f%d.feature", i)] = fmt.Sprintf("Feature: f%d\n  Scenario: s%d\n    Given I open \"/elements.html\"\n    Then I expect the title to contain \"Elements\"\n", i, i)
	}
	testenv.WriteFiles(t, dir, files)
	burnCPU(t)
	res := ferridriver(t, dir, "bdd", "--format", "summary", "--format", "message:m.ndjson")
	if res.code != 0 {
		t.Fatalf("exit %d on a busy machine, want 0\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, "Start-up: waited ") || !strings.Contains(res.stdout, "not counted in step durations or timeouts") {
		t.Errorf("the summary does not report start-up:\n%s", res.stdout)
	}
	envs := oracles.ReadStream(t, filepath.Join(dir, "m.ndjson"))
	var notes []*messages.Attachment
	started := map[string]time.Time{}
	for _, e := range envs {
		switch {
		case e.Attachment != nil && e.Attachment.MediaType == messages.StartupMediaType:
			notes = append(notes, e.Attachment)
		case e.TestStepStarted != nil:
			started[e.TestStepStarted.TestStepID] = e.TestStepStarted.Timestamp.Time()
		}
	}
	if len(notes) != 1 || notes[0].TestStepID == nil {
		t.Fatalf("%d start-up notes on steps, want 1 (one worker)", len(notes))
	}
	for _, e := range envs {
		f := e.TestStepFinished
		if f == nil || f.TestStepID != *notes[0].TestStepID {
			continue
		}
		span := f.Timestamp.Time().Sub(started[f.TestStepID])
		if d := f.TestStepResult.Duration.Std(); d > span-200*time.Millisecond {
			t.Errorf("the first step lasted %v of which it waited for start-up, yet its duration is %v: start-up counted as step time (%s)", span, d, notes[0].Body)
		}
	}
}

// [test] timeout sets the step timeout without code; the failure names
// the setting (and FERRIDRIVER_TEST_TIMEOUT, --timeout win over it).
func TestStepTimeoutSetting(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml":   "[test]\ntimeout = 10\n",
		"features/a.feature": "Feature: a\n  Scenario: slow\n    Given a step that takes 300 ms\n",
		"steps/slow.ts":      "import { Given } from '@cucumber/cucumber'\nGiven('a step that takes 300 ms', () => new Promise((r) => setTimeout(r, 300)))\n",
	})
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
		code int
	}{
		{"file", nil, nil, "within 10 milliseconds (timeout: [test] timeout = 10 in ferridriver.toml)", 1},
		{"env", []string{"FERRIDRIVER_TEST_TIMEOUT=20"}, nil, "within 20 milliseconds (timeout: FERRIDRIVER_TEST_TIMEOUT=20)", 1},
		{"flag", []string{"FERRIDRIVER_TEST_TIMEOUT=20"}, []string{"--timeout", "30ms"}, "within 30 milliseconds (timeout: --timeout 30ms)", 1},
		{"flag in ms", nil, []string{"--timeout", "2000"}, "1 step (1 passed)", 0},
		{"none", nil, []string{"--timeout", "0"}, "1 step (1 passed)", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(binary, append([]string{"bdd", "--format", "summary"}, tc.args...)...)
			cmd.Dir = dir
			cmd.Env = append(append(cmd.Environ(), "NO_COLOR=1"), tc.env...)
			res := runCommand(t, cmd, "ferridriver")
			if res.code != tc.code || !strings.Contains(res.stdout, tc.want) {
				t.Errorf("exit %d (want %d), output lacks %q:\n%s%s", res.code, tc.code, tc.want, res.stdout, res.stderr)
			}
		})
	}
	// setDefaultTimeout in code wins over the setting, as in cucumber-js.
	testenv.WriteFiles(t, dir, map[string]string{"steps/timeout.ts": "import { setDefaultTimeout } from '@cucumber/cucumber'\nsetDefaultTimeout(2000)\n"})
	if res := ferridriver(t, dir, "bdd", "--format", "summary"); res.code != 0 {
		t.Errorf("setDefaultTimeout(2000) did not win over [test] timeout = 10: exit %d\n%s", res.code, res.stdout)
	}
	if res := ferridriver(t, dir, "bdd", "--timeout", "soon"); res.code != 2 || !strings.Contains(res.stderr, `--timeout "soon"`) {
		t.Errorf("--timeout soon: exit %d, want 2 and the flag named\n%s", res.code, res.stderr)
	}
}

// The response time of a first request is the request's: the driver's
// start and the API request context are not part of it. (It takes a few
// ms; with the driver's start, seconds. A run is tried up to three times,
// so that a moment of load on a shared machine does not fail the test.)
func TestFirstResponseTime(t *testing.T) {
	dir := browserProject(t)
	testenv.WriteFiles(t, dir, map[string]string{
		"features/api.feature": "Feature: api\n  Scenario: first request\n    When I send a GET request to \"/api/users\"\n    Then I expect the response status to equal 200\n    And I expect the response time to be less than 100\n",
	})
	var res runResult
	for range 3 {
		if res = ferridriver(t, dir, "bdd", "--format", "summary"); res.code == 0 {
			return
		}
	}
	t.Fatalf("exit %d, want 0\n%s\n%s", res.code, res.stdout, res.stderr)
}

// An MCP tool's failure says why in two lines (world/pwerror's reading
// of the call log): Playwright's message with the reason, then the
// target; or what was waited for.
func TestMCPToolFailureSaysWhy(t *testing.T) {
	dir := browserProject(t)
	toml := string(mustRead(t, filepath.Join(dir, "ferridriver.toml"))) + "actionTimeout = 1000\n"
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": toml})
	cs, _ := mcpClient(t, dir, nil)
	page := callOK(t, cs, "browser_navigate", map[string]any{"url": "/elements.html"})
	save := refOf(t, page, "button", "Save")
	for _, tc := range []struct {
		tool string
		args map[string]any
		want []string
	}{
		{"browser_click", map[string]any{"ref": save, "element": "the Save button"}, []string{"Timeout 1000ms exceeded: element is not enabled\nTarget: role=button[name=\"Save\"]"}},
		{"browser_wait_for", map[string]any{"text": "Never shown"}, []string{"Timeout 1000ms exceeded: no element matched while waiting for getByText('Never shown')"}},
	} {
		res := mcpCall(t, cs, tc.tool, tc.args)
		text := resultText(res, 0)
		if !res.IsError {
			t.Errorf("%s: did not fail:\n%s", tc.tool, text)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the result lacks %q:\n%s", tc.tool, w, text)
			}
		}
	}
}
