package e2e

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// junitSuite is what the tests read of a JUnit report (one <testsuite>,
// as Cucumber's junit-xml-formatter writes it).
type junitSuite struct {
	XMLName  xml.Name
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Cases    []struct {
		Name string `xml:"name,attr"`
	} `xml:"testcase"`
}

func readJUnit(t *testing.T, path string) junitSuite {
	t.Helper()
	var js junitSuite
	if err := xml.Unmarshal(mustRead(t, path), &js); err != nil {
		t.Fatalf("%s does not parse: %v", path, err)
	}
	if js.XMLName.Local != "testsuite" {
		t.Fatalf("%s: root element <%s>, want <testsuite>", path, js.XMLName.Local)
	}
	return js
}

// The repository's example suite (features/, steps/, ferridriver.toml)
// passes against the demo app that its [[webServer]] starts, shows the
// progress output with its summary, and writes the JUnit and HTML reports
// its config asks for.
func TestExampleSuite(t *testing.T) {
	t.Parallel() // long and self-contained (see the package doc)
	testenv.NeedBrowser(t)
	dir, port := exampleSuite(t)
	token := runToken(t)
	res := ferridriverWithEnv(t, dir, []string{token}, "bdd")
	if res.code != 0 {
		t.Fatalf("example suite: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	// progress: one character per step, then the summary.
	summary := regexp.MustCompile(`(?m)^(\d+) scenarios \((\d+) passed\)$`).FindStringSubmatch(res.stdout)
	if summary == nil || summary[1] != summary[2] {
		t.Fatalf("no all-passed summary in the output:\n%s", res.stdout)
	}
	scenarios, _ := strconv.Atoi(summary[1])
	if scenarios < 20 {
		t.Fatalf("only %d scenarios ran:\n%s", scenarios, res.stdout)
	}
	if !regexp.MustCompile(`(?m)^\d+ steps \(\d+ passed\)$`).MatchString(res.stdout) {
		t.Fatalf("no all-passed step count:\n%s", res.stdout)
	}

	js := readJUnit(t, filepath.Join(dir, "reports", "junit.xml"))
	if len(js.Cases) != scenarios || js.Failures+js.Errors != 0 {
		t.Fatalf("junit: %d test cases, %d failures, %d errors; want %d, 0, 0", len(js.Cases), js.Failures, js.Errors, scenarios)
	}
	html := string(mustRead(t, filepath.Join(dir, "reports", "report.html")))
	for _, want := range []string{"<html", "Logging in", "Sortable table", "testRunFinished"} {
		if !strings.Contains(html, want) {
			t.Fatalf("report.html lacks %q", want)
		}
	}
	// The demo server and the browser are gone with the run.
	noneLeft(t, token)
	if portOpen(port) {
		t.Fatalf("the demo server still listens on %d after the run", port)
	}
}

// `ferridriver init` scaffolds a project that runs as is (its example
// starts the demo app through [[webServer]]) and type-checks with tsc.
func TestInitScaffold(t *testing.T) {
	t.Parallel() // long and self-contained (see the package doc)
	dir := filepath.Join(t.TempDir(), "my-tests")
	res := ferridriver(t, ".", "init", dir)
	if res.code != 0 {
		t.Fatalf("init: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{"ferridriver.toml", "features/login.feature", "pages/login.yaml", "features/todo.feature", "steps/world.ts", "steps/todo.ts", "tsconfig.json", "types/cucumber.d.ts", "types/ferridriver.d.ts", ".vscode/settings.json", ".vscode/ferridriver-steps.ts", "cd " + dir, " bdd"} {
		if !strings.Contains(res.stdout, want) {
			t.Fatalf("init output lacks %q:\n%s", want, res.stdout)
		}
	}
	// The editor's glue file is the one `ferridriver steps --glue` writes.
	glue := ferridriver(t, dir, "steps", "--glue")
	if got := string(mustRead(t, filepath.Join(dir, ".vscode", "ferridriver-steps.ts"))); glue.code != 0 || got != glue.stdout {
		t.Fatalf("init's .vscode/ferridriver-steps.ts differs from steps --glue (exit %d)", glue.code)
	}
	// A second init refuses and changes nothing.
	before := mustRead(t, filepath.Join(dir, "steps", "world.ts"))
	testenv.WriteFiles(t, dir, map[string]string{"steps/world.ts": "// mine\n"})
	again := ferridriver(t, ".", "init", dir)
	if again.code != 2 || !strings.Contains(again.stderr, "--force") || !strings.Contains(again.stderr, "steps/world.ts") {
		t.Fatalf("second init: exit %d, want 2 with a hint about --force\n%s", again.code, again.stderr)
	}
	if got := string(mustRead(t, filepath.Join(dir, "steps", "world.ts"))); got != "// mine\n" {
		t.Fatalf("init overwrote steps/world.ts without --force")
	}
	if forced := ferridriver(t, ".", "init", "--force", dir); forced.code != 0 {
		t.Fatalf("init --force: exit %d\n%s", forced.code, forced.stderr)
	}
	// The project's steps get a browser-suited timeout.
	if pc := ferridriver(t, dir, "bdd", "--print-config"); !strings.Contains(pc.stdout, "timeout = 15000  # ferridriver.toml") {
		t.Errorf("the scaffold's step timeout is not 15000 ms from ferridriver.toml:\n%s%s", pc.stdout, pc.stderr)
	}
	// Without a folder and without a terminal to ask on, init refuses
	// (a usage error) and writes nothing in the current folder.
	empty := t.TempDir()
	if res := ferridriver(t, empty, "init"); res.code != 2 || !strings.Contains(res.stderr, `"ferridriver init ."`) {
		t.Fatalf("init without a folder: exit %d, want 2 and how to name one\n%s%s", res.code, res.stdout, res.stderr)
	}
	if left, _ := os.ReadDir(empty); len(left) > 0 {
		t.Fatalf("init without a folder wrote %d files into the current one", len(left))
	}
	if got := mustRead(t, filepath.Join(dir, "steps", "world.ts")); string(got) != string(before) {
		t.Fatalf("init --force did not restore steps/world.ts")
	}

	t.Run("tsc", func(t *testing.T) {
		tsc := filepath.Join(oracles.NodeModules(t), "typescript", "bin", "tsc")
		if _, err := os.Stat(tsc); err != nil {
			t.Fatalf("typescript is not installed in tools/oracles: run `make oracles` (%v)", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "types", "playwright.d.ts")); err != nil {
			t.Skip("no @playwright/test declarations registered yet (types/playwright.d.ts): waiting for the browser bindings")
		}
		cmd := exec.Command("node", tsc, "--noEmit", "-p", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tsc --noEmit on the scaffold: %v\n%s", err, out)
		}
		// The declarations catch mistakes: a typo in a Page method fails.
		testenv.WriteFiles(t, dir, map[string]string{"steps/typo.ts": `import { When } from '@cucumber/cucumber'
When('a typo', async function () { await this.page.gotoo('/') })
`})
		out, err := exec.Command("node", tsc, "--noEmit", "-p", dir).CombinedOutput()
		os.Remove(filepath.Join(dir, "steps", "typo.ts"))
		if err == nil || !strings.Contains(string(out), "gotoo") {
			t.Fatalf("tsc accepted this.page.gotoo: %s", out)
		}
	})

	t.Run("bdd", func(t *testing.T) {
		testenv.NeedBrowser(t)
		// The scaffold serves the demo app on 4173; use a free port so that
		// a developer's own demo server does not get in the way.
		port := strconv.Itoa(testenv.FreePort(t))
		cfg := strings.ReplaceAll(string(mustRead(t, filepath.Join(dir, "ferridriver.toml"))), "4173", port)
		if !strings.Contains(cfg, binary+" demo-server") {
			t.Fatalf("the [[webServer]] command does not run this ferridriver (%s):\n%s", binary, cfg)
		}
		testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": cfg})
		token := runToken(t)
		res := ferridriverWithEnv(t, dir, []string{token}, "bdd")
		if res.code != 0 {
			t.Fatalf("bdd in the scaffold: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
		}
		if !strings.Contains(res.stdout, "2 scenarios (2 passed)") {
			t.Fatalf("scaffold run:\n%s", res.stdout)
		}
		readJUnit(t, filepath.Join(dir, "reports", "junit.xml"))
		noneLeft(t, token)
	})
}

// The example suite's steps and the built-in step library type-check
// against the declarations that `ferridriver init` writes: the types
// describe what the steps really use, and the library needs nothing but
// the public API.
func TestExampleSuiteTypeChecks(t *testing.T) {
	t.Parallel() // long and self-contained (see the package doc)
	tsc := filepath.Join(oracles.NodeModules(t), "typescript", "bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("typescript is not installed in tools/oracles: run `make oracles` (%v)", err)
	}
	dir := t.TempDir()
	if res := ferridriver(t, ".", "init", dir); res.code != 0 {
		t.Fatalf("init: exit %d\n%s", res.code, res.stderr)
	}
	if err := os.RemoveAll(filepath.Join(dir, "steps")); err != nil {
		t.Fatal(err)
	}
	for src, dst := range map[string]string{"features/support": "steps/example", "steps": "steps/library"} {
		if err := os.CopyFS(filepath.Join(dir, dst), os.DirFS(filepath.Join(oracles.Root(), src))); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("node", tsc, "--noEmit", "-p", dir).CombinedOutput(); err != nil {
		t.Fatalf("tsc --noEmit on steps/ with the scaffold's declarations: %v\n%s", err, out)
	}
}
