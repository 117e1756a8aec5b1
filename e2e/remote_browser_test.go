package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world/install"
)

// startEndpoint starts a browser server process and returns the endpoint
// that the first line matching re of its output (stdout or stderr) names.
func startEndpoint(t *testing.T, re *regexp.Regexp, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); pw.Close() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case ep := <-found:
		return ep
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not print its endpoint", name)
	}
	return ""
}

// The example suite runs unchanged on a remote browser: a Playwright
// browser server ([browser] connect) and a Chromium's DevTools endpoint
// (connectOverCDP), given through the environment (issue 14).
func TestExampleSuiteOnRemoteBrowsers(t *testing.T) {
	testenv.NeedBrowser(t)
	drv, err := install.FindDriver("")
	if err != nil {
		t.Fatal(err)
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH to serve as the remote browser")
	}
	port := testenv.FreePort(t)
	cdp := startEndpoint(t, regexp.MustCompile(`DevTools listening on (ws://\S+)`), nil, chromium,
		"--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0", "--user-data-dir="+t.TempDir(),
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "about:blank")
	// A run-server launches the browsers of its own Playwright install,
	// as in a browser container: give it one made of the system's
	// headless shell, where its browsers.json says it lives.
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
	ws := startEndpoint(t, regexp.MustCompile(`Listening on (ws://\S+)`), []string{"PLAYWRIGHT_BROWSERS_PATH=" + browsers}, "node", drv.CLI, "run-server", "--port", strconv.Itoa(port), "--host", "127.0.0.1")
	for name, env := range map[string][]string{
		"connect":        {"FERRIDRIVER_BROWSER_CONNECT=" + ws},
		"connectOverCDP": {"FERRIDRIVER_BROWSER_CONNECTOVERCDP=" + cdp},
	} {
		t.Run(name, func(t *testing.T) {
			dir, _ := exampleSuite(t)
			res := ferridriverWithEnv(t, dir, env, "bdd", "--tags", "not @slow", "--format", "summary")
			if res.code != 0 || !regexp.MustCompile(`(?m)^(\d+) scenarios \((\d+) passed\)$`).MatchString(res.stdout) {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
		})
	}
}
