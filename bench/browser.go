package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/world"
	"github.com/ferridriver/ferridriver/world/install"
)

// The browser benchmark: 100 scenarios x 5 steps (open page, fill, click,
// assert text, assert count) against the demo app, served once by this
// process for every run. The same .feature files and the same
// cucumber-js-style TypeScript step file run under
//
//   - ferridriver (its own browser World: one shared Chromium, a fresh
//     context and page per test case);
//   - cucumber-js 13 + Playwright 1.52 on Node 22, with the standard
//     support file: Chromium launched in BeforeAll, context and page created
//     in Before, closed in After (one browser per worker process);
//   - the floor (bench/floor): playwright-go doing the same browser work
//     with no runner, one Chromium shared by the goroutines; once as is,
//     once preparing each goroutine's next context and page while a
//     scenario runs and closing contexts in the background, as ferridriver
//     does with fewer workers than CPUs.
//
// All run on the same browser, headless, at 1 and 2 workers: the full
// Chromium, /usr/bin/chromium (or BENCH_BROWSER), and, when it is
// installed, the headless shell (ferridriver's default browser, found as
// ferridriver finds it). ferridriver and the floor launch it with
// ferridriver's flags (world.ChromiumArgs). cucumber-js runs twice: as the
// usual support file launches it (Playwright's defaults: what its users
// run), and with ferridriver's flags (the runners alone compared).
// BENCH_BROWSER_OVERLAP=1 adds a row with ferridriver's overlap rule
// turned the other way.

// browserScenarios is the suite's size; BENCH_BROWSER_SCENARIOS changes it
// for a quick check.
var browserScenarios = 100

func browserSuites(root, work, ferri, node, cucumber, peer string) ([]suite, error) {
	if v := os.Getenv("BENCH_BROWSER_SCENARIOS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("BENCH_BROWSER_SCENARIOS=%q: want a positive number", v)
		}
		browserScenarios = n
	}
	chromium := os.Getenv("BENCH_BROWSER")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		return nil, fmt.Errorf("browser suite: %s is missing (make browser installs it; BENCH_BROWSER overrides it)", chromium)
	}
	base, err := demoapp.Serve(context.Background(), "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(work, "browser")
	if err := writeBrowserSuite(dir, peer, base, chromium); err != nil {
		return nil, err
	}
	floor := filepath.Join(work, "floor")
	build := exec.Command("go", "build", "-o", floor, "./bench/floor")
	build.Dir = root
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("build the floor program: %w", err)
	}
	// Both browsers, when the headless shell is installed: the full
	// Chromium, and the headless shell that ferridriver runs by default
	// and that Playwright's own download gives a cucumber-js user.
	browsers := []benchBrowser{{key: "full", name: "full Chromium", path: chromium, config: "ferridriver.toml"}}
	if shell, err := install.FindBrowser(install.BrowserQuery{Headless: true}); err == nil && shell.HeadlessShell {
		browsers = append(browsers, benchBrowser{key: "shell", name: "headless shell", path: shell.Path, config: "ferridriver-shell.toml"})
	}
	// BENCH_BROWSERS (full, shell) and BENCH_WORKERS (1, 2) select part
	// of the suites, so that a long run can be split.
	var suites []suite
	for _, b := range browsers {
		if v := os.Getenv("BENCH_BROWSERS"); v != "" && !strings.Contains(v, b.key) {
			continue
		}
		for _, workers := range []int{1, 2} {
			w := strconv.Itoa(workers)
			if v := os.Getenv("BENCH_WORKERS"); v != "" && !strings.Contains(v, w) {
				continue
			}
			floorArgv := []string{floor, "-base", base, "-browser-path", b.path, "-scenarios", strconv.Itoa(browserScenarios), "-workers", w}
			s := suite{
				name: fmt.Sprintf("browser, %s (%d scenarios x 5 steps, %d worker(s))", b.name, browserScenarios, workers),
				commands: []command{
					{name: "ferridriver", dir: dir, argv: []string{ferri, "bdd", "--parallel", w, "-c", b.config}},
					{name: "floor (playwright-go, no runner)", dir: dir, argv: floorArgv},
					{name: "floor, next page prepared (playwright-go, no runner)", dir: dir, argv: append(floorArgv[:len(floorArgv):len(floorArgv)], "-overlap")},
					{name: "cucumber-js + Playwright", dir: dir, argv: []string{node, cucumber, "--parallel", w}, env: peerEnv(base, b.path, false)},
					{name: "cucumber-js + Playwright, ferridriver's flags", dir: dir, argv: []string{node, cucumber, "--parallel", w}, env: peerEnv(base, b.path, true)},
				},
				// ferridriver/floor and ferridriver/cucumber-js: the
				// issue's targets; ferridriver against the floor that
				// overlaps as it does; the runners compared on the same
				// browser configuration; and the overlapping floor
				// against cucumber-js: the best a runner that gives every
				// test case a fresh context on Playwright can do.
				ratios: [][2]int{{0, 1}, {0, 3}, {0, 2}, {0, 4}, {2, 3}},
				sample: 200 * time.Millisecond,
			}
			if os.Getenv("BENCH_BROWSER_OVERLAP") != "" {
				// ferridriver overlaps browser work while there are fewer
				// workers than CPUs; this row runs it with the other
				// choice, to show the rule's effect in the same run.
				other := s.commands[0]
				other.name, other.env = "ferridriver, overlap forced on", []string{"FERRIDRIVER_OVERLAP=1"}
				if workers < runtime.NumCPU() {
					other.name, other.env = "ferridriver, overlap forced off", []string{"FERRIDRIVER_OVERLAP=0"}
				}
				s.commands = append(s.commands, other)
				s.ratios = append(s.ratios, [2]int{0, len(s.commands) - 1})
			}
			suites = append(suites, s)
		}
	}
	return suites, nil
}

// benchBrowser is a browser the suite runs on; config is ferridriver's
// configuration file for it, key its name in BENCH_BROWSERS.
type benchBrowser struct{ key, name, path, config string }

// writeBrowserSuite writes the suite both runners run unchanged: the
// .feature files and the step file; cucumber-js also loads support/ (its
// browser lifecycle, which ferridriver provides itself).
func writeBrowserSuite(dir, peerModules, base, chromium string) error {
	files := featureFiles("todo", "Todo", browserScenarios, 10, func(n int) string {
		return fmt.Sprintf(`  Scenario: todo %d
    Given I open the todo page
    When I type "Todo %d" as a new todo
    And I press the Add button
    Then the counter reads "1 item left"
    And the list has 1 item

`, n, n)
	})
	files["steps/todo.ts"] = browserSteps
	files["support/browser.ts"] = cucumberBrowserSupport
	files["cucumber.json"] = `{ "default": { "requireModule": ["tsx/cjs"], "require": ["steps/**/*.ts", "support/**/*.ts"], "paths": ["features/**/*.feature"] } }`
	config := fmt.Sprintf("[test]\nsteps = [\"steps/**/*.ts\"]\n\n[browser]\nbaseURL = %q\n", base)
	files["ferridriver.toml"] = config + fmt.Sprintf("executablePath = %q\n", chromium)
	// The browser ferridriver finds itself: the headless shell when it is
	// installed.
	files["ferridriver-shell.toml"] = config
	return writeSuite(dir, peerModules, files)
}

// peerEnv tells the cucumber-js support file where the demo app and
// Chromium are. Without flags it launches Chromium the way the usual
// support file does (Playwright's defaults); with flags it gets
// ferridriver's launch flags, which compares the runners alone on the
// same browser configuration.
func peerEnv(base, chromium string, flags bool) []string {
	env := []string{"DEMO_URL=" + base, "CHROMIUM=" + chromium}
	if flags {
		args, _ := json.Marshal(world.ChromiumArgs(os.Geteuid() == 0, nil))
		env = append(env, "CHROMIUM_ARGS="+string(args))
	}
	return env
}

// browserSteps is the one step file both runners load.
const browserSteps = `import { Given, When, Then, setDefaultTimeout } from '@cucumber/cucumber'
import { expect } from '@playwright/test'

// Generous, so that a loaded machine makes runs slower, never failed.
setDefaultTimeout(60_000)

Given('I open the todo page', async function () {
  await this.page.goto('/todo.html')
})

When('I type {string} as a new todo', async function (text: string) {
  await this.page.getByLabel('New todo').fill(text)
})

When('I press the Add button', async function () {
  await this.page.getByRole('button', { name: 'Add', exact: true }).click()
})

Then('the counter reads {string}', async function (text: string) {
  await expect(this.page.getByTestId('todo-count')).toHaveText(text)
})

Then('the list has {int} item(s)', async function (count: number) {
  await expect(this.page.getByTestId('todo-item')).toHaveCount(count)
})
`

// cucumberBrowserSupport is the usual cucumber-js + Playwright support
// file: a browser per worker, a fresh context and page per scenario.
const cucumberBrowserSupport = `import { After, AfterAll, Before, BeforeAll } from '@cucumber/cucumber'
import { chromium, type Browser } from 'playwright-core'

let browser: Browser

BeforeAll(async function () {
  const args = JSON.parse(process.env.CHROMIUM_ARGS ?? '[]')
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM, headless: true, args })
})

Before(async function () {
  this.context = await browser.newContext({ baseURL: process.env.DEMO_URL })
  this.page = await this.context.newPage()
})

After(async function () {
  await this.context?.close()
})

AfterAll(async function () {
  await browser?.close()
})
`

// exampleSuite runs the repository's example suite (features/ and its steps in features/support/)
// under ferridriver and, unchanged, under cucumber-js + Playwright with
// the usual support file (which also provides this.request), at one
// worker: a realistic mix of pages, dialogs, popups, waits and API calls.
func exampleSuite(root, work, ferri, node, cucumber, peer string) (suite, error) {
	chromium := os.Getenv("BENCH_BROWSER")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	base, err := demoapp.Serve(context.Background(), "127.0.0.1:0")
	if err != nil {
		return suite{}, err
	}
	dir := filepath.Join(work, "example")
	support := strings.Replace(cucumberBrowserSupport, "this.page = await this.context.newPage()",
		"this.page = await this.context.newPage()\n  this.request = this.context.request", 1)
	files := map[string]string{
		"support/browser.ts": support,
		"cucumber.json":      `{ "default": { "requireModule": ["tsx/cjs"], "require": ["features/support/**/*.ts", "support/**/*.ts"], "paths": ["features/**/*.feature"] } }`,
		"ferridriver.toml":   fmt.Sprintf("[test]\nsteps = [\"features/support/**/*.ts\"]\n\n[browser]\nbaseURL = %q\nexecutablePath = %q\n", base, chromium),
	}
	if err := writeSuite(dir, peer, files); err != nil {
		return suite{}, err
	}
	// The repository's own features and steps, unchanged.
	if err := os.CopyFS(filepath.Join(dir, "features"), os.DirFS(filepath.Join(root, "features"))); err != nil {
		return suite{}, err
	}
	return suite{
		name:   "example suite (features/, 1 worker)",
		sample: 200 * time.Millisecond,
		commands: []command{
			{name: "ferridriver", dir: dir, argv: []string{ferri, "bdd"}},
			{name: "cucumber-js + Playwright", dir: dir, argv: []string{node, cucumber}, env: peerEnv(base, chromium, false)},
			{name: "cucumber-js + Playwright, ferridriver's flags", dir: dir, argv: []string{node, cucumber}, env: peerEnv(base, chromium, true)},
		},
	}, nil
}
