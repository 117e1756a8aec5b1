package runner

import (
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/messages"
)

const statusSteps = `
import { Given, Before, After } from '@cucumber/cucumber'
Given('pass', () => {})
Given('fail', () => { throw new Error('boom') })
Given('pending', () => 'pending')
Given('skip', () => 'skipped')
Given(/^amb(.*)$/, () => {})
Given(/^(.*)iguous$/, () => {})
Before({ tags: '@before-fails' }, () => { throw new Error('before') })
After({ tags: '@after-fails' }, () => { throw new Error('after') })
`

func TestStatusRules(t *testing.T) {
	for _, tc := range []struct {
		name, steps, tags string
		want              string
		success           bool
	}{
		{"all pass", "pass\npass", "", "PASSED PASSED", true},
		{"failure skips the rest", "fail\npass\npending", "", "FAILED SKIPPED SKIPPED", false},
		{"undefined and ambiguous still reported after a failure", "fail\nnope\nambiguous\npass", "", "FAILED UNDEFINED AMBIGUOUS SKIPPED", false},
		{"pending skips the rest", "pending\npass", "", "PENDING SKIPPED", false},
		{"a skip skips everything after, even undefined", "skip\nnope\nfail", "", "SKIPPED SKIPPED SKIPPED", true},
		{"failing Before skips the steps", "pass", "@before-fails", "FAILED SKIPPED", false},
		{"failing After after a passing step", "pass", "@after-fails", "PASSED FAILED", false},
		{"After runs after a failure", "fail", "@after-fails", "FAILED FAILED", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("Feature: f\n")
			if tc.tags != "" {
				b.WriteString("  " + tc.tags + "\n")
			}
			b.WriteString("  Scenario: s\n")
			for _, st := range strings.Split(tc.steps, "\n") {
				b.WriteString("    Given " + st + "\n")
			}
			s := newSuite(t, map[string]string{"features/f.feature": b.String(), "steps/s.ts": statusSteps})
			s.run(Options{Strict: true})
			if got := s.statuses(); len(got) != 1 || got[0] != tc.want {
				t.Fatalf("statuses %v, want [%s]", got, tc.want)
			}
			if s.res.Success != tc.success {
				t.Fatalf("success = %v", s.res.Success)
			}
		})
	}
}

func TestStrictAffectsOnlyPending(t *testing.T) {
	for _, tc := range []struct {
		step    string
		strict  bool
		success bool
	}{
		{"pending", true, false},
		{"pending", false, true},
		{"nope", false, false}, // undefined always fails, as in cucumber-js
		{"ambiguous", false, false},
	} {
		s := newSuite(t, map[string]string{"features/f.feature": "Feature: f\n  Scenario: s\n    Given " + tc.step + "\n", "steps/s.ts": statusSteps})
		s.run(Options{Strict: tc.strict})
		if s.res.Success != tc.success {
			t.Errorf("%s strict=%v: success %v, want %v", tc.step, tc.strict, s.res.Success, tc.success)
		}
	}
}

func TestRetriesEmitEveryAttempt(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/f.feature": "Feature: f\n  Scenario: flaky\n    Given flaky\n  @noretry\n  Scenario: broken\n    Given broken\n",
		"steps/s.js": `const { Given } = require('@cucumber/cucumber')
let n = 0
Given('flaky', () => { if (++n < 3) throw new Error('try ' + n) })
Given('broken', () => { throw new Error('always') })`,
	})
	s.run(Options{Strict: true, Retry: 2, RetryTagFilter: "not @noretry"})
	if got, want := s.statuses(), []string{"FAILED", "FAILED", "PASSED", "FAILED"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("attempts %v, want %v", got, want)
	}
	var attempts []int64
	var retried []bool
	for _, e := range s.envs {
		if e.TestCaseStarted != nil {
			attempts = append(attempts, e.TestCaseStarted.Attempt)
		}
		if e.TestCaseFinished != nil {
			retried = append(retried, e.TestCaseFinished.WillBeRetried)
		}
	}
	if !reflect.DeepEqual(attempts, []int64{0, 1, 2, 0}) || !reflect.DeepEqual(retried, []bool{true, true, false, false}) {
		t.Fatalf("attempts %v willBeRetried %v", attempts, retried)
	}
	if s.res.Success {
		t.Fatal("the broken scenario must fail the run")
	}
}

func TestFailFastStopsStartingTestCases(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/f.feature": "Feature: f\n  Scenario: a\n    Given fail\n  Scenario: b\n    Given pass\n  Scenario: c\n    Given pass\n",
		"steps/s.ts":         statusSteps,
	})
	s.run(Options{Strict: true, FailFast: true})
	if got := s.statuses(); len(got) != 1 || s.res.NotRun != 2 || s.res.Success {
		t.Fatalf("statuses %v, notRun %d, success %v", got, s.res.NotRun, s.res.Success)
	}
	if n := len(s.of("testCase")); n != 3 {
		t.Fatalf("%d testCase messages, want all 3 planned", n)
	}
}

func TestDryRunRunsNothing(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/f.feature": "Feature: f\n  Scenario: a\n    Given fail\n    Given nope\n    Given ambiguous\n",
		"steps/s.ts":         statusSteps + "\nimport { BeforeAll } from '@cucumber/cucumber'\nBeforeAll(() => { throw new Error('ran') })\nBefore(() => { throw new Error('ran') })\n",
	})
	s.run(Options{Strict: true, DryRun: true})
	if got := s.statuses(); len(got) != 1 || got[0] != "SKIPPED SKIPPED UNDEFINED AMBIGUOUS" {
		t.Fatalf("statuses %v", got)
	}
}

func TestTimeoutInterruptsInfiniteLoopAndRunGoesOn(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/f.feature": "Feature: f\n  Scenario: stuck\n    Given a busy loop\n  Scenario: never settles\n    Given a promise\n  Scenario: next\n    Given pass\n",
		"steps/s.ts": statusSteps + `
import { setDefaultTimeout } from '@cucumber/cucumber'
setDefaultTimeout(300)
Given('a busy loop', () => { for (;;) {} })
Given('a promise', { timeout: 150 }, () => new Promise(() => {}))
`,
	})
	start := time.Now()
	s.run(Options{Strict: true})
	if got := s.statuses(); !reflect.DeepEqual(got, []string{"FAILED", "FAILED", "PASSED"}) {
		t.Fatalf("statuses %v", got)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	res := s.results()
	if msg := res[0].Exception.GetMessage(); !strings.Contains(msg, "300 milliseconds") {
		t.Errorf("busy loop: %q", msg)
	}
	if msg := res[1].Exception.GetMessage(); !strings.Contains(msg, "150 milliseconds") {
		t.Errorf("promise: %q", msg)
	}
}

func TestCallingConventionAndSupportAPI(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/f.feature": `Feature: f
  Scenario: s
    Given a table:
      | name | age |
      | ann  | 3   |
    And a doc string:
      """json
      {"x": 1}
      """
    And 2 apples and "red" and a LHR-CDG flight
    And a callback step with 5
    And the world knows it
`,
		"steps/world.ts": `
import { setWorldConstructor, World, defineParameterType, setDefinitionFunctionWrapper, BeforeStep, AfterStep } from '@cucumber/cucumber'
class Custom extends World {
  seen: string[] = []
  constructor(opts: any) { super(opts) }
}
setWorldConstructor(Custom)
defineParameterType({
  name: 'flight',
  regexp: /([A-Z]{3})-([A-Z]{3})/,
  async transformer(this: any, from: string, to: string) { this.seen.push('transformer'); return { from, to } },
})
setDefinitionFunctionWrapper((fn: Function) => function (this: any, ...args: any[]) { this.wrapped = (this.wrapped || 0) + 1; return fn.apply(this, args) })
BeforeStep(function (this: any) { this.seen.push('beforeStep') })
AfterStep(function (this: any, { result }: any) { this.seen.push('afterStep:' + result.status) })
`,
		"steps/steps.ts": `
import assert from 'node:assert'
import { Given, DataTable } from '@cucumber/cucumber'
Given('a table:', function (this: any, t: DataTable) {
  assert.deepStrictEqual(t.raw(), [['name', 'age'], ['ann', '3']])
  assert.deepStrictEqual(t.rows(), [['ann', '3']])
  assert.deepStrictEqual(t.hashes(), [{ name: 'ann', age: '3' }])
  assert.deepStrictEqual(t.transpose().raw(), [['name', 'ann'], ['age', '3']])
  assert.throws(() => new DataTable([['a', 'b', 'c']]).rowsHash(), /exactly two columns/)
  assert.deepStrictEqual(new DataTable([['a', '1'], ['b', '2']]).rowsHash(), { a: '1', b: '2' })
})
Given('a doc string:', function (s: string) { assert.strictEqual(JSON.parse(s).x, 1) })
Given('{int} apples and {string} and a {flight} flight', function (this: any, n: number, c: string, f: any) {
  assert.strictEqual(n, 2); assert.strictEqual(c, 'red'); assert.deepStrictEqual(f, { from: 'LHR', to: 'CDG' })
  assert.ok(this.seen.includes('transformer'))
})
Given('a callback step with {int}', function (n: number, done: (e?: any) => void) { setTimeout(() => done(n === 5 ? null : new Error('bad')), 5) })
Given('the world knows it', function (this: any) {
  assert.ok(this.constructor.name === 'Custom')
  assert.strictEqual(this.parameters.team, 'qa')
  // The wrapper wraps steps and step hooks (not BeforeAll/AfterAll): 5
  // steps, 5 BeforeStep and 4 AfterStep calls so far.
  assert.strictEqual(this.wrapped, 14)
  assert.deepStrictEqual(this.seen.filter((x: string) => x.startsWith('afterStep')).length, 4)
})
`,
	})
	s.run(Options{Strict: true, WorldParameters: map[string]any{"team": "qa"}})
	if got := s.statuses(); len(got) != 1 || got[0] != "PASSED PASSED PASSED PASSED PASSED" {
		t.Fatalf("statuses %v\n%v", got, s.messagesOfFailures())
	}
}

func (s *suite) messagesOfFailures() []string {
	var out []string
	for _, r := range s.results() {
		if r.Message != nil {
			out = append(out, *r.Message)
		}
	}
	return out
}

func TestAttachments(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/f.feature": "Feature: f\n  Scenario: s\n    Given attachments\n",
		"features/data.bin":  "\x00\x01\x02",
		"steps/s.ts": `
import fs from 'node:fs'
import path from 'node:path'
import { Given } from '@cucumber/cucumber'
Given('attachments', async function (this: any) {
  this.attach('plain')
  this.attach('{"a":1}', 'application/json')
  this.attach(Buffer.from([1, 2, 3]), 'image/png')
  this.attach('AQID', 'base64:image/png')
  this.attach('x', { mediaType: 'text/plain', fileName: 'x.txt' })
  await this.attach(fs.createReadStream(path.join(import.meta.dirname, '../features/data.bin')), { mediaType: 'application/octet-stream', fileName: 'data.bin' })
  this.log('hello', 42)
  this.link('https://a.example', 'https://b.example')
  fs.readFileSync(path.join(import.meta.dirname, '../features/f.feature'), 'utf8')
})
`,
	})
	s.run(Options{Strict: true})
	type att struct{ body, enc, mt, name string }
	var got []att
	for _, e := range s.of("attachment") {
		a := e.Attachment
		if a.TestStepID == nil || a.TestCaseStartedID == nil || a.Timestamp == nil {
			t.Fatalf("attachment without step, test case or timestamp: %+v", a)
		}
		got = append(got, att{a.Body, string(a.ContentEncoding), a.MediaType, a.GetFileName()})
	}
	want := []att{
		{"plain", "IDENTITY", "text/plain", ""},
		{`{"a":1}`, "IDENTITY", "application/json", ""},
		{base64.StdEncoding.EncodeToString([]byte{1, 2, 3}), "BASE64", "image/png", ""},
		{"AQID", "BASE64", "image/png", ""},
		{"x", "IDENTITY", "text/plain", "x.txt"},
		{base64.StdEncoding.EncodeToString([]byte{0, 1, 2}), "BASE64", "application/octet-stream", "data.bin"},
		{"hello 42", "IDENTITY", "text/x.cucumber.log+plain", ""},
		{"https://a.example\nhttps://b.example", "IDENTITY", "text/uri-list", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("attachments:\n got %+v\nwant %+v\n%v", got, want, s.messagesOfFailures())
	}
}

func TestErrorsPointAtTheTypeScriptSource(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/f.feature": "Feature: f\n  Scenario: s\n    Given it throws\n",
		"steps/deep/s.ts": `import { Given } from '@cucumber/cucumber'
interface Shape { n: number }
function check(s: Shape): void {
  if (s.n > 0) {
    throw new TypeError('bad shape ' + s.n)
  }
}
Given('it throws', () => check({ n: 1 }))
`,
	})
	s.run(Options{Strict: true})
	ex := s.results()[0].Exception
	if ex == nil || ex.Type != "TypeError" || ex.GetMessage() != "bad shape 1" {
		t.Fatalf("exception %+v", ex)
	}
	if st := ex.GetStackTrace(); !strings.Contains(st, "steps/deep/s.ts:5:") || !strings.Contains(st, "steps/deep/s.ts:8:") {
		t.Fatalf("stack does not point into the .ts source:\n%s", st)
	}
	defs := s.of("stepDefinition")
	if ref := defs[0].StepDefinition.SourceReference; ref.GetURI() != "steps/deep/s.ts" || ref.Location.Line != 8 {
		t.Fatalf("source reference %s:%d", ref.GetURI(), ref.Location.Line)
	}
}

func TestTestRunHooks(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/f.feature": "Feature: f\n  Scenario: s\n    Given state\n",
		"steps/s.ts": `import assert from 'node:assert'
import { BeforeAll, AfterAll, Given } from '@cucumber/cucumber'
let state = ''
BeforeAll(function () { state += 'a' })
BeforeAll(async function () { await new Promise((r) => setTimeout(r, 5)); state += 'b' })
AfterAll(function () { assert.strictEqual(state, 'abs1') })
AfterAll(function () { state += '1' })
Given('state', () => { assert.strictEqual(state, 'ab'); state += 's' })
`,
	})
	s.run(Options{Strict: true})
	if !s.res.Success {
		t.Fatalf("run failed: %v", s.messagesOfFailures())
	}
	var statuses []string
	for _, e := range s.of("testRunHookFinished") {
		statuses = append(statuses, string(e.TestRunHookFinished.Result.Status))
	}
	if !reflect.DeepEqual(statuses, []string{"PASSED", "PASSED", "PASSED", "PASSED"}) {
		t.Fatalf("run hooks %v", statuses)
	}
}

func TestSelection(t *testing.T) {
	files := map[string]string{
		"features/a.feature": `Feature: a
  @smoke
  Scenario: a1
    Given pass
  Scenario: a2
    Given pass
  Scenario Outline: a3 <n>
    Given pass
    @slow
    Examples:
      | n |
      | 1 |
      | 2 |
`,
		"features/sub/b.feature": "Feature: b\n  @smoke @wip\n  Scenario: b1\n    Given pass\n",
		"rerun.txt":              "features/a.feature:5\nfeatures/sub/b.feature:3\n",
		"steps/s.ts":             statusSteps,
	}
	for _, tc := range []struct {
		name string
		opts Options
		want []string
	}{
		{"all", Options{}, []string{"a1", "a2", "a3 1", "a3 2", "b1"}},
		{"tag expression", Options{Tags: []string{"@smoke and not @wip"}}, []string{"a1"}},
		{"repeated tags are ANDed", Options{Tags: []string{"@smoke", "@wip"}}, []string{"b1"}},
		{"examples tags", Options{Tags: []string{"@slow"}}, []string{"a3 1", "a3 2"}},
		{"names are ORed regexps", Options{Names: []string{"^a2$", "b"}}, []string{"a2", "b1"}},
		{"file:line of a scenario", Options{Paths: []string{"features/a.feature:3"}}, []string{"a1"}},
		{"file:line of an example row", Options{Paths: []string{"features/a.feature:13:5"}}, []string{"a2", "a3 2"}},
		{"directory", Options{Paths: []string{"features/sub"}}, []string{"b1"}},
		{"glob", Options{Paths: []string{"features/**/b.feature"}}, []string{"b1"}},
		{"rerun file", Options{Paths: []string{"@rerun.txt"}}, []string{"a2", "b1"}},
		{"reverse", Options{Order: "reverse"}, []string{"b1", "a3 2", "a3 1", "a2", "a1"}},
		{"shard 1/2", Options{Shard: "1/2"}, []string{"a1", "a3 1", "b1"}},
		{"shard 2/2", Options{Shard: "2/2"}, []string{"a2", "a3 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSuite(t, files)
			s.run(tc.opts)
			if got := s.pickleNames(); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("ran %v, want %v", got, tc.want)
			}
			if n := len(s.of("pickle")); n != len(tc.want) {
				t.Fatalf("%d pickle messages, want only the %d selected", n, len(tc.want))
			}
		})
	}
	// Every shard's stream has the sources of every file the whole run has
	// test cases in, and no others: shards of one run have the same files,
	// an empty shard too.
	for _, tc := range []struct {
		opts    Options
		sources []string
	}{
		{Options{Shard: "2/2"}, []string{"features/a.feature", "features/sub/b.feature"}},
		{Options{Shard: "2/2", Tags: []string{"not @wip"}}, []string{"features/a.feature"}},
		{Options{Shard: "7/7"}, []string{"features/a.feature", "features/sub/b.feature"}},
	} {
		s := newSuite(t, files)
		s.run(tc.opts)
		var got []string
		for _, e := range s.of("source") {
			got = append(got, e.Source.URI)
		}
		if !reflect.DeepEqual(got, tc.sources) || len(s.of("gherkinDocument")) != len(tc.sources) {
			t.Errorf("%+v: sources %v, want %v", tc.opts, got, tc.sources)
		}
	}
	// Random order is reproducible from its seed and independent of workers.
	var orders [][]string
	for _, parallel := range []int{1, 3} {
		s := newSuite(t, files)
		r, err := s.prepare(Options{Order: "random:42", Parallel: parallel})
		if err != nil || r.Seed() != "42" {
			t.Fatalf("seed %q, %v", r.Seed(), err)
		}
		s.run(Options{Order: "random:42", Parallel: parallel})
		orders = append(orders, s.pickleNames())
	}
	if !reflect.DeepEqual(orders[0], orders[1]) || reflect.DeepEqual(orders[0], []string{"a1", "a2", "a3 1", "a3 2", "b1"}) {
		t.Fatalf("random orders %v", orders)
	}
}

func TestPrepareErrorsNameTheirSource(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		opts  Options
		want  string
	}{
		{"invalid tag expression", nil, Options{Tags: []string{"@a and"}}, `invalid tag expression "@a and"`},
		{"bad shard", nil, Options{Shard: "3/2"}, "--shard"},
		{"bad order", nil, Options{Order: "sideways"}, "--order"},
		{"bad name regexp", nil, Options{Names: []string{"("}}, "--name"},
		{"missing path", nil, Options{Paths: []string{"nope.feature"}}, `"nope.feature" does not exist`},
		{"unparsable feature", map[string]string{"features/bad.feature": "Feature: x\n  Scenario: y\n    Given z\n   oops\n"}, Options{}, "features/bad.feature:4:"},
		{"bundle error", map[string]string{"steps/bad.ts": "import { Given } from '@cucumber/cucumber'\nGiven('x', () => {\n"}, Options{}, "steps/bad.ts:3:"},
		{"unresolvable import", map[string]string{"steps/bad.ts": "import x from './nowhere'\nconsole.log(x)\n"}, Options{}, `steps/bad.ts:1:15: Could not resolve "./nowhere"`},
		{"throw at load", map[string]string{"steps/bad.ts": "\n\nthrow new Error('nope')\n"}, Options{}, "steps/bad.ts:3:"},
		{"bad expression", map[string]string{"steps/bad.ts": "import { Given } from '@cucumber/cucumber'\nGiven('a (b', () => {})\n"}, Options{}, "steps/bad.ts:2: step \"a (b\""},
		{"regexp property the engine lacks", map[string]string{"steps/bad.ts": "import { Given } from '@cucumber/cucumber'\n\nGiven(/\\p{Alphabetic}/u, () => {})\n"}, Options{}, "steps/bad.ts:3:"},
		{"bad hook tags", map[string]string{"steps/bad.ts": "import { Before } from '@cucumber/cucumber'\nBefore('@a or', () => {})\n"}, Options{}, "steps/bad.ts:2: Before hook"},
		{"unknown language", nil, Options{Language: "klingon"}, `unknown Gherkin language "klingon"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"features/f.feature": "Feature: f\n  Scenario: s\n    Given pass\n", "steps/s.ts": statusSteps}
			for k, v := range tc.files {
				files[k] = v
			}
			s := newSuite(t, files)
			_, err := s.prepare(tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParallelStreamMatchesSerial(t *testing.T) {
	var b strings.Builder
	b.WriteString("Feature: many\n")
	for i := range 20 {
		b.WriteString("  Scenario: s" + string(rune('a'+i)) + "\n    Given pass\n    Given slow\n")
	}
	files := map[string]string{"features/f.feature": b.String(), "steps/s.ts": statusSteps + "\nGiven('slow', () => new Promise((r) => setTimeout(r, Math.random() * 10)))\n"}
	var kindsByN [][]string
	for _, n := range []int{1, 4} {
		s := newSuite(t, files)
		s.run(Options{Parallel: n})
		var ks []string
		for _, e := range s.envs {
			ks = append(ks, e.Kind())
		}
		kindsByN = append(kindsByN, append(ks, s.pickleNames()...))
	}
	if !reflect.DeepEqual(kindsByN[0], kindsByN[1]) {
		t.Fatal("the stream differs between 1 and 4 workers")
	}
}

func TestExceptionOfTimeout(t *testing.T) {
	e := exceptionOf(errors.New("x"))
	if e.Type != "Error" || e.GetMessage() != "x" {
		t.Fatalf("%+v", e)
	}
	var _ messages.Exception = *e
}

func TestWorldConstructorFailure(t *testing.T) {
	s := newSuite(t, map[string]string{
		"features/f.feature": "Feature: f\n  Scenario: s\n    Given pass\n    Given pass\n",
		"steps/s.ts": statusSteps + `
import { setWorldConstructor } from '@cucumber/cucumber'
setWorldConstructor(class { constructor() { throw new Error('no world today') } })
After(() => { throw new Error('must not run') })
`,
	})
	s.run(Options{Strict: true})
	if got := s.statuses(); len(got) != 1 || got[0] != "FAILED SKIPPED SKIPPED" {
		t.Fatalf("statuses %v", got)
	}
	if msg := s.results()[0].Exception.GetMessage(); !strings.Contains(msg, "no world today") {
		t.Fatalf("message %q", msg)
	}
}

// A promise rejected with no handler inside step code fails the step or
// hook still running when it is found (once the microtasks of a macrotask
// have run, where Node finds it and cucumber-js fails the running step with
// it); one found while no step runs is lost, as in cucumber-js; one handled
// in time, or awaited by the step, is not unhandled.
func TestUnhandledRejectionFailsTheRunningStep(t *testing.T) {
	steps := `const { Given, After } = require('@cucumber/cucumber')
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
Given('a lost rejection in a synchronous step', () => { Promise.reject(new Error('lost promise')) })
Given('a lost rejection in a step still awaiting', async () => { Promise.reject(new Error('mid-step')); await sleep(5) })
Given('a rejection handled in the same tick', async () => { const p = Promise.reject(new Error('x')); p.catch(() => {}); await sleep(1) })
Given('a rejection handled a tick too late', async () => { const p = Promise.reject(new Error('too late')); await sleep(1); await p.catch(() => {}) })
Given('an awaited rejection', async () => { await Promise.reject(new Error('awaited')) })
Given('a rejection after the step', () => { setTimeout(() => { Promise.reject(new Error('later')) }, 0) })
Given('a slow step', () => sleep(20))
Given('pass', () => {})
`
	for _, tc := range []struct {
		steps, want, msg string
	}{
		{"a lost rejection in a synchronous step\n    Given pass", "PASSED PASSED", ""},
		{"a lost rejection in a step still awaiting\n    Given pass", "FAILED SKIPPED", "Error: mid-step"},
		{"a rejection handled in the same tick", "PASSED", ""},
		{"a rejection handled a tick too late", "FAILED", "too late"},
		{"an awaited rejection", "FAILED", "awaited"},
		{"a rejection after the step\n    Given a slow step", "PASSED FAILED", "later"},
	} {
		s := newSuite(t, map[string]string{
			"features/f.feature": "Feature: f\n  Scenario: s\n    Given " + tc.steps + "\n",
			"steps/s.js":         steps,
		})
		s.run(Options{Strict: true})
		if got := s.statuses(); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%q: statuses %v, want %q", tc.steps, got, tc.want)
			continue
		}
		var msg string
		for _, r := range s.results() {
			if r.Status == messages.TestStepResultStatusFailed && r.Message != nil {
				msg = *r.Message
			}
		}
		if !strings.Contains(msg, tc.msg) || (tc.msg == "" && msg != "") {
			t.Errorf("%q: failure %q, want it to contain %q", tc.steps, msg, tc.msg)
		}
	}
}
