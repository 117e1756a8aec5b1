package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// The patterns of real public cucumber-js suites (issue 22), each in a
// fixture project written for its test, run under ferridriver and under
// cucumber-js 13 with the same per-scenario results. They need no browser.

// sameAsCucumberJS runs the project in dir under ferridriver (bdd args)
// and cucumber-js (args) with env, and fails t unless both exit alike and
// every scenario has the same step statuses and attachments. It returns
// the two runs.
func sameAsCucumberJS(t *testing.T, dir string, env []string, args ...string) (fd, cj runResult) {
	t.Helper()
	fd = ferridriverWithEnv(t, dir, env, append([]string{"bdd", "--format", "message:ferri.ndjson"}, args...)...)
	cj = cucumberJS(t, dir, env, append([]string{"--format", "message:cucumber.ndjson"}, args...)...)
	compareOutcomes(t, dir, fd, cj)
	return fd, cj
}

// hookArgsSteps describes every hook argument it receives as an
// attachment: its keys in order, the result's shape, the error, and
// willBeRetried; an After hook branches on Status.PASSED, as suites that
// keep a video or screenshot of passed scenarios do.
const hookArgsSteps = `const { Before, After, BeforeStep, AfterStep, Given, Status } = require('@cucumber/cucumber')

function describe(kind, arg) {
  const parts = [kind, Object.keys(arg).join(',')]
  parts.push('doc=' + (arg.gherkinDocument && arg.gherkinDocument.feature.name))
  parts.push('pickle=' + (arg.pickle && arg.pickle.name))
  parts.push('started=' + typeof arg.testCaseStartedId)
  if ('pickleStep' in arg) parts.push('step=' + arg.pickleStep.text, 'stepId=' + typeof arg.testStepId)
  if ('result' in arg) {
    const r = arg.result
    if (r === undefined) parts.push('result=undefined')
    else {
      parts.push('status=' + r.status, 'duration=' + typeof r.duration.seconds + '/' + typeof r.duration.nanos)
      parts.push('message=' + typeof r.message)
      parts.push('exception=' + (r.exception ? r.exception.type + ':' + r.exception.message : 'none'))
    }
  }
  if ('error' in arg) parts.push('error=' + (arg.error instanceof Error ? 'Error:' + arg.error.message : String(arg.error)))
  if ('willBeRetried' in arg) parts.push('willBeRetried=' + arg.willBeRetried)
  return parts.join(' ')
}

Before(function (arg) { this.attach(describe('Before', arg)) })
Before({ tags: '@beforefails' }, function () { throw new Error('Before failed') })
After(function (arg) {
  this.attach(describe('After', arg))
  if (arg.result.status === Status.PASSED) this.attach('the passed branch ran')
  if (arg.result.status === Status.FAILED) this.attach('the failed branch ran')
})
BeforeStep(function (arg) { this.attach(describe('BeforeStep', arg)) })
AfterStep(function (arg) { this.attach(describe('AfterStep', arg)) })

Given('a step that passes', function () {})
Given('a step that fails', function () { throw new Error('it failed') })
Given('a pending step', function () { return 'pending' })
Given('a skipped step', function () { return 'skipped' })
const attempts = {}
Given('a step that fails on the first attempt', function () {
  attempts.n = (attempts.n || 0) + 1
  if (attempts.n === 1) throw new Error('first attempt')
})
`

const hookArgsFeature = `Feature: hook arguments

  Scenario: passes
    Given a step that passes
    And a step that passes

  Scenario: fails in the middle
    Given a step that passes
    And a step that fails
    And a step that passes

  Scenario: fails last
    Given a step that passes
    And a step that fails

  Scenario: pending
    Given a pending step
    And a step that passes

  Scenario: skipped
    Given a skipped step
    And a step that passes

  Scenario: undefined
    Given a step nobody defined

  @flaky
  Scenario: retried
    Given a step that fails on the first attempt

  @beforefails
  Scenario: before hook fails
    Given a step that passes

  @beforefails
  Scenario: no steps and a failing before hook
`

// TestHookArgumentsMatchCucumberJS: Before, After, BeforeStep and AfterStep
// hooks receive the arguments cucumber-js 13 passes (keys, result with its
// Status string, error, willBeRetried) in passing, failing, pending,
// skipped, undefined and retried scenarios, and an After hook's branch on
// Status.PASSED runs for a passed scenario.
func TestHookArgumentsMatchCucumberJS(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/hooks.feature": hookArgsFeature,
		"support/hooks.js":       hookArgsSteps,
		"cucumber.json":          `{"default": {"require": ["support/*.js"], "retry": 1, "retryTagFilter": "@flaky"}}`,
	})
	sameAsCucumberJS(t, dir, nil)
	out, err := os.ReadFile(filepath.Join(dir, "ferri.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	if outcome := scenarioOutcomes(t, out)["passes"]; !strings.Contains(outcome, "the passed branch ran") {
		t.Errorf("the After hook's Status.PASSED branch did not run for a passed scenario: %s", outcome)
	}
	// The project uses no built-in step: none of the library's
	// definitions is in its stream.
	if n := strings.Count(string(out), "ferridriver:steps/"); n != 0 {
		t.Errorf("the stream names the built-in library %d times", n)
	}
}

// cucumberJS11 runs cucumber-js 11 (tools/oracles/cucumber11) in dir,
// whose node_modules is linked to its own so that step files importing
// @cucumber/cucumber find that version.
func cucumberJS11(t *testing.T, dir string, env []string, args ...string) runResult {
	t.Helper()
	nm := oracles.Cucumber11NodeModules(t)
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return cucumberJSFrom(t, filepath.Join(nm, "@cucumber", "cucumber"), dir, env, args...)
}

const flagsFeature = `Feature: profile flags

  Scenario: kept
    Given a step that passes

  @wip
  Scenario: left out by the profile's tags
    Given a step that passes

  Scenario: undefined
    Given a step nobody wrote
`

const flagsSteps = `const { Given } = require('@cucumber/cucumber')
Given('a step that passes', function () {})
`

// TestProfileStringFlagsOfOldCucumberJS: a profile written as a command
// line with flags of cucumber-js 8-11 that later versions dropped
// (--publish-quiet) loads, with one note, and runs as under cucumber-js 11;
// one with flags only cucumber-js 12-13 have runs as under cucumber-js 13.
func TestProfileStringFlagsOfOldCucumberJS(t *testing.T) {
	config := `module.exports = {
  default: '--publish-quiet --require support/*.js --tags "not @wip" --format-options \'{"snippetInterface": "async-await"}\' -b --exit',
  modern: '--require support/*.js --shard 1/2 --backtrace --force-exit --strict',
}
`
	t.Run("cucumber-js 11", func(t *testing.T) {
		dir := t.TempDir()
		testenv.WriteFiles(t, dir, map[string]string{"features/flags.feature": flagsFeature, "support/steps.js": flagsSteps, "cucumber.js": config})
		fd := ferridriver(t, dir, "bdd", "--format", "message:ferri.ndjson")
		cj := cucumberJS11(t, dir, nil, "--format", "message:cucumber.ndjson")
		compareOutcomes(t, dir, fd, cj)
		if strings.Contains(fd.stderr, "unknown option") || fd.code == 2 {
			t.Fatalf("the profile does not load (exit %d):\n%s", fd.code, fd.stderr)
		}
		if n := strings.Count(fd.stderr, "publishQuiet is ignored"); n != 1 {
			t.Errorf("--publish-quiet is noted %d times, want once:\n%s", n, fd.stderr)
		}
	})
	t.Run("cucumber-js 13", func(t *testing.T) {
		dir := t.TempDir()
		testenv.WriteFiles(t, dir, map[string]string{"features/flags.feature": flagsFeature, "support/steps.js": flagsSteps, "cucumber.js": config})
		sameAsCucumberJS(t, dir, nil, "-p", "modern")
	})
	t.Run("command line", func(t *testing.T) {
		// The same flags on ferridriver's command line, as a suite's
		// package.json scripts pass them.
		dir := t.TempDir()
		testenv.WriteFiles(t, dir, map[string]string{"features/flags.feature": flagsFeature, "support/steps.js": flagsSteps})
		res := ferridriver(t, dir, "bdd", "--publish-quiet", "--publish", "-b", "--exit", "--force-exit", "--require-module", "ts-node/register",
			"-l", "ts-node/esm", "--plugin", "./p.js", "--plugin-options", "{}", "--require", "support/*.js", "--tags", "not @wip")
		if res.code != 1 || !strings.Contains(res.stdout, "1 undefined") {
			t.Fatalf("exit %d, want 1 (one undefined scenario):\n%s%s", res.code, res.stdout, res.stderr)
		}
		for _, flag := range []string{"--publish-quiet", "--publish:", "--backtrace", "--exit", "--require-module", "--loader", "--plugin:", "--plugin-options"} {
			if n := strings.Count(res.stderr, "ferridriver: "+flag); n != 1 {
				t.Errorf("%s noted %d times, want once:\n%s", flag, n, res.stderr)
			}
		}
	})
}

// compareOutcomes compares the per-scenario results of the ferri.ndjson
// and cucumber.ndjson streams in dir and the runs' exit codes.
func compareOutcomes(t *testing.T, dir string, fd, cj runResult) {
	t.Helper()
	read := func(n string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatalf("%s: %v\nferridriver: %s%s\ncucumber-js: %s%s", n, err, fd.stdout, fd.stderr, cj.stdout, cj.stderr)
		}
		return b
	}
	got, want := scenarioOutcomes(t, read("ferri.ndjson")), scenarioOutcomes(t, read("cucumber.ndjson"))
	if len(want) == 0 {
		t.Fatalf("cucumber-js ran nothing: %s%s", cj.stdout, cj.stderr)
	}
	if fd.code != cj.code {
		t.Errorf("exit code: ferridriver %d, cucumber-js %d\nferridriver: %s%s\ncucumber-js: %s%s", fd.code, cj.code, fd.stdout, fd.stderr, cj.stdout, cj.stderr)
	}
	for _, k := range sortedOutcomeKeys(want) {
		if got[k] != want[k] {
			t.Errorf("%s:\n  ferridriver %q\n  cucumber-js %q", k, got[k], want[k])
		}
	}
	if g, w := strings.Join(sortedOutcomeKeys(got), ", "), strings.Join(sortedOutcomeKeys(want), ", "); g != w {
		t.Errorf("scenarios: ferridriver %s; cucumber-js %s", g, w)
	}
	// The same definitions: the built-in step library, which these
	// projects do not use, stays out of the stream.
	if g, w := definitionCounts(read("ferri.ndjson")), definitionCounts(read("cucumber.ndjson")); g != w {
		t.Errorf("definitions in the stream: ferridriver %s; cucumber-js %s", g, w)
	}
	if t.Failed() {
		t.Logf("ferridriver stderr:\n%s", fd.stderr)
	}
}

// definitionCounts counts a stream's definition envelopes by kind.
func definitionCounts(ndjson []byte) string {
	counts := map[string]int{}
	for _, line := range strings.Split(string(ndjson), "\n") {
		for _, kind := range []string{"stepDefinition", "hook", "parameterType", "undefinedParameterType"} {
			if strings.HasPrefix(line, `{"`+kind+`":`) {
				counts[kind]++
			}
		}
	}
	return fmt.Sprintf("%d step definitions, %d hooks, %d parameter types, %d undefined parameter types",
		counts["stepDefinition"], counts["hook"], counts["parameterType"], counts["undefinedParameterType"])
}

// sameAsCucumberJSWithPackages is sameAsCucumberJS for a project whose
// node_modules is the npm packages test project's (dotenv, jsonpath...,
// and cucumber-js 13 itself).
func sameAsCucumberJSWithPackages(t *testing.T, dir string, env []string, args ...string) (fd, cj runResult) {
	t.Helper()
	nm := filepath.Join(npmPackagesDir(t), "node_modules")
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	fd = ferridriverWithEnv(t, dir, env, append([]string{"bdd", "--format", "message:ferri.ndjson"}, args...)...)
	cj = cucumberJSFrom(t, filepath.Join(nm, "@cucumber", "cucumber"), dir, env, append([]string{"--format", "message:cucumber.ndjson"}, args...)...)
	compareOutcomes(t, dir, fd, cj)
	return fd, cj
}

// envFeature's steps show what they read from process.env.
const envFeature = `Feature: environment

  Scenario: the site and the settings
    Given the environment is shown

  Scenario: the default timeout comes from the environment
    Given a step that takes 300 ms
`

// envSteps: a support file loads the dotenv file ENV selects, another sets
// the default timeout from TEST_TIMEOUT, as real suites do.
var envSteps = map[string]string{
	"support/env.js": `const dotenv = require('dotenv')
dotenv.config({ path: '.env.' + (process.env.ENV || 'dev'), quiet: true })
`,
	"support/steps.js": `const { Given, setDefaultTimeout } = require('@cucumber/cucumber')
setDefaultTimeout(Number(process.env.TEST_TIMEOUT))
Given('the environment is shown', function () {
  for (const k of ['ENV', 'BASE_URL', 'TEST_ENV', 'FROM_CONFIG', 'REAL_ONLY']) this.attach(k + '=' + process.env[k])
  this.attach('parameter=' + this.parameters.apiUrl)
})
Given('a step that takes 300 ms', function () { return new Promise((r) => setTimeout(r, 300)) })
`,
	".env.local": "BASE_URL=http://local.test:8080\nTEST_ENV=local\nTEST_TIMEOUT=100\n",
	".env.dev":   "BASE_URL=http://dev.test\nTEST_ENV=dev\nTEST_TIMEOUT=2000\n",
	// dotenv called inside the configuration file itself.
	".env.config": "FROM_CONFIG=set by cucumber.js\nAPI_URL=http://api.test\n",
	"cucumber.js": `require('dotenv').config({ path: '.env.config', quiet: true })
module.exports = { default: { require: ['support/*.js'], worldParameters: { apiUrl: process.env.API_URL } } }
`,
	"features/env.feature": envFeature,
}

// TestEnvironmentLikeNode: a suite configured by cucumber-js (no
// ferridriver.toml) sees the real environment, the dotenv file ENV
// selects, what cucumber.js set in process.env, and a default timeout
// read from it, as under cucumber-js 13; --print-config says why.
func TestEnvironmentLikeNode(t *testing.T) {
	for _, envName := range []string{"local", "dev"} {
		t.Run("ENV="+envName, func(t *testing.T) {
			dir := t.TempDir()
			testenv.WriteFiles(t, dir, envSteps)
			env := []string{"ENV=" + envName, "REAL_ONLY=from the shell"}
			fd, _ := sameAsCucumberJSWithPackages(t, dir, env)
			out, err := os.ReadFile(filepath.Join(dir, "ferri.ndjson"))
			if err != nil {
				t.Fatal(err)
			}
			shown := scenarioOutcomes(t, out)["the site and the settings"]
			for _, want := range []string{"ENV=" + envName, "TEST_ENV=" + envName, "FROM_CONFIG=set by cucumber.js", "REAL_ONLY=from the shell", "parameter=http://api.test"} {
				if !strings.Contains(shown, want) {
					t.Errorf("step code does not see %s: %s\n%s", want, shown, fd.stderr)
				}
			}
			if strings.Contains(fd.stderr, "warning") {
				t.Errorf("a warning in Node mode:\n%s", fd.stderr)
			}
		})
	}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, envSteps)
	if err := os.Symlink(filepath.Join(npmPackagesDir(t), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	res := ferridriver(t, dir, "bdd", "--print-config")
	if want := "# environment mode: node (configured by cucumber.js, no ferridriver.toml"; !strings.Contains(res.stdout, want) {
		t.Errorf("--print-config lacks %q:\n%s%s", want, res.stdout, res.stderr)
	}
}

// TestEnvironmentAllowListWithFerridriverToml: a project whose
// ferridriver.toml has a [scripting] table keeps default-deny allowEnv;
// reading a variable that is set but not allowed warns once, naming it and
// the setting; FERRIDRIVER_SCRIPTING_ALLOWENV allows it; scripts (`run`)
// never see more than allowEnv, even in a suite configured by cucumber-js.
func TestEnvironmentAllowListWithFerridriverToml(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"ferridriver.toml": "[scripting]\nallowEnv = [\"ENV\", \"BASE_URL\", \"TEST_TIMEOUT\"]\n"}
	for k, v := range envSteps {
		files[k] = v
	}
	files["support/steps.js"] = strings.Replace(envSteps["support/steps.js"], "setDefaultTimeout(Number(process.env.TEST_TIMEOUT))",
		"setDefaultTimeout(Number(process.env.TEST_TIMEOUT))\nGiven('the secret is read twice', function () { this.attach(String(process.env.REAL_ONLY) + String(process.env.REAL_ONLY)) })", 1)
	files["features/secret.feature"] = "Feature: secret\n  Scenario: secret\n    Given the secret is read twice\n  Scenario: again\n    Given the secret is read twice\n"
	testenv.WriteFiles(t, dir, files)
	link := filepath.Join(dir, "node_modules")
	if err := os.Symlink(filepath.Join(npmPackagesDir(t), "node_modules"), link); err != nil {
		t.Fatal(err)
	}
	env := []string{"ENV=local", "REAL_ONLY=from the shell", "NOT_READ=x"}
	res := ferridriverWithEnv(t, dir, env, "bdd", "--format", "message:out.ndjson")
	out, err := os.ReadFile(filepath.Join(dir, "out.ndjson"))
	if err != nil {
		t.Fatalf("exit %d: %v\n%s", res.code, err, res.stderr)
	}
	got := scenarioOutcomes(t, out)
	if s := got["secret"]; !strings.Contains(s, "undefinedundefined") {
		t.Errorf("a variable not in allowEnv is visible: %s", s)
	}
	// The dotenv file ENV selects is read: its allowed BASE_URL is seen.
	if s := got["the site and the settings"]; !strings.Contains(s, "BASE_URL=http://local.test:8080") || !strings.Contains(s, "FROM_CONFIG=undefined") {
		t.Errorf("allowEnv: %s", s)
	}
	warning := `process.env.REAL_ONLY is set but not visible to step code (default-deny): add "REAL_ONLY" to [scripting] allowEnv in ferridriver.toml`
	if n := strings.Count(res.stderr, warning); n != 1 {
		t.Errorf("the warning about REAL_ONLY appears %d times, want once:\n%s", n, res.stderr)
	}
	for _, quiet := range []string{"NOT_READ", "process.env.ENV "} {
		if strings.Contains(res.stderr, quiet) {
			t.Errorf("a warning about %s:\n%s", quiet, res.stderr)
		}
	}
	pc := ferridriverWithEnv(t, dir, env, "bdd", "--print-config")
	if want := "# environment mode: allowEnv (ferridriver.toml has a [scripting] table"; !strings.Contains(pc.stdout, want) {
		t.Errorf("--print-config lacks %q:\n%s", want, pc.stdout)
	}

	// The environment override of allowEnv.
	res = ferridriverWithEnv(t, dir, append(env, `FERRIDRIVER_SCRIPTING_ALLOWENV=["REAL_ONLY"]`), "bdd", "--format", "message:out.ndjson")
	out, err = os.ReadFile(filepath.Join(dir, "out.ndjson"))
	if err != nil {
		t.Fatalf("exit %d: %v\n%s", res.code, err, res.stderr)
	}
	if s := scenarioOutcomes(t, out)["secret"]; !strings.Contains(s, "from the shellfrom the shell") {
		t.Errorf("FERRIDRIVER_SCRIPTING_ALLOWENV='[\"REAL_ONLY\"]' does not show REAL_ONLY: %s\n%s", s, res.stderr)
	}

	// A script of a suite configured by cucumber-js alone: allowEnv.
	scriptDir := t.TempDir()
	testenv.WriteFiles(t, scriptDir, map[string]string{
		"cucumber.js": "module.exports = { default: {} }\n",
		"show.js":     "console.log('env=' + JSON.stringify(process.env))\n",
	})
	run := ferridriverWithEnv(t, scriptDir, env, "run", "show.js")
	if !strings.Contains(run.stdout, "env={}") {
		t.Errorf("a script sees more than allowEnv (exit %d):\n%s%s", run.code, run.stdout, run.stderr)
	}
}

// requireFixture is a project whose packages (in support/node_modules,
// written for the test) find and load their dependencies at run time as
// CommonJS packages do: require.resolve, require.cache, module.paths,
// require of a computed name, Module.createRequire, and
// new Module()._compile of a source read and patched (jsonpath's
// aesprim.js pattern).
var requireFixture = map[string]string{
	"cucumber.js": "module.exports = { default: { require: ['support/*.js'] } }\n",
	"features/require.feature": `Feature: packages that probe for their dependencies

  Scenario: require.resolve finds a dependency's file
    Then the probe resolves its dependency

  Scenario: a patched source compiled with Module._compile
    Then the patched parser accepts "@"

  Scenario: a module loaded by a computed name
    Then the plugin named by a variable loads

  Scenario: require.cache and module.paths
    Then the module cache and paths are Node's
`,
	"support/steps.js": `const { Then } = require('@cucumber/cucumber')
const path = require('path')
const probe = require('probe')
const rel = (p) => path.relative(process.cwd(), p)
Then('the probe resolves its dependency', function () {
  this.attach(rel(probe.resolved) + ' ' + rel(probe.resolvedJSON) + ' ' + probe.parserName)
})
Then('the patched parser accepts {string}', function (ch) {
  this.attach(String(probe.parser.isIdentifierStart(ch.charCodeAt(0))) + ' ' + probe.parser.version)
})
Then('the plugin named by a variable loads', function () {
  this.attach(probe.loadPlugin('upper')('plugin') + ' ' + probe.loadPlugin('./local-plugin')('x'))
})
Then('the module cache and paths are Node\'s', function () {
  this.attach(probe.paths.map(rel).slice(0, 2).join(',') + ' ' + probe.cacheIsObject + ' ' + rel(probe.filename))
})
`,
	"support/node_modules/probe/package.json": `{"name": "probe", "version": "1.0.0", "main": "lib/index.js"}`,
	"support/node_modules/probe/lib/index.js": `var fs = require('fs')
var Module = require('module')
var file = require.resolve('tiny-parser')
var source = fs.readFileSync(file, 'utf-8')
// Accept '@' in identifiers, as jsonpath patches esprima.
source = source.replace(/return \(ch >= 97/, 'return ch === 64 || (ch >= 97')
var m = new Module('patched')
m._compile(source, __filename)
exports.parser = m.exports
exports.resolved = file
exports.resolvedJSON = require.resolve('tiny-parser/package.json')
exports.parserName = require(require.resolve('tiny-parser/package.json')).name
exports.loadPlugin = function (name) {
  var spec = name.charAt(0) === '.' ? name : 'probe-plugin-' + name
  return require(spec)
}
exports.paths = module.paths
exports.filename = module.filename
exports.cacheIsObject = typeof require.cache === 'object' && require.cache !== null
`,
	"support/node_modules/probe/lib/local-plugin.js": "module.exports = function (s) { return 'local:' + s }\n",
	"support/node_modules/tiny-parser/package.json":  `{"name": "tiny-parser", "version": "2.0.0", "exports": {".": {"import": "./esm.mjs", "require": "./parser.js"}, "./package.json": "./package.json"}}`,
	"support/node_modules/tiny-parser/esm.mjs":       "export default 'the ESM build must not be picked by require'\n",
	"support/node_modules/tiny-parser/parser.js": `(function (root, factory) {
  if (typeof exports !== 'undefined') factory(exports)
  else factory(root.tinyParser = {})
}(this, function (exports) {
  function isIdentifierStart(ch) {
    return (ch >= 97 && ch <= 122)
  }
  exports.isIdentifierStart = isIdentifierStart
  exports.version = '2.0.0'
}))
`,
	"support/node_modules/probe-plugin-upper/index.js": "module.exports = function (s) { return s.toUpperCase() }\n",
}

// TestPackagesThatProbeForDependencies: the require patterns of CommonJS
// packages give what they give under cucumber-js 13 (Node).
func TestPackagesThatProbeForDependencies(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, requireFixture)
	sameAsCucumberJS(t, dir, nil)
	out, err := os.ReadFile(filepath.Join(dir, "ferri.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	got := scenarioOutcomes(t, out)
	for name, want := range map[string]string{
		"require.resolve finds a dependency's file":      "support/node_modules/tiny-parser/parser.js support/node_modules/tiny-parser/package.json tiny-parser",
		"a patched source compiled with Module._compile": "true 2.0.0",
		"a module loaded by a computed name":             "PLUGIN local:x",
		"require.cache and module.paths":                 "support/node_modules/probe/lib/node_modules,support/node_modules/probe/node_modules true support/node_modules/probe/lib/index.js",
	} {
		if !strings.Contains(got[name], want) {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
}

// TestLoadErrorNamesThePackageFile: an exception thrown while a package
// loads names the package's file and line, and the suite's import.
func TestLoadErrorNamesThePackageFile(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/a.feature":                           "Feature: a\n  Scenario: s\n    Given a step\n",
		"steps/steps.js":                               "const { Given } = require('@cucumber/cucumber')\nconst broken = require('broken')\nGiven('a step', function () {})\n",
		"node_modules/broken/package.json":             `{"name": "broken", "main": "index.js"}`,
		"node_modules/broken/index.js":                 "var ok = 1\nvar dep = require.resolve('a-missing-dependency')\nmodule.exports = dep\n",
		"node_modules/@cucumber/cucumber/index.js":     "module.exports = {}\n",
		"node_modules/@cucumber/cucumber/package.json": `{"name": "@cucumber/cucumber", "main": "index.js"}`,
	})
	res := ferridriver(t, dir, "bdd")
	if res.code != 2 {
		t.Fatalf("exit %d, want 2:\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{"node_modules/broken/index.js:2", "Cannot find module 'a-missing-dependency'", "steps/steps.js:2"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("the load error lacks %q:\n%s", want, res.stderr)
		}
	}
}
