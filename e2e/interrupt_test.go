package e2e

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// An interrupt at any moment of a run (loading, starting the app under
// test, launching the browser, between and inside test cases, while the
// reports are written) ends with complete reports: a message stream that
// ends with testRunFinished, a JUnit file that parses, a JSON array, and
// no process left behind. The signal is sent as `timeout -s INT` sends
// it: to the process, then to its whole process group, so ferridriver
// sees it twice and its children (the app, the driver, Chromium) once
// (issue 16).
func TestInterruptAtAnyMomentLeavesCompleteReports(t *testing.T) {
	testenv.NeedBrowser(t)
	port := testenv.FreePort(t)
	var feature strings.Builder
	feature.WriteString("Feature: interrupted\n\n  Scenario: the app's page\n    Given the home page\n\n")
	for i := range 12 {
		fmt.Fprintf(&feature, "  Scenario: logic %d\n    Given a pause\n    And a pause\n\n", i)
	}
	feature.WriteString("  Scenario: the app again\n    Given the home page\n")
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/a.feature": feature.String(),
		"steps/steps.ts": `import { Given } from '@cucumber/cucumber'
Given('the home page', async function () { await this.page.goto('/') })
Given('a pause', () => new Promise((r) => setTimeout(r, 40)))
`,
		"ferridriver.toml": fmt.Sprintf(`[test]
format = ["message:out/run.ndjson", "junit:out/junit.xml", "json:out/run.json"]
builtinSteps = false

[browser]
baseURL = "http://127.0.0.1:%d"

[[webServer]]
command = %q
url = "http://127.0.0.1:%d/api/health"
`, port, binary+fmt.Sprintf(" demo-server --addr 127.0.0.1:%d", port), port),
	})
	for _, after := range []time.Duration{0, 20, 40, 60, 90, 120, 180, 250, 400, 600, 900, 1300, 1800, 2500} {
		after *= time.Millisecond
		t.Run(after.String(), func(t *testing.T) {
			out := filepath.Join(dir, "out")
			if err := os.RemoveAll(out); err != nil {
				t.Fatal(err)
			}
			token := runToken(t)
			t.Cleanup(func() { killAll(token) })
			cmd := exec.Command(binary, "bdd")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), token)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var stderr limitedBuffer
			cmd.Stdout, cmd.Stderr = &stderr, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(after)
			_ = cmd.Process.Signal(syscall.SIGINT)
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				}
				if code == -1 {
					// Killed by the signal before its handler was installed
					// (while the Go runtime starts): nothing may have been
					// written yet.
					if _, err := os.Stat(out); err == nil {
						t.Fatalf("killed by the signal after reports were created (%v)\n%s", err, stderr.String())
					}
					return
				}
				if code != 130 && code != 0 {
					t.Fatalf("exit %d (%v), want 130 (or 0 when the run had ended)\n%s", code, err, stderr.String())
				}
			case <-time.After(60 * time.Second):
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				t.Fatalf("no exit within 60 s of the interrupt\n%s", stderr.String())
			}
			envs := oracles.ReadStream(t, filepath.Join(out, "run.ndjson"))
			if len(envs) == 0 || envs[len(envs)-1].TestRunFinished == nil {
				t.Fatalf("the message stream does not end with testRunFinished\n%s", stderr.String())
			}
			if started, finished := count(envs, "testCaseStarted"), count(envs, "testCaseFinished"); started != finished {
				t.Fatalf("%d test cases started, %d finished", started, finished)
			}
			checkInterruptedReports(t, out)
			var js []any
			if err := json.Unmarshal(mustRead(t, filepath.Join(out, "run.json")), &js); err != nil {
				t.Fatalf("run.json: %v", err)
			}
			var junit struct{ XMLName xml.Name }
			if err := xml.Unmarshal(mustRead(t, filepath.Join(out, "junit.xml")), &junit); err != nil || junit.XMLName.Local != "testsuite" {
				t.Fatalf("junit.xml: <%s> %v", junit.XMLName.Local, err)
			}
			noneLeft(t, token)
		})
	}
}

// A second interrupt a moment after the first exits at once, and still
// kills the [[webServer]] (which runs in a process group of its own,
// out of reach of the terminal's Ctrl-C); a burst of signals, as
// `timeout` sends, counts as one interrupt.
func TestSecondInterruptExitsAtOnce(t *testing.T) {
	port := testenv.FreePort(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/a.feature": "Feature: f\n  Scenario: stuck\n    Given a step that ignores interrupts\n",
		"steps/steps.ts": `import { Given } from '@cucumber/cucumber'
Given('a step that ignores interrupts', { timeout: -1 }, () => new Promise((r) => setTimeout(r, 60000)))
`,
		// A server that ignores SIGTERM: stopping it gracefully takes the
		// whole grace period, which the second interrupt cuts short.
		"server.py":        "import signal, http.server, sys\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nhttp.server.ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), http.server.SimpleHTTPRequestHandler).serve_forever()\n",
		"ferridriver.toml": fmt.Sprintf("[test]\nbuiltinSteps = false\n\n[[webServer]]\ncommand = \"python3 server.py %d\"\nurl = \"http://127.0.0.1:%d/\"\n", port, port),
	})
	token := runToken(t)
	t.Cleanup(func() { killAll(token) })
	cmd := exec.Command(binary, "bdd", "--format", "message:out/run.ndjson")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), token)
	var stderr limitedBuffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitFor(t, func() bool { return portOpen(port) })
	time.Sleep(500 * time.Millisecond) // into the stuck step
	// The burst: two signals at once are one interrupt.
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		t.Fatalf("a burst of two signals exited at once (%v)\n%s", err, stderr.String())
	case <-time.After(signalBurstAndMargin):
	}
	// The server's graceful stop hangs, so only a second interrupt ends the run.
	start := time.Now()
	_ = cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
			t.Fatalf("exit %v, want 130\n%s", err, stderr.String())
		}
		if took := time.Since(start); took > 3*time.Second {
			t.Fatalf("the second interrupt took %s to exit", took)
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("no exit 20 s after the second interrupt\n%s", stderr.String())
	}
	noneLeft(t, token)
	if portOpen(port) {
		t.Fatalf("the webServer still listens on %d", port)
	}
}

// A second interrupt that comes while a webServer is still starting (its
// process runs, its URL does not answer yet) takes the server down too.
func TestSecondInterruptWhileTheWebServerStarts(t *testing.T) {
	port := testenv.FreePort(t)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/a.feature": "Feature: f\n  Scenario: s\n    Given a step\n",
		"steps/steps.ts":     "import { Given } from '@cucumber/cucumber'\nGiven('a step', () => {})\n",
		// Never ready, and deaf to SIGTERM: only a kill ends it.
		"server.py":        "import signal, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nopen('deaf', 'w').close()\ntime.sleep(600)\n",
		"ferridriver.toml": fmt.Sprintf("[test]\nbuiltinSteps = false\n\n[[webServer]]\ncommand = \"python3 server.py\"\nurl = \"http://127.0.0.1:%d/\"\ntimeout = 60000\n", port),
	})
	token := runToken(t)
	t.Cleanup(func() { killAll(token) })
	cmd, _, stderr := startFerridriver(t, dir, []string{token}, "bdd")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	waitFor(t, func() bool { _, err := os.Stat(filepath.Join(dir, "deaf")); return err == nil })
	_ = cmd.Process.Signal(syscall.SIGINT)
	// The server's graceful stop hangs; the second interrupt ends the run.
	time.Sleep(signalBurstAndMargin)
	_ = cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
			t.Fatalf("exit %v, want 130\n%s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("no exit 20 s after the second interrupt\n%s", stderr.String())
	}
	noneLeft(t, token)
}

// signalBurstAndMargin is how long after an interrupt the tests send the
// second one: ferridriver takes signals within a second of the first as the
// same interrupt, and a loaded machine may run its signal handler late.
const signalBurstAndMargin = 2 * time.Second
