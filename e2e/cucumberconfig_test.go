package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/testenv"
)

// cucumberConfigFeature and cucumberConfigSteps are a suite whose step
// files live where only its cucumber-js configuration says (support/).
const cucumberConfigFeature = `Feature: configured by cucumber-js

  @smoke
  Scenario: smoke
    Given the app url is shown

  @slow
  Scenario: slow
    Given the app url is shown

  @smoke @flaky
  Scenario: flaky
    Given a step that fails on its first attempt
`

const cucumberConfigSteps = `import { Given } from '@cucumber/cucumber'
Given('the app url is shown', function () { this.attach(String(this.parameters.appUrl)) })
const attempts = {}
Given('a step that fails on its first attempt', function () {
  const n = (attempts[this.parameters.appUrl] = (attempts[this.parameters.appUrl] || 0) + 1)
  if (n === 1) throw new Error('first attempt fails')
})
`

// TestCucumberConfigProjectMatchesCucumberJS runs projects configured only
// by a cucumber-js configuration file (no ferridriver.toml) under ferridriver
// and under cucumber-js 13, with the same profiles and environment, and
// compares the per-scenario results: named profiles, an argv string
// profile, several profiles merged, process.env, and a default function
// returning the profiles (CommonJS).
func TestCucumberConfigProjectMatchesCucumberJS(t *testing.T) {
	t.Parallel() // long and self-contained (see the package doc)
	projects := map[string]map[string]string{
		"esm profiles": {
			"cucumber.mjs": `const common = {
  import: ['support/**/*.mjs'],
  worldParameters: { appUrl: process.env.APP_URL || 'http://default' },
}
export default { ...common }
export const ci = { ...common, tags: '@smoke', retry: 1 }
export const fast = '--tags "not @slow" --fail-fast'
`,
		},
		"function export": {
			"cucumber.cjs": `module.exports = {
  default: async () => ({
    default: { import: ['support/**/*.mjs'], worldParameters: { appUrl: 'from-function' }, tags: 'not @flaky' },
    smoke: { import: ['support/**/*.mjs'], worldParameters: { appUrl: 'smoke' }, tags: '@smoke and not @flaky' },
  }),
}
`,
		},
	}
	projects["esm function export"] = map[string]string{
		"cucumber.mjs": `export default async function () {
  const base = { import: ['support/**/*.mjs'], worldParameters: { appUrl: process.env.APP_URL } }
  return { default: { ...base, strict: false }, slow: { ...base, tags: '@slow' } }
}
`,
	}
	runs := map[string][][]string{
		"esm function export": {nil, {"-p", "slow"}},
		"esm profiles":        {nil, {"-p", "ci"}, {"-p", "ci", "-p", "fast"}},
		"function export":     {nil, {"--profile", "smoke"}},
	}
	for name, files := range projects {
		for _, profileArgs := range runs[name] {
			t.Run(name+" "+strings.Join(profileArgs, " "), func(t *testing.T) {
				dir := t.TempDir()
				all := map[string]string{"features/config.feature": cucumberConfigFeature, "support/steps.mjs": cucumberConfigSteps}
				for k, v := range files {
					all[k] = v
				}
				testenv.WriteFiles(t, dir, all)
				env := []string{"APP_URL=http://from-env"}
				fd := ferridriverWithEnv(t, dir, env, append([]string{"bdd", "--format", "message:ferri.ndjson"}, profileArgs...)...)
				cj := cucumberJS(t, dir, env, append([]string{"--format", "message:cucumber.ndjson"}, profileArgs...)...)
				if fd.code != cj.code {
					t.Errorf("exit code: ferridriver %d, cucumber-js %d\nferridriver: %s%s\ncucumber-js: %s%s", fd.code, cj.code, fd.stdout, fd.stderr, cj.stdout, cj.stderr)
				}
				read := func(n string) []byte {
					b, err := os.ReadFile(filepath.Join(dir, n))
					if err != nil {
						t.Fatalf("%s: %v\nferridriver: %s\ncucumber-js: %s%s", n, err, fd.stderr, cj.stdout, cj.stderr)
					}
					return b
				}
				got, want := scenarioOutcomes(t, read("ferri.ndjson")), scenarioOutcomes(t, read("cucumber.ndjson"))
				if len(want) == 0 {
					t.Fatalf("cucumber-js ran nothing: %s%s", cj.stdout, cj.stderr)
				}
				for _, k := range sortedOutcomeKeys(want) {
					if got[k] != want[k] {
						t.Errorf("%s:\n  ferridriver %q\n  cucumber-js %q", k, got[k], want[k])
					} else {
						t.Logf("%s: %s", k, got[k])
					}
				}
				if g, w := strings.Join(sortedOutcomeKeys(got), ", "), strings.Join(sortedOutcomeKeys(want), ", "); g != w {
					t.Errorf("scenarios: ferridriver %s; cucumber-js %s", g, w)
				}
			})
		}
	}
}

// TestPrintConfigShowsSources: --print-config prints every [test] value
// with where it came from (flag, environment, ferridriver.toml, the
// cucumber-js file and profiles, default) and the options not applied;
// the run writes the configuration's reports, its custom formatter's too.
func TestPrintConfigShowsSources(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/a.feature": "Feature: a\n  Scenario: s\n    Given pass\n",
		"support/steps.js":   "const { Given } = require('@cucumber/cucumber')\nGiven('pass', function () {})\n",
		"reporter.js":        "const { Formatter } = require('@cucumber/cucumber')\nmodule.exports = class extends Formatter {\n  constructor(o) { super(o); o.eventBroadcaster.on('envelope', (e) => { if (e.testRunFinished) this.log('finished ' + e.testRunFinished.success) }) }\n}\n",
		"ferridriver.toml":   "[test]\nparallel = 3\n\n[browser]\nheadless = false\n",
		"config/cucumber.json": `{
  "default": {"require": ["support/*.js"], "parallel": 2, "retry": 2, "language": "en", "publish": true, "plugin": ["./coordinator.js"],
              "requireModule": ["ts-node/register"], "format": ["./reporter.js:out.txt", ["json", "reports/r.json"]]},
  "ci": {"tags": "@ci", "worldParameters": {"env": "ci"}}
}`,
	})
	res := ferridriverWithEnv(t, dir, []string{"FERRIDRIVER_TEST_RETRY=1", "FERRIDRIVER_BROWSER_SLOWMO=5"}, "bdd", "--print-config", "-p", "default", "-p", "ci", "--order", "reverse")
	if res.code != 0 {
		t.Fatalf("exit %d: %s%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{
		`# cucumber-js configuration: config/cucumber.json, profiles "default", "ci"`,
		`steps = ["support/*.js"]  # config/cucumber.json (profiles "default", "ci": require, import)`,
		`parallel = 3  # ferridriver.toml`,
		`retry = 1  # env FERRIDRIVER_TEST_RETRY`,
		`order = "reverse"  # flag --order`,
		`tags = ["@ci"]  # config/cucumber.json`,
		`worldParameters = {"env":"ci"}  # config/cucumber.json`,
		`failFast = false  # default`,
		`format = ["progress","./reporter.js:out.txt","json:reports/r.json"]  # config/cucumber.json`,
		"[browser]  # keys not listed are at their defaults\nheadless = false  # ferridriver.toml\nslowMo = 5  # env FERRIDRIVER_BROWSER_SLOWMO\n",
		`publish is ignored`,
		`requireModule is ignored`,
	} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("--print-config lacks %q:\n%s", want, res.stdout)
		}
	}
	// The run itself: the notes once on stderr, the reports written.
	run := ferridriver(t, dir, "bdd")
	if run.code != 0 {
		t.Fatalf("exit %d: %s%s", run.code, run.stdout, run.stderr)
	}
	if out, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(out) != "finished true" {
		t.Errorf("the custom formatter wrote %q (%v)", out, err)
	}
	for _, note := range []string{"publish is ignored: ferridriver does not publish", "plugin is not supported: cucumber-js's coordinator plugins"} {
		if n := strings.Count(run.stderr, note); n != 1 {
			t.Errorf("%q is said %d times:\n%s", note, n, run.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "reports", "r.json")); err != nil {
		t.Errorf("json report: %v", err)
	}
}
