package jsapi_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/jsbridge"
)

const fixture = `
<title>Fixture page</title>
<h1 id="title" class="big red" style="color: rgb(255, 0, 0)">Hello</h1>
<input id="name" value="Ada" aria-label="Name">
<input id="empty" aria-label="Empty">
<input id="ro" readonly value="fixed">
<input type="checkbox" id="cb" checked aria-label="Agree">
<input type="checkbox" id="cb2" aria-label="Disagree">
<button disabled>Off</button>
<button id="on">On</button>
<div id="hidden" style="display:none">secret</div>
<select id="multi" multiple><option value="a" selected>A</option><option value="b" selected>B</option><option value="c">C</option></select>
<ul><li>one</li><li>two</li></ul>
<div id="far" style="margin-top: 3000px">far</div>
`

// TestWebFirstAssertions checks every web-first matcher passing and
// failing, and the failure message.
func TestWebFirstAssertions(t *testing.T) {
	e := newEnv(t)
	e.ok("await page.setContent(" + quoteJS(fixture) + "); await page.locator('#name').focus();")
	cases := []struct {
		name, pass, fail string
		wants            []string
	}{
		{"toBeVisible", `expect(page.locator('#title')).toBeVisible()`, `expect(page.locator('#hidden')).toBeVisible({ timeout: 300 })`,
			[]string{"expect(locator).toBeVisible() failed\n\nLocator: locator('#hidden')\nExpected: visible\nReceived: hidden\nTimeout: 300ms"}},
		{"toBeVisible missing", `expect(page.locator('#title')).not.toBeHidden()`, `expect(page.locator('#nope')).toBeVisible({ timeout: 300 })`,
			[]string{"Expected: visible\nReceived: <element(s) not found>"}},
		{"toBeHidden", `expect(page.locator('#hidden')).toBeHidden()`, `expect(page.locator('#title')).toBeHidden({ timeout: 300 })`,
			[]string{"expect(locator).toBeHidden() failed", "Expected: hidden\nReceived: visible"}},
		{"toBeEnabled", `expect(page.locator('#on')).toBeEnabled()`, `expect(page.getByRole('button', { name: 'Off' })).toBeEnabled({ timeout: 300 })`,
			[]string{"Locator: getByRole('button', { name: 'Off' })\nExpected: enabled\nReceived: disabled"}},
		{"toBeDisabled", `expect(page.getByText('Off')).toBeDisabled()`, `expect(page.locator('#on')).toBeDisabled({ timeout: 300 })`,
			[]string{"Expected: disabled\nReceived: enabled"}},
		{"toBeChecked", `expect(page.getByLabel('Agree', { exact: true })).toBeChecked()`, `expect(page.getByLabel('Disagree')).toBeChecked({ timeout: 300 })`,
			[]string{"Expected: checked\nReceived: unchecked"}},
		{"toBeChecked false", `expect(page.getByLabel('Disagree')).toBeChecked({ checked: false })`, `expect(page.getByLabel('Agree', { exact: true })).not.toBeChecked({ timeout: 300 })`,
			[]string{"expect(locator).not.toBeChecked() failed", "Expected: not checked\nReceived: checked"}},
		{"toBeEditable", `expect(page.locator('#name')).toBeEditable()`, `expect(page.locator('#ro')).toBeEditable({ timeout: 300 })`,
			[]string{"Expected: editable\nReceived: readOnly"}},
		{"toBeFocused", `expect(page.locator('#name')).toBeFocused()`, `expect(page.locator('#on')).toBeFocused({ timeout: 300 })`,
			[]string{"Expected: focused\nReceived: inactive"}},
		{"toBeAttached", `expect(page.locator('#hidden')).toBeAttached()`, `expect(page.locator('#nope')).toBeAttached({ timeout: 300 })`,
			[]string{"Expected: attached\nReceived: <element(s) not found>"}},
		{"toBeEmpty", `expect(page.locator('#empty')).toBeEmpty()`, `expect(page.locator('#name')).toBeEmpty({ timeout: 300 })`,
			[]string{"Expected: empty\nReceived: notEmpty"}},
		{"toBeInViewport", `expect(page.locator('#title')).toBeInViewport()`, `expect(page.locator('#far')).toBeInViewport({ timeout: 300 })`,
			[]string{"Expected: in viewport\nReceived: viewport ratio 0"}},
		{"toHaveText", `expect(page.locator('#title')).toHaveText('Hello')`, `expect(page.locator('#title')).toHaveText('Bye', { timeout: 300 })`,
			[]string{"expect(locator).toHaveText(expected) failed\n\nLocator: locator('#title')\nExpected string: \"Bye\"\nReceived string: \"Hello\"\nTimeout: 300ms\n\nCall log:\n  - Expect \"toHaveText\" with timeout 300ms"}},
		{"toHaveText regex", `expect(page.locator('#title')).toHaveText(/hel+o/i)`, `expect(page.locator('#title')).toHaveText(/^bye$/, { timeout: 300 })`,
			[]string{"Expected pattern: /^bye$/\nReceived string: \"Hello\""}},
		{"toHaveText array", `expect(page.locator('li')).toHaveText(['one', 'two'])`, `expect(page.locator('li')).toHaveText(['one'], { timeout: 300 })`,
			[]string{"Expected: [\"one\"]\nReceived: [\"one\", \"two\"]"}},
		{"toHaveText not", `expect(page.locator('#title')).not.toHaveText('Bye')`, `expect(page.locator('#title')).not.toHaveText('Hello', { timeout: 300 })`,
			[]string{"expect(locator).not.toHaveText(expected) failed", "Expected string: not \"Hello\"\nReceived string: \"Hello\""}},
		{"toHaveText missing", `expect(page.locator('#title')).not.toHaveText('x')`, `expect(page.locator('#nope')).toHaveText('x', { timeout: 300 })`,
			[]string{"Expected string: \"x\"\nReceived: <element(s) not found>"}},
		{"toContainText", `expect(page.locator('#title')).toContainText('ell')`, `expect(page.locator('#title')).toContainText('xyz', { timeout: 300 })`,
			[]string{"expect(locator).toContainText(expected) failed", "Expected substring: \"xyz\"\nReceived string: \"Hello\""}},
		{"toHaveValue", `expect(page.locator('#name')).toHaveValue('Ada')`, `expect(page.locator('#name')).toHaveValue('Bob', { timeout: 300 })`,
			[]string{"Expected string: \"Bob\"\nReceived string: \"Ada\""}},
		{"toHaveValues", `expect(page.locator('#multi')).toHaveValues(['a', 'b'])`, `expect(page.locator('#multi')).toHaveValues(['c'], { timeout: 300 })`,
			[]string{"Expected: [\"c\"]\nReceived: [\"a\", \"b\"]"}},
		{"toHaveCount", `expect(page.locator('li')).toHaveCount(2)`, `expect(page.locator('li')).toHaveCount(3, { timeout: 300 })`,
			[]string{"expect(locator).toHaveCount(expected) failed\n\nLocator: locator('li')\nExpected: 3\nReceived: 2\nTimeout: 300ms"}},
		{"toHaveAttribute", `expect(page.locator('#name')).toHaveAttribute('aria-label', 'Name')`, `expect(page.locator('#name')).toHaveAttribute('aria-label', 'Other', { timeout: 300 })`,
			[]string{"Expected string: \"Other\"\nReceived string: \"Name\""}},
		{"toHaveAttribute presence", `expect(page.locator('#name')).toHaveAttribute('aria-label')`, `expect(page.locator('#name')).toHaveAttribute('data-x', { timeout: 300 })`,
			[]string{"Expected: attribute \"data-x\""}},
		{"toHaveClass", `expect(page.locator('#title')).toHaveClass('big red')`, `expect(page.locator('#title')).toHaveClass('small', { timeout: 300 })`,
			[]string{"Expected string: \"small\"\nReceived string: \"big red\""}},
		{"toHaveClass regex", `expect(page.locator('#title')).toHaveClass(/big/)`, `expect(page.locator('li')).toHaveClass(['a', 'b'], { timeout: 300 })`,
			[]string{"Expected: [\"a\", \"b\"]\nReceived: [\"\", \"\"]"}},
		{"toContainClass", `expect(page.locator('#title')).toContainClass('red')`, `expect(page.locator('#title')).toContainClass('blue', { timeout: 300 })`,
			[]string{"expect(locator).toContainClass(expected) failed"}},
		{"toHaveCSS", `expect(page.locator('#title')).toHaveCSS('color', 'rgb(255, 0, 0)')`, `expect(page.locator('#title')).toHaveCSS('color', 'rgb(0, 0, 0)', { timeout: 300 })`,
			[]string{"Expected string: \"rgb(0, 0, 0)\"\nReceived string: \"rgb(255, 0, 0)\""}},
		{"toHaveId", `expect(page.getByText('Hello')).toHaveId('title')`, `expect(page.getByText('Hello')).toHaveId('other', { timeout: 300 })`,
			[]string{"Expected string: \"other\"\nReceived string: \"title\""}},
		{"toHaveRole", `expect(page.locator('#on')).toHaveRole('button')`, `expect(page.locator('#on')).toHaveRole('link', { timeout: 300 })`,
			[]string{"Expected string: \"link\"\nReceived string: \"button\""}},
		{"toHaveAccessibleName", `expect(page.locator('#name')).toHaveAccessibleName('Name')`, `expect(page.locator('#name')).toHaveAccessibleName('Other', { timeout: 300 })`,
			[]string{"Expected string: \"Other\"\nReceived string: \"Name\""}},
		{"toHaveJSProperty", `expect(page.locator('#cb')).toHaveJSProperty('checked', true)`, `expect(page.locator('#cb')).toHaveJSProperty('checked', false, { timeout: 300 })`,
			[]string{"expect(locator).toHaveJSProperty(expected) failed"}},
		{"toHaveTitle", `expect(page).toHaveTitle('Fixture page')`, `expect(page).toHaveTitle(/other/, { timeout: 300 })`,
			[]string{"expect(page).toHaveTitle(expected) failed\n\nExpected pattern: /other/\nReceived string: \"Fixture page\""}},
		{"toHaveURL", `expect(page).toHaveURL('about:blank')`, `expect(page).toHaveURL('/elsewhere', { timeout: 300 })`,
			[]string{"expect(page).toHaveURL(expected) failed", "Expected string: \"" + e.url + "/elsewhere\"\nReceived string: \"about:blank\""}},
		{"toBeOK", `(async () => expect(await page.request.get(baseURL + '/api/health')).toBeOK())()`, `(async () => expect(await page.request.get(baseURL + '/api/nope')).toBeOK())()`,
			[]string{"expect(response).toBeOK() failed\n\nExpected: status within [200..299]\nReceived: 404 Not Found"}},
		{"strict", `expect(page.locator('li').first()).toHaveText('one')`, `expect(page.locator('li')).toHaveText('one', { timeout: 300 })`,
			[]string{"expect(locator).toHaveText(expected) failed\n\nLocator: locator('li')\nError: strict mode violation"}},
		{"custom message", `expect(page.locator('#title'), 'title shown').toBeVisible()`, `expect(page.locator('#hidden'), 'secret shown').toBeVisible({ timeout: 300 })`,
			[]string{"secret shown\n\nexpect(locator).toBeVisible() failed"}},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			if _, err := e.run("await " + c.pass); err != nil {
				t.Fatalf("%s: %v", c.pass, err)
			}
			_, err := e.run("await " + c.fail)
			var je *jsbridge.JSError
			if !errors.As(err, &je) {
				t.Fatalf("%s: want a JS error, got %v", c.fail, err)
			}
			if je.Type != "Error" {
				t.Errorf("error name %q, want Error", je.Type)
			}
			wantContains(t, je.Message, c.wants...)
			wantContains(t, je.Stack, "TestWebFirstAssertions")
		})
	}
}

// TestExpectTimeouts checks the default timeout and expect.configure.
func TestExpectTimeouts(t *testing.T) {
	e := newEnv(t)
	start := time.Now()
	je := e.fails(`await page.setContent('<p>x</p>'); await expect.configure({ timeout: 400 })(page.locator('p')).toHaveText('y');`)
	wantContains(t, je.Message, "Timeout: 400ms")
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
	// A web-first assertion waits for the page to change.
	e.ok(`await page.setContent('<p>x</p>');
		await page.evaluate(() => setTimeout(() => document.querySelector('p').textContent = 'later', 300));
		await expect(page.locator('p')).toHaveText('later');`)
}

// newBareVM is a VM without a browser, for the generic matchers.
func newBareVM(t testing.TB) *env {
	t.Helper()
	vm, err := jsbridge.NewVM(nil, jsbridge.VMOptions{Host: jsbridge.HostBDD, Dir: t.TempDir(), Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(vm.Close)
	return &env{t: t, vm: vm}
}

func TestGenericMatchers(t *testing.T) {
	e := newBareVM(t)
	pass := []string{
		`expect(1).toBe(1)`, `expect(NaN).toBe(NaN)`, `expect({ a: 1 }).not.toBe({ a: 1 })`,
		`expect({ a: [1, { b: 2 }], u: undefined }).toEqual({ a: [1, { b: 2 }] })`, `expect(new Date(5)).toEqual(new Date(5))`,
		`expect(new Map([[1, { a: 1 }]])).toEqual(new Map([[1, { a: 1 }]]))`, `expect(new Set([1, 2])).toEqual(new Set([2, 1]))`,
		`expect({ a: 1 }).toStrictEqual({ a: 1 })`, `expect({ a: 1, u: undefined }).not.toStrictEqual({ a: 1 })`,
		`expect(1).toBeTruthy()`, `expect(0).toBeFalsy()`, `expect(null).toBeNull()`, `expect(undefined).toBeUndefined()`,
		`expect(0).toBeDefined()`, `expect(NaN).toBeNaN()`, `expect([]).toBeInstanceOf(Array)`,
		`expect('hello').toContain('ell')`, `expect([1, 2, 3]).toContain(2)`, `expect(new Set(['a'])).toContain('a')`,
		`expect([{ a: 1 }]).toContainEqual({ a: 1 })`, `expect('abc').toMatch(/b/)`, `expect('abc').toMatch('bc')`,
		`expect({ a: 1, b: { c: 2, d: 3 } }).toMatchObject({ b: { c: 2 } })`, `expect([1, 2]).toHaveLength(2)`, `expect('abc').toHaveLength(3)`,
		`expect({ a: { b: [1, 2] } }).toHaveProperty('a.b.1', 2)`, `expect({ a: { b: 1 } }).toHaveProperty(['a', 'b'])`, `expect({}).not.toHaveProperty('x')`,
		`expect(2).toBeGreaterThan(1)`, `expect(2).toBeGreaterThanOrEqual(2)`, `expect(1).toBeLessThan(2)`, `expect(2).toBeLessThanOrEqual(2)`,
		`expect(0.1 + 0.2).toBeCloseTo(0.3)`, `expect(() => { throw new TypeError('bad thing') }).toThrow('bad')`,
		`expect(() => { throw new TypeError('bad thing') }).toThrow(TypeError)`, `expect(() => { throw new Error('x') }).toThrow(/x/)`,
		`expect(() => {}).not.toThrow()`, `expect({ a: 1, b: 'x' }).toEqual({ a: expect.any(Number), b: expect.stringContaining('x') })`,
		`expect([1, 2, 3]).toEqual(expect.arrayContaining([3, 1]))`, `expect({ a: 1, b: 2 }).toEqual(expect.objectContaining({ a: 1 }))`,
		`expect('abc').toEqual(expect.stringMatching(/^a/))`, `expect({ x: 0 }).toEqual({ x: expect.anything() })`, `expect({ x: null }).not.toEqual({ x: expect.anything() })`,
		`expect(1.001).toEqual(expect.closeTo(1, 2))`, `expect('x').toEqual(expect.not.stringContaining('y'))`,
	}
	for _, src := range pass {
		if _, err := e.run(src); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
	fails := []struct{ src, want string }{
		{`expect(2).toBe(3)`, "expect(received).toBe(expected) // Object.is equality\n\nExpected: 3\nReceived: 2"},
		{`expect({ a: 1 }).toBe({ a: 1 })`, `If it should pass with deep equality, replace "toBe" with "toStrictEqual"`},
		{`expect(2).not.toBe(2)`, "expect(received).not.toBe(expected) // Object.is equality\n\nExpected: not 2"},
		{`expect({ a: [1] }).toEqual({ a: [2] })`, "expect(received).toEqual(expected) // deep equality\n\nExpected: {\"a\": [2]}\nReceived: {\"a\": [1]}"},
		{`expect({ a: 1, u: undefined }).toStrictEqual({ a: 1 })`, "toStrictEqual"},
		{`expect(0).toBeTruthy()`, "expect(received).toBeTruthy()\n\nReceived: 0"},
		{`expect('x').toBeNull()`, "Received: \"x\""},
		{`expect([1, 2]).toContain(3)`, "Expected value: 3\nReceived array: [1, 2]"},
		{`expect('abc').toContain('z')`, "Expected substring: \"z\"\nReceived string: \"abc\""},
		{`expect('abc').toMatch(/z/)`, "Expected pattern: /z/\nReceived string: \"abc\""},
		{`expect([1]).toHaveLength(2)`, "Expected length: 2\nReceived length: 1"},
		{`expect({ a: 1 }).toHaveProperty('b')`, "Expected path: \"b\""},
		{`expect(1).toBeGreaterThan(2)`, "Expected: > 2\nReceived:   1"},
		{`expect(0.1).toBeCloseTo(0.3)`, "Expected precision:    2"},
		{`expect(() => {}).toThrow()`, "Received function did not throw"},
		{`expect({ a: 1 }).toMatchObject({ a: 2 })`, "expect(received).toMatchObject(expected)"},
		{`expect(1, 'my message').toBe(2)`, "my message\n\nexpect(received).toBe(expected)"},
		{`expect(1).toHaveText('x')`, "received value must be a Locator"},
		{`await expect(Promise.resolve(1)).rejects.toThrow()`, "Received promise resolved instead of rejected"},
		{`await expect(Promise.reject(new Error('no'))).resolves.toBe(1)`, "Received promise rejected instead of resolved"},
	}
	for _, f := range fails {
		je := e.fails(f.src)
		if !strings.Contains(je.Message, f.want) {
			t.Errorf("%s:\nwant %q in\n%s", f.src, f.want, je.Message)
		}
		// The stack points at the assertion, not at ferridriver's code.
		if !strings.Contains(je.Stack, "TestGenericMatchers.js:2") || strings.Contains(je.Stack, "ferridriver-playwright") {
			t.Errorf("%s: stack\n%s", f.src, je.Stack)
		}
	}
	e.ok(`await expect(Promise.resolve(3)).resolves.toBe(3); await expect(Promise.reject(new Error('boom'))).rejects.toThrow('boom');`)
}

func TestPollPassSoftExtend(t *testing.T) {
	e := newBareVM(t)
	e.ok(`let n = 0; await expect.poll(() => ++n, { intervals: [10] }).toBeGreaterThan(3);`)
	je := e.fails(`await expect.poll(() => 1, { timeout: 200, intervals: [50] }).toBe(2);`)
	wantContains(t, je.Message, "expect.poll(received).toBe(expected) // Object.is equality\n\nExpected: 2\nReceived: 1", "Timeout: 200ms")
	e.ok(`let k = 0; await expect(async () => { k++; expect(k).toBe(3); }).toPass({ intervals: [10] });`)
	e.ok(`expect.extend({ toBeEven(received) { return { pass: received % 2 === 0, message: () => 'expected ' + received + (this.isNot ? ' not' : '') + ' to be even' }; } });
		expect(2).toBeEven(); expect(3).not.toBeEven();`)
	je = e.fails(`expect(3).toBeEven()`)
	wantContains(t, je.Message, "expected 3 to be even")
	// expect.soft does not throw: the failure is recorded for the step.
	e.ok(`expect.soft(1).toBe(2); expect.soft(1).toBe(1);`)
}

func quoteJS(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}
