package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// visualPage is the page both runners compare: its second line changes
// with VARIANT (the deliberate mismatch).
const visualPage = `'<h1 style="font: 24px sans-serif; color: #333">Visual</h1><p id="changing" style="font: 16px sans-serif">' + (process.env.VARIANT || 'first') + '</p>'`

// The same checks, written once for Playwright Test (the oracle) and once
// as a cucumber-js feature with steps for ferridriver; scenario names are
// the tests' titles, so the baselines get the same names.
var visualFiles = map[string]string{
	"playwright.config.js": `module.exports = { testDir: '.', outputDir: 'test-results', workers: 1, retries: 0,
  use: { launchOptions: { executablePath: process.env.CHROMIUM, args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [] } } };
`,
	"visual.spec.js": `const { test, expect } = require('@playwright/test');
const content = () => ` + visualPage + `;
test('home page', async ({ page }) => { await page.setContent(content()); await expect(page).toHaveScreenshot('home.png'); });
test('nameless', async ({ page }) => {
  await page.setContent(content());
  await expect(page).toHaveScreenshot();
  await expect(page.locator('h1')).toHaveScreenshot();
});
test('masked', async ({ page }) => {
  await page.setContent(content());
  await expect(page).toHaveScreenshot('masked.png', { mask: [page.locator('#changing')] });
});
test('tolerant', async ({ page }) => {
  await page.setContent(content());
  await expect(page).toHaveScreenshot('tolerant.png', { maxDiffPixelRatio: 0.05 });
});
test('text snapshot', () => { expect('hello ' + (process.env.VARIANT || 'first')).toMatchSnapshot('greeting.txt'); });
`,
	"features/visual.feature": `Feature: visual comparisons
  Scenario: home page
    Given the page
    Then it looks like "home.png"

  Scenario: nameless
    Given the page
    Then it and its heading look as before

  Scenario: masked
    Given the page
    Then it looks like "masked.png" with the changing line masked

  Scenario: tolerant
    Given the page
    Then it looks like "tolerant.png" give or take 5%

  Scenario: text snapshot
    Then the greeting matches "greeting.txt"
`,
	"features/steps/visual.ts": `import { Given, Then, setDefaultTimeout } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
setDefaultTimeout(60_000)
Given('the page', async function () { await this.page.setContent(` + visualPage + `) })
Then('it looks like {string}', async function (name: string) { await expect(this.page).toHaveScreenshot(name) })
Then('it and its heading look as before', async function () {
  await expect(this.page).toHaveScreenshot()
  await expect(this.page.locator('h1')).toHaveScreenshot()
})
Then('it looks like {string} with the changing line masked', async function (name: string) {
  await expect(this.page).toHaveScreenshot(name, { mask: [this.page.locator('#changing')] })
})
Then('it looks like {string} give or take 5%', async function (name: string) {
  await expect(this.page).toHaveScreenshot(name, { maxDiffPixelRatio: 0.05 })
})
Then('the greeting matches {string}', function (name: string) {
  expect('hello ' + (process.env.VARIANT || 'first')).toMatchSnapshot(name)
})
`,
}

// visualOutcome is a test's result in a form both runners give: passed
// or failed, the failure's key lines with the paths made relative, and
// the names of the files attached.
type visualOutcome struct {
	status      string
	message     string
	attachments string
}

// keyLines keeps the lines of a snapshot failure that both runners word
// alike (the call log and the stack are each runner's own), with the
// project directory replaced by "<dir>" and each runner's test file by
// "<test>".
func keyLines(msg, dir, testFile string) string {
	msg = strings.ReplaceAll(msg, dir+string(filepath.Separator), "<dir>/")
	msg = strings.ReplaceAll(msg, testFile, "<test>")
	var keep []string
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "Error: "))
		// several failures: ferridriver numbers them in one message
		if len(l) > 3 && l[0] >= '1' && l[0] <= '9' && l[1:3] == ") " {
			l = l[3:]
		}
		switch {
		case strings.Contains(l, "A snapshot doesn't exist"), strings.Contains(l, "are different."),
			strings.HasPrefix(l, "@@ "), strings.HasPrefix(l, "-hello"), strings.HasPrefix(l, "+hello"),
			strings.HasPrefix(l, "Expected: "), strings.HasPrefix(l, "expect("):
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, " | ")
}

// ferridriverVisual reads a run's stream into outcomes by scenario.
func ferridriverVisual(t *testing.T, dir, stream string) map[string]visualOutcome {
	t.Helper()
	envs := oracles.ReadStream(t, stream)
	pickles, cases := map[string]string{}, map[string]string{}
	started := map[string]string{}
	out := map[string]visualOutcome{}
	for _, e := range envs {
		switch {
		case e.Pickle != nil:
			pickles[e.Pickle.ID] = e.Pickle.Name
		case e.TestCase != nil:
			cases[e.TestCase.ID] = pickles[e.TestCase.PickleID]
		case e.TestCaseStarted != nil:
			started[e.TestCaseStarted.ID] = cases[e.TestCaseStarted.TestCaseID]
			out[started[e.TestCaseStarted.ID]] = visualOutcome{status: "passed"}
		case e.TestStepFinished != nil:
			r := e.TestStepFinished.TestStepResult
			if r.Status == messages.TestStepResultStatusFailed {
				name := started[e.TestStepFinished.TestCaseStartedID]
				o := out[name]
				o.status = "failed"
				if r.Message != nil {
					o.message = keyLines(*r.Message, dir, "features/visual.feature")
				}
				out[name] = o
			}
		case e.Attachment != nil && e.Attachment.FileName != nil && *e.Attachment.FileName != "failure.png":
			name := started[*e.Attachment.TestCaseStartedID]
			o := out[name]
			o.attachments = strings.TrimPrefix(o.attachments+" "+*e.Attachment.FileName, " ")
			out[name] = o
		}
	}
	return out
}

// playwrightVisual turns Playwright Test's results into outcomes.
func playwrightVisual(res map[string]pwTestResult, dir string) map[string]visualOutcome {
	out := map[string]visualOutcome{}
	for title, r := range res {
		o := visualOutcome{status: r.Status}
		var msgs []string
		for _, e := range r.Errors {
			msgs = append(msgs, keyLines(e, dir, "visual.spec.js"))
		}
		o.message = strings.Join(msgs, " | ")
		var names []string
		for _, a := range r.Attachments {
			if !strings.HasPrefix(a, "_") && a != "screenshot" {
				names = append(names, a)
			}
		}
		o.attachments = strings.Join(names, " ")
		out[title] = o
	}
	return out
}

// files lists the files under dir/sub, relative to dir/sub, sorted.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, ".last-run.json") {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// toHaveScreenshot and toMatchSnapshot behave as in Playwright Test, run
// on the same pages by Playwright Test 1.52 itself: first run without
// baselines (each written, each test failing with "A snapshot doesn't
// exist ... writing actual."), then a deliberate mismatch (the same
// pixel counts, the diff written and attached; the masked and the
// tolerant comparisons pass), then --update-snapshots (the changed
// baselines rewritten, every test passing). The baselines and the
// failure outputs get the same names.
func TestVisualComparisonsMatchPlaywrightTest(t *testing.T) {
	t.Parallel() // long and self-contained (see the package doc)
	testenv.NeedBrowser(t)
	chromium := chromiumForOracles(t)
	pw, fd := t.TempDir(), t.TempDir()
	testenv.WriteFiles(t, pw, visualFiles)
	testenv.WriteFiles(t, fd, visualFiles)
	testenv.WriteFiles(t, fd, map[string]string{"ferridriver.toml": "[browser]\nexecutablePath = \"" + chromium + "\"\n\n[scripting]\nallowEnv = [\"VARIANT\"]\n"})
	env := []string{"CHROMIUM=" + chromium}

	type run struct {
		name    string
		env     []string
		pwArgs  []string
		fdArgs  []string
		failing []string
	}
	runs := []run{
		{name: "no baselines", failing: []string{"home page", "masked", "nameless", "text snapshot", "tolerant"}},
		{name: "a deliberate mismatch", env: []string{"VARIANT=second"}, failing: []string{"home page", "nameless", "text snapshot"}},
		{name: "--update-snapshots", env: []string{"VARIANT=second"}, pwArgs: []string{"--update-snapshots"}, fdArgs: []string{"-u"}},
	}
	baselines := map[string][]byte{}
	for i, r := range runs {
		_ = os.RemoveAll(filepath.Join(pw, "test-results"))
		_ = os.RemoveAll(filepath.Join(fd, "test-results"))
		// The two runners work in folders of their own: run them at the
		// same time (most of each run is waiting on its browser).
		stream := filepath.Join(fd, "out", "run.ndjson")
		fdDone := make(chan runResult, 1)
		go func() {
			var res runResult
			defer func() { fdDone <- res }() // also when the run fails the test
			res = ferridriverWithEnv(t, fd, r.env, append([]string{"bdd", "--format", "message:" + stream}, r.fdArgs...)...)
		}()
		want := playwrightVisual(playwrightTest(t, pw, append(env, r.env...), r.pwArgs...), pw)
		res := <-fdDone
		got := ferridriverVisual(t, fd, stream)
		if code := map[bool]int{true: 1, false: 0}[len(r.failing) > 0]; res.code != code {
			t.Fatalf("%s: ferridriver exited %d, want %d\n%s\n%s", r.name, res.code, code, res.stdout, res.stderr)
		}
		var failing []string
		for name, o := range want {
			if o.status == "failed" {
				failing = append(failing, name)
			}
			if got[name] != o {
				t.Errorf("%s, %q:\nferridriver %+v\nPlaywright  %+v", r.name, name, got[name], o)
			}
		}
		sort.Strings(failing)
		if strings.Join(failing, ",") != strings.Join(r.failing, ",") {
			t.Errorf("%s: Playwright's failing tests %v, want %v: the fixture does not exercise what it should", r.name, failing, r.failing)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d scenarios, Playwright %d tests", r.name, len(got), len(want))
		}
		pwSnaps, fdSnaps := files(t, filepath.Join(pw, "visual.spec.js-snapshots")), files(t, filepath.Join(fd, "features", "visual.feature-snapshots"))
		if strings.Join(pwSnaps, " ") != strings.Join(fdSnaps, " ") || len(fdSnaps) != 6 {
			t.Errorf("%s: baselines\nferridriver %v\nPlaywright  %v", r.name, fdSnaps, pwSnaps)
		}
		// The outputs of failed comparisons, folder by folder (Playwright
		// names a test's folder after its file without .spec.js).
		pwOut := strings.ReplaceAll(strings.Join(files(t, filepath.Join(pw, "test-results")), " "), "visual-", "<test>-")
		fdOut := strings.ReplaceAll(strings.Join(files(t, filepath.Join(fd, "test-results")), " "), "features-visual.feature-", "<test>-")
		if pwOut != fdOut {
			t.Errorf("%s: outputs\nferridriver %s\nPlaywright  %s", r.name, fdOut, pwOut)
		}
		for _, f := range fdSnaps {
			b, err := os.ReadFile(filepath.Join(fd, "features", "visual.feature-snapshots", f))
			if err != nil {
				t.Fatal(err)
			}
			changed := i > 0 && !bytes.Equal(b, baselines[f])
			wantChanged := r.name == "--update-snapshots" && !strings.HasPrefix(f, "masked") && !strings.HasPrefix(f, "tolerant") && !strings.HasPrefix(f, "nameless-2")
			if changed != wantChanged {
				t.Errorf("%s: baseline %s changed: %v, want %v", r.name, f, changed, wantChanged)
			}
			baselines[f] = b
		}
	}
	bad := ferridriver(t, fd, "bdd", "--update-snapshots=sometimes")
	if bad.code != 2 || !strings.Contains(bad.stderr, `--update-snapshots: "sometimes" (want all, changed, missing, none)`) {
		t.Errorf("a bad mode: exit %d\n%s", bad.code, bad.stderr)
	}
}
