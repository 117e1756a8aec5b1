package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// failedMessages returns the messages of the failed steps in a stream.
func failedMessages(envs []*messages.Envelope) []string {
	var out []string
	for _, r := range failedSteps(envs) {
		if r.Message != nil {
			out = append(out, *r.Message)
		}
	}
	return out
}

// failedSteps returns the results of the failed steps in a stream.
func failedSteps(envs []*messages.Envelope) []messages.TestStepResult {
	var out []messages.TestStepResult
	for _, e := range envs {
		if f := e.TestStepFinished; f != nil && f.TestStepResult.Status == messages.TestStepResultStatusFailed {
			out = append(out, f.TestStepResult)
		}
	}
	return out
}

// A navigation (or an API request) to a port nothing listens on fails its
// step at once with Playwright's message; it does not hang until the 30 s
// navigation timeout, and the next scenario runs normally.
func TestNavigationToDeadPortFails(t *testing.T) {
	testenv.NeedBrowser(t)
	dead := strconv.Itoa(testenv.FreePort(t))
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/dead.feature": `Feature: dead port
  Scenario: the browser works
    When I set the content "<h1>here</h1>"
    Then the heading reads "here"

  Scenario: goto
    When I open "http://127.0.0.1:` + dead + `/"
    Then this step is skipped

  Scenario: request
    When I request "http://127.0.0.1:` + dead + `/api/health"

  Scenario: the browser still works
    When I set the content "<h1>still here</h1>"
    Then the heading reads "still here"
`,
		"steps/steps.ts": `import { When, Then, setDefaultTimeout } from '@cucumber/cucumber'
import { expect } from '@playwright/test'

// The first step launches the browser: room for a loaded machine.
setDefaultTimeout(30_000)

When('I open {string}', async function (url: string) {
  await this.page.goto(url)
})
When('I request {string}', async function (url: string) {
  await this.request.get(url)
})
Then('this step is skipped', function () {})
When('I set the content {string}', async function (html: string) {
  await this.page.setContent(html)
})
Then('the heading reads {string}', async function (text: string) {
  await expect(this.page.getByRole('heading')).toHaveText(text)
})
`,
	})
	token := runToken(t)
	// The first scenario launches the browser (and the step timeout leaves
	// room for that on a loaded machine); the failing steps are timed alone.
	res := ferridriverWithEnv(t, dir, []string{token}, "bdd", "--format", "message:out/run.ndjson")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if !regexp.MustCompile(`(?m)^4 scenarios \((2 failed, 2 passed|2 passed, 2 failed)\)$`).MatchString(res.stdout) {
		t.Fatalf("want 2 failed and 2 passed:\n%s", res.stdout)
	}
	failed := failedSteps(oracles.ReadStream(t, filepath.Join(dir, "out", "run.ndjson")))
	if len(failed) != 2 {
		t.Fatalf("failed steps: %+v", failed)
	}
	for i, want := range [][]string{{"page.goto", "net::ERR_CONNECTION_REFUSED"}, {"ECONNREFUSED"}} {
		msg := ""
		if failed[i].Message != nil {
			msg = *failed[i].Message
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("failure %d is not Playwright's message (want %q): %q", i, w, msg)
			}
		}
		// Playwright's navigation timeout is 30 s: a hang would take that.
		if d := failed[i].Duration.Std(); d > 15*time.Second {
			t.Errorf("failure %d took %v: a refused connection must fail at once", i, d)
		}
	}
	noneLeft(t, token)
}

// Ctrl-C in the middle of a browser suite: exit 130, reports complete and
// valid, and no Chromium, driver or web server process survives.
func TestInterruptLeavesNoBrowser(t *testing.T) {
	testenv.NeedBrowser(t)
	port := strconv.Itoa(testenv.FreePort(t))
	var b strings.Builder
	b.WriteString("Feature: slow pages\n")
	for i := range 40 {
		fmt.Fprintf(&b, "  Scenario: page %d\n    When I open the slow page\n    Then its content appears\n", i)
	}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": `[browser]
baseURL = "http://127.0.0.1:` + port + `"

[[webServer]]
command = "` + binary + ` demo-server --addr 127.0.0.1:` + port + `"
url = "http://127.0.0.1:` + port + `/api/health"
`,
		"features/slow.feature": b.String(),
		"steps/steps.ts": `import { When, Then, setDefaultTimeout } from '@cucumber/cucumber'
import { expect } from '@playwright/test'

// The first step launches the browser: room for a loaded machine.
setDefaultTimeout(30_000)

When('I open the slow page', async function () {
  await this.page.goto('/slow.html?delay=400')
})
Then('its content appears', async function () {
  await expect(this.page.getByTestId('slow-content')).toBeVisible()
})
`,
	})
	token := runToken(t)
	cmd, _, stderr := startFerridriver(t, dir, []string{token}, "bdd", "--parallel", "2",
		"--format", "message:out/run.ndjson", "--format", "junit:out/junit.xml")
	// Interrupt once the browser runs and a few scenarios have finished.
	deadline := time.Now().Add(60 * time.Second)
	for {
		data, _ := os.ReadFile(filepath.Join(dir, "out", "run.ndjson"))
		if strings.Count(string(data), `"testCaseFinished"`) >= 3 && len(browserProcs(procsWith(token))) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no browser scenario finished within 60 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() { done <- exitCode(t, cmd) }()
	select {
	case code := <-done:
		if code != 130 {
			t.Fatalf("exit %d after SIGINT, want 130\n%s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("ferridriver did not exit within 30 s of SIGINT")
	}
	noneLeft(t, token)
	p, _ := strconv.Atoi(port)
	if portOpen(p) {
		t.Fatalf("the web server still listens on %s after the interrupted run", port)
	}

	envs := oracles.ReadStream(t, filepath.Join(dir, "out", "run.ndjson"))
	last := envs[len(envs)-1]
	if last.TestRunFinished == nil || last.TestRunFinished.Success {
		t.Fatalf("the stream must end with testRunFinished success=false, got %s", last.Kind())
	}
	if started, finished := count(envs, "testCaseStarted"), count(envs, "testCaseFinished"); started != finished || finished >= 40 {
		t.Fatalf("%d test cases started, %d finished: want every started one finished and the run cut short", started, finished)
	}
	checkInterruptedReports(t, filepath.Join(dir, "out"))
}

// [[webServer]] starts the app before the first scenario and stops it (and
// its whole process group) after the last one.
func TestWebServerStartsAndStops(t *testing.T) {
	port := testenv.FreePort(t)
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml": `[[webServer]]
command = "` + binary + ` demo-server --addr 127.0.0.1:` + strconv.Itoa(port) + `"
url = "` + base + `/api/health"
timeout = 20000
`,
		"features/api.feature": `Feature: the app is up during the run
  Scenario: health
    Then "` + base + `/api/health" answers {"status":"ok"}
`,
		"steps/steps.ts": `import { Then } from '@cucumber/cucumber'
Then('{string} answers {}', async function (url: string, body: string) {
  const res = await fetch(url)
  const got = JSON.stringify(await res.json())
  if (res.status !== 200 || got !== body) throw new Error(res.status + ' ' + got)
})
`,
	})
	token := runToken(t)
	res := ferridriverWithEnv(t, dir, []string{token}, "bdd")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if portOpen(port) {
		t.Fatalf("the web server still listens on %d after the run", port)
	}
	noneLeft(t, token)
}

// A server that already answers is reused (its command is not run) and
// left running; without reuseExistingServer, it is an error.
func TestWebServerReusesRunningServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, err := demoapp.Serve(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"features/api.feature": `Feature: reuse
  Scenario: health
    Then the app answers
`,
		"steps/steps.ts": `import { Then } from '@cucumber/cucumber'
Then('the app answers', async function () {
  const res = await fetch('` + base + `/api/health')
  if (res.status !== 200) throw new Error('status ' + res.status)
})
`,
	}
	dir := t.TempDir()
	files["ferridriver.toml"] = `[[webServer]]
command = "echo must not run >&2; exit 7"
url = "` + base + `/api/health"
reuseExistingServer = true
`
	testenv.WriteFiles(t, dir, files)
	if res := ferridriver(t, dir, "bdd"); res.code != 0 || strings.Contains(res.stderr, "must not run") {
		t.Fatalf("reuse: exit %d\n%s", res.code, res.stderr)
	}
	p, _ := strconv.Atoi(base[strings.LastIndexByte(base, ':')+1:])
	if !portOpen(p) {
		t.Fatal("the reused server was stopped")
	}

	dir = t.TempDir()
	files["ferridriver.toml"] = strings.Replace(files["ferridriver.toml"], "reuseExistingServer = true", "reuseExistingServer = false", 1)
	testenv.WriteFiles(t, dir, files)
	res := ferridriver(t, dir, "bdd")
	if res.code != 2 || !strings.Contains(res.stderr, "already used") {
		t.Fatalf("without reuse: exit %d, want 2 and \"already used\"\n%s", res.code, res.stderr)
	}
}
