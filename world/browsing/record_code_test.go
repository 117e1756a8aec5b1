package browsing

import (
	"strings"
	"testing"
)

func TestCodeSteps(t *testing.T) {
	const base = "http://app.test"
	for _, tc := range []struct {
		name, code string
		first      bool
		want       []string // step texts, or the error's start after "!"
	}{
		{"one click", `async (page) => { await page.getByRole('button', { name: 'Log in' }).click(); }`, false,
			[]string{`I click 'role=button[name="Log in"]'`}},
		{"concise arrow, other parameter name", `async p => p.getByRole('button', { name: 'Save' }).click()`, false,
			[]string{"!it holds a statement other than awaited page actions"}},
		{"concise awaited", `async p => await p.locator('#save').click()`, false, []string{`I click "#save"`}},
		{"a sequence with reads", `async (page) => {
			await page.goto('http://app.test/login');
			await page.getByLabel('Username').fill('demo');
			await page.getByPlaceholder('Password', { exact: true }).fill('s"e\'cret');
			await page.keyboard.press('Enter');
			await page.getByText('Welcome').first().hover();
			await page.getByTestId('todo').nth(2).check();
			const ignored = 1;
		}`, true, []string{"!it holds a statement other than awaited page actions"}},
		{"navigation first opens the scenario", `async function (page) {
			await page.goto('http://app.test/login');
			await page.getByLabel('Username').fill('demo');
			await page.getByPlaceholder('Password', { exact: true }).fill("s\"e'cret");
			await page.keyboard.press('Enter');
			await page.getByText('Welcome').first().hover();
			await page.getByTestId('todo').nth(2).check();
			await page.locator('select').selectOption('b');
			await page.goBack();
			return await page.title();
		}`, true, []string{
			`I open "/login"`,
			`I fill 'internal:label="Username"i' with "demo"`,
			`I fill 'internal:attr=[placeholder="Password"s]' with "s\"e'cret"`,
			`I press "Enter"`,
			`I hover 'internal:text="Welcome"i >> nth=0'`,
			`I check 'internal:testid=[data-testid="todo"s] >> nth=2'`,
			`I select "b" in "select"`,
			"I go back",
		}},
		{"only reads", `async (page) => { return [page.url(), await page.title(), await page.getByRole('status').textContent()]; }`, false, nil},
		{"a computed value", `async (page) => { await page.getByRole('textbox').fill(String(1)); }`, false, []string{"!fill() is given a computed value"}},
		{"evaluate", `async (page) => { await page.evaluate(() => 1); }`, false, []string{"!page.evaluate() has no built-in step"}},
		{"options a step cannot take", `async (page) => { await page.locator('#a').click({ button: 'middle' }); }`, false, []string{"!page.locator('#a').click() with these arguments has no built-in step"}},
		{"a loop", `async (page) => { for (const v of ['a']) await page.locator('#a').fill(v); }`, false, []string{"!it holds a statement other than awaited page actions"}},
		{"not a function", `page.click('#a')`, false, []string{"!it is not a function"}},
		{"not JavaScript", `async (page) => {`, false, []string{"!it does not parse"}},
		{"a multi-line value", "async (page) => { await page.locator('#a').fill(`a\nb`); }", false, []string{"!a value spans lines"}},
	} {
		steps, err := codeSteps(tc.code, base, tc.first)
		var got []string
		if err != nil {
			got = []string{"!" + err.Error()}
		}
		for _, st := range steps {
			got = append(got, st.Text)
		}
		if len(tc.want) == 1 && strings.HasPrefix(tc.want[0], "!") {
			if len(got) != 1 || !strings.HasPrefix(got[0], tc.want[0]) {
				t.Errorf("%s: got %q, want an error starting %q", tc.name, got, tc.want[0])
			}
			continue
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.name, got, tc.want)
		}
		if tc.first && len(steps) > 0 && strings.HasPrefix(steps[0].Text, "I open") && steps[0].Kind != KindContext {
			t.Errorf("%s: the first navigation should be the scenario's Given", tc.name)
		}
	}
}

func TestFeatureWritesNotesAsComments(t *testing.T) {
	got := Feature("F", "S", []Step{
		{Kind: KindContext, Text: `I open "/"`},
		{Comment: "not recorded: run_script ran `x()`\n(twice)"},
		{Kind: KindAction, Text: `I click "#a"`},
	}, "")
	want := "Feature: F\n\n  Scenario: S\n    Given I open \"/\"\n    # not recorded: run_script ran `x()` (twice)\n    When I click \"#a\"\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
