package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
	"github.com/ferridriver/ferridriver/world/install"
)

// endpointServer is a browser server process (a Playwright run-server, a
// Chromium with its DevTools endpoint) in its own process group, so that
// killing it kills the browsers it started too.
type endpointServer struct {
	t        *testing.T
	re       *regexp.Regexp
	env      []string
	argv     []string
	cmd      *exec.Cmd
	endpoint string
}

// startEndpoint starts a browser server and waits for the endpoint that
// the first line matching re of its output (stdout or stderr) names.
func startEndpoint(t *testing.T, re *regexp.Regexp, env []string, argv ...string) *endpointServer {
	t.Helper()
	s := &endpointServer{t: t, re: re, env: env, argv: argv}
	s.start()
	t.Cleanup(s.kill)
	return s
}

func (s *endpointServer) start() {
	s.t.Helper()
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Env = append(os.Environ(), s.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	go func() { cmd.Wait(); pw.Close() }()
	s.cmd = cmd
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := s.re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case s.endpoint = <-found:
	case <-time.After(60 * time.Second):
		s.t.Fatalf("%s did not print its endpoint", s.argv[0])
	}
}

// kill kills the server and every process of its group (its browsers) at
// once, as a crashed host or container would go.
func (s *endpointServer) kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		for i := 0; i < 100 && syscall.Kill(-s.cmd.Process.Pid, 0) == nil; i++ {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// startRunServer starts `playwright run-server` (the driver's own cli.js)
// on 127.0.0.1:port. A run-server launches the browsers of its own
// Playwright install, as in a browser container: it is given one made of
// the system's headless shell, where the driver's browsers.json says it
// lives.
func startRunServer(t *testing.T, port int) *endpointServer {
	t.Helper()
	drv, err := install.FindDriver("")
	if err != nil {
		t.Fatal(err)
	}
	shell := "/usr/lib/chromium/chromium-headless-shell"
	if _, err := os.Stat(shell); err != nil {
		t.Skip("no chromium-headless-shell to serve as the run-server's browser")
	}
	browsers := t.TempDir()
	var manifest struct {
		Browsers []struct{ Name, Revision string }
	}
	b, err := os.ReadFile(filepath.Join(drv.Dir, "package", "browsers.json"))
	if err != nil || json.Unmarshal(b, &manifest) != nil {
		t.Fatalf("browsers.json of the driver: %v", err)
	}
	for _, br := range manifest.Browsers {
		if br.Name == "chromium-headless-shell" {
			exe := filepath.Join(browsers, "chromium_headless_shell-"+br.Revision, "chrome-linux", "headless_shell")
			if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(shell, exe); err != nil {
				t.Fatal(err)
			}
		}
	}
	return startEndpoint(t, regexp.MustCompile(`Listening on (ws://\S+)`), []string{"PLAYWRIGHT_BROWSERS_PATH=" + browsers},
		"node", drv.CLI, "run-server", "--port", strconv.Itoa(port), "--host", "127.0.0.1")
}

// startDevToolsChromium starts a headless Chromium with its DevTools
// endpoint on a port of its choosing.
func startDevToolsChromium(t *testing.T) *endpointServer {
	t.Helper()
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH to serve as the remote browser")
	}
	return startEndpoint(t, regexp.MustCompile(`DevTools listening on (ws://\S+)`), nil, chromium,
		// Playwright launches its browsers without background throttling;
		// a remote browser started for it should be too (the example suite
		// runs about 15% faster over CDP with these).
		"--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0", "--user-data-dir="+t.TempDir(),
		"--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows", "--disable-renderer-backgrounding",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "about:blank")
}

// The example suite runs unchanged on a remote browser: a Playwright
// browser server ([browser] connect) and a Chromium's DevTools endpoint
// (connectOverCDP), given through the environment (issue 14).
func TestExampleSuiteOnRemoteBrowsers(t *testing.T) {
	t.Parallel()
	testenv.NeedBrowser(t)
	cdp := startDevToolsChromium(t)
	ws := startRunServer(t, testenv.FreePort(t))
	for name, env := range map[string][]string{
		"connect":        {"FERRIDRIVER_BROWSER_CONNECT=" + ws.endpoint},
		"connectOverCDP": {"FERRIDRIVER_BROWSER_CONNECTOVERCDP=" + cdp.endpoint},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir, _ := exampleSuite(t)
			res := ferridriverWithEnv(t, dir, env, "bdd", "--tags", "not @slow", "--format", "summary")
			if res.code != 0 || !regexp.MustCompile(`(?m)^(\d+) scenarios \((\d+) passed\)$`).MatchString(res.stdout) {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
		})
	}
}

// remoteFiles: steps open pages whose title they check; the slow step
// writes a marker file, then waits on its page for an element that never
// comes (a wait in the browser, which a lost connection ends at once).
var remoteFiles = map[string]string{
	"steps/steps.ts": `import { Given, When } from '@cucumber/cucumber'
import * as fs from 'node:fs'
Given('I open a page titled {string}', async function (title: string) {
  await this.page.goto('data:text/html,<title>' + title + '</title>')
  const got = await this.page.title()
  if (got !== title) throw new Error('title ' + got)
})
When('I wait on the page', async function () {
  fs.writeFileSync('waiting', '')
  await this.page.locator('#never-there').waitFor({ timeout: 4000 })
})
`,
	"features/remote.feature": `Feature: A remote browser
  Scenario: before
    Given I open a page titled "before"

  Scenario: during
    Given I open a page titled "during"
    When I wait on the page

  Scenario: after 1
    Given I open a page titled "after 1"

  Scenario: after 2
    Given I open a page titled "after 2"
`,
}

// The Playwright server killed in the middle of a test case (its
// browsers with it) and started again on the same port 1.5 s later: that
// test case fails saying the connection was lost and will be reconnected,
// the next one waits for the server to accept connections again, the
// next ones pass on the new server, and the run exits 1.
func TestRemoteBrowserLostMidRun(t *testing.T) {
	testenv.NeedBrowser(t)
	port := testenv.FreePort(t)
	server := startRunServer(t, port)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, remoteFiles)
	cmd, stdout, stderr := startFerridriver(t, dir, []string{"FERRIDRIVER_BROWSER_CONNECT=" + server.endpoint},
		"bdd", "--format", "message:run.ndjson", "--format", "summary")
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "waiting")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slow scenario never started\n%s%s", stdout, stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Down for a while, as a restarting container: the next test case's
	// connection is refused until the server is back.
	server.kill()
	time.Sleep(1500 * time.Millisecond)
	server.start()
	code := exitCode(t, cmd)

	envs := readEnvelopes(t, filepath.Join(dir, "run.ndjson"))
	got := scenarioStatuses(envs)
	want := map[string]string{"before": "PASSED", "during": "FAILED", "after 1": "PASSED", "after 2": "PASSED"}
	if code != 1 || fmtMap(got) != fmtMap(want) {
		t.Fatalf("exit %d, statuses %v; want 1 and %v\n%s%s", code, got, want, stdout, stderr)
	}
	lost := "the connection to the remote browser was lost (" + server.endpoint + ") during this test case; it will be reconnected for the next one"
	if msgs := strings.Join(failedMessages(envs), "\n"); !strings.Contains(msgs, lost) {
		t.Errorf("the failure does not say the connection was lost:\n%s", msgs)
	}
	for _, want := range []string{"it will be reconnected on next use", "refuses connections", "trying again for up to 30s"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
}

// scenarioStatuses maps each scenario name to the worst step status of
// its last attempt.
func scenarioStatuses(envs []*messages.Envelope) map[string]string {
	names, cases, started := map[string]string{}, map[string]string{}, map[string]string{}
	out := map[string]string{}
	rank := map[messages.TestStepResultStatus]int{"PASSED": 0, "SKIPPED": 1, "PENDING": 2, "UNDEFINED": 3, "AMBIGUOUS": 4, "FAILED": 5}
	for _, e := range envs {
		switch {
		case e.Pickle != nil:
			names[e.Pickle.ID] = e.Pickle.Name
		case e.TestCase != nil:
			cases[e.TestCase.ID] = names[e.TestCase.PickleID]
		case e.TestCaseStarted != nil:
			started[e.TestCaseStarted.ID] = cases[e.TestCaseStarted.TestCaseID]
			out[started[e.TestCaseStarted.ID]] = "PASSED"
		case e.TestStepFinished != nil:
			name := started[e.TestStepFinished.TestCaseStartedID]
			st := e.TestStepFinished.TestStepResult.Status
			if rank[st] > rank[messages.TestStepResultStatus(out[name])] {
				out[name] = string(st)
			}
		}
	}
	return out
}

func fmtMap(m map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, " ")
}

// `run` and `mcp` use the configured remote browser, not a local one:
// with an executablePath that does not exist, a script's page works on a
// Chromium's DevTools endpoint (--connect-over-cdp), and a page an MCP tool
// opens is listed by that Chromium (FERRIDRIVER_BROWSER_CONNECTOVERCDP).
func TestRunAndMCPUseTheRemoteBrowser(t *testing.T) {
	t.Parallel()
	testenv.NeedBrowser(t)
	cdp := startDevToolsChromium(t)
	local := []string{"FERRIDRIVER_BROWSER_EXECUTABLEPATH=/nonexistent/chromium", "FERRIDRIVER_DEBUG=1"}
	env := append([]string{"FERRIDRIVER_BROWSER_CONNECTOVERCDP=" + cdp.endpoint}, local...)
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"script.js": "await page.goto('data:text/html,<title>from run</title>')\nconsole.log('title:', await page.title())\n",
	})
	// run: with the flag.
	res := ferridriverWithEnv(t, dir, local, "run", "--connect-over-cdp", cdp.endpoint, "script.js")
	if res.code != 0 || !strings.Contains(res.stdout, "title: from run") || !strings.Contains(res.stderr, "remote chromium") {
		t.Fatalf("run: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}

	// mcp: with the environment.
	cs, stderr := mcpClient(t, dir, env)
	callOK(t, cs, "browser_navigate", map[string]any{"url": "data:text/html,<title>from mcp</title><h1>hi</h1>"})
	u, err := url.Parse(cdp.endpoint)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + u.Host + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var targets []struct{ Title, Type string }
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tg := range targets {
		found = found || tg.Type == "page" && tg.Title == "from mcp"
	}
	if !found {
		t.Fatalf("the remote Chromium has no page opened by the MCP tool: %+v\n%s", targets, stderr)
	}
}

// connectHeaders reach the browser server (here a proxy in front of a
// DevTools endpoint that refuses requests without the token), the token
// is read from the environment through ${VAR} in ferridriver.toml, and it
// is printed nowhere: not by --print-config, not in debug lines, not in
// the error when the server refuses a wrong token, not in any report.
func TestRemoteBrowserHeadersAreSentAndNeverPrinted(t *testing.T) {
	t.Parallel()
	testenv.NeedBrowser(t)
	const token, wrong = "tok-3f9a7c1e", "wrong-84d2b6"
	cdp := startDevToolsChromium(t)
	target, err := url.Parse(strings.Replace(cdp.endpoint, "ws://", "http://", 1))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: "http", Host: target.Host})
	var refused atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			refused.Add(1)
			http.Error(w, "no valid token", http.StatusUnauthorized)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	endpoint := "ws://" + strings.TrimPrefix(srv.URL, "http://") + target.Path

	dir := t.TempDir()
	files := map[string]string{
		"ferridriver.toml": "[browser]\nconnectOverCDP = \"" + endpoint + "\"\nconnectTimeout = 5000\n" +
			"connectHeaders = { Authorization = \"Bearer ${GRID_TOKEN}\" }\n",
	}
	for k, v := range remoteFiles {
		files[k] = strings.ReplaceAll(v, "    When I wait on the page\n", "")
	}
	testenv.WriteFiles(t, dir, files)
	noSecret := func(what, text string) {
		t.Helper()
		for _, s := range []string{token, wrong} {
			if strings.Contains(text, s) {
				t.Errorf("%s prints a connectHeaders value:\n%s", what, text)
			}
		}
	}
	reports := func() string {
		var all strings.Builder
		filepath.WalkDir(filepath.Join(dir, "reports"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				all.Write(mustRead(t, p))
			}
			return nil
		})
		return all.String()
	}
	args := []string{"bdd", "--format", "message:reports/run.ndjson", "--format", "junit:reports/junit.xml", "--format", "summary"}

	pc := ferridriverWithEnv(t, dir, []string{"GRID_TOKEN=" + token}, "bdd", "--print-config")
	if pc.code != 0 || !strings.Contains(pc.stdout, `connectHeaders = {"Authorization":"(hidden)"}`) {
		t.Errorf("--print-config: exit %d\n%s%s", pc.code, pc.stdout, pc.stderr)
	}
	noSecret("--print-config", pc.stdout+pc.stderr)
	flag := ferridriverWithEnv(t, dir, []string{"GRID_TOKEN=" + token}, "bdd", "--print-config", "--connect", "ws://grid:3000/?token="+token)
	if flag.code != 0 || !strings.Contains(flag.stdout, `connect = "ws://grid:3000/?token=(hidden)"  # flag --connect`) ||
		!strings.Contains(flag.stdout, `connectOverCDP = ""  # flag --connect`) {
		t.Errorf("--print-config --connect: exit %d\n%s%s", flag.code, flag.stdout, flag.stderr)
	}
	noSecret("--print-config --connect", flag.stdout+flag.stderr)

	ok := ferridriverWithEnv(t, dir, []string{"GRID_TOKEN=" + token, "FERRIDRIVER_DEBUG=1"}, args...)
	if ok.code != 0 || !strings.Contains(ok.stdout, "4 scenarios (4 passed)") || !strings.Contains(ok.stderr, "remote chromium") {
		t.Fatalf("with the token: exit %d\n%s%s", ok.code, ok.stdout, ok.stderr)
	}
	noSecret("a passing run", ok.stdout+ok.stderr+reports())
	if n := refused.Load(); n != 0 {
		t.Errorf("the proxy refused %d requests of the run with the token", n)
	}

	bad := ferridriverWithEnv(t, dir, []string{"GRID_TOKEN=" + wrong, "FERRIDRIVER_DEBUG=1"}, args...)
	failures := strings.Join(failedMessages(readEnvelopes(t, filepath.Join(dir, "reports", "run.ndjson"))), "\n")
	if bad.code != 1 || refused.Load() == 0 || !strings.Contains(failures, "connect to the remote browser at "+endpoint) || !strings.Contains(failures, "401") {
		t.Fatalf("with a wrong token: exit %d, %d refused\nfailures:\n%s\n%s%s", bad.code, refused.Load(), failures, bad.stdout, bad.stderr)
	}
	noSecret("a refused run", bad.stdout+bad.stderr+reports())
}

// `ferridriver install` with a remote browser configured does not look
// for a local one: with an executablePath that does not exist it fails,
// with a remote endpoint it says none is needed (the endpoint's token
// hidden).
func TestInstallSkipsTheLocalBrowserWithARemoteOne(t *testing.T) {
	if _, err := install.FindDriver(""); err != nil {
		t.Skip("the Playwright driver is not installed: `make browser`")
	}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": "[browser]\nexecutablePath = \"/nonexistent/chromium\"\n"})
	local := ferridriver(t, dir, "install")
	if local.code != 1 || !strings.Contains(local.stdout, "browser  MISSING  [browser] executablePath /nonexistent/chromium") {
		t.Fatalf("local: exit %d\n%s%s", local.code, local.stdout, local.stderr)
	}
	want := "browser  ok       remote, wss://grid.example/pw?token=(hidden) ([browser] connect/connectOverCDP): no local browser needed"
	for _, remote := range []runResult{
		ferridriverWithEnv(t, dir, []string{"FERRIDRIVER_BROWSER_CONNECT=wss://grid.example/pw?token=s3cr3t"}, "install"),
		ferridriver(t, dir, "install", "--connect", "wss://grid.example/pw?token=s3cr3t"),
	} {
		if remote.code != 0 || !strings.Contains(remote.stdout, want) || strings.Contains(remote.stdout+remote.stderr, "s3cr3t") {
			t.Fatalf("remote: exit %d, want 0 and %q\n%s%s", remote.code, want, remote.stdout, remote.stderr)
		}
	}
}

// [browser] exposeNetwork: a browser server whose browser cannot reach
// this machine's loopback (its launch options send every request to a
// dead proxy) still opens the app that [[webServer]] serves on 127.0.0.1
// when "<loopback>" is exposed through the connection, as a browser in a
// CI service container does.
func TestExposeNetworkReachesTheAppThroughTheConnection(t *testing.T) {
	t.Parallel()
	testenv.NeedBrowser(t)
	server := startRunServer(t, testenv.FreePort(t))
	deadProxy := url.QueryEscape(`{"proxy":{"server":"http://127.0.0.1:9"}}`)
	endpoint := "FERRIDRIVER_BROWSER_CONNECT=" + server.endpoint + "?launch-options=" + deadProxy
	for _, tc := range []struct {
		expose string
		code   int
		want   string
	}{
		{"", 1, "ERR_PROXY_CONNECTION_FAILED"},
		{"<loopback>", 0, "1 scenario (1 passed)"},
	} {
		dir, _ := exampleSuite(t)
		res := ferridriverWithEnv(t, dir, []string{endpoint, "FERRIDRIVER_BROWSER_EXPOSENETWORK=" + tc.expose},
			"bdd", "--name", "^Every page is linked from the home page$", "--format", "summary")
		if res.code != tc.code || !strings.Contains(res.stdout, tc.want) {
			t.Errorf("exposeNetwork %q: exit %d, want %d with %q\n%s%s", tc.expose, res.code, tc.code, tc.want, res.stdout, res.stderr)
		}
	}
}
