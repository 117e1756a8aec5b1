package browsing

import "testing"

func TestActionTitle(t *testing.T) {
	for _, c := range []struct {
		code, target, want string
	}{
		{"await page.getByRole('button', { name: 'Log in' }).click();", `role=button[name="Log in"] [ref=e5]`, `Click "Log in"`},
		{"await page.getByRole('textbox', { name: 'New todo' }).fill('milk');\nawait page.getByRole('textbox', { name: 'New todo' }).press('Enter');", `role=textbox[name="New todo"]`, `Fill "New todo"`},
		{"await page.locator('#save').dblclick();", "#save", "Double-click #save"},
		{"await page.getByText('Menu').hover();", `text="Menu"`, `Hover "Menu"`},
		{"await page.keyboard.press('Enter');", "", `Press "Enter"`},
		{"await page.keyboard.press('\\'');", "", `Press "'"`},
		{"await page.goto('/login');", "", "Navigate to /login"},
		{"await page.goBack();", "", "Go back"},
		{"await page.locator('#a').check();\nawait page.locator('#b').fill('x');", "", "Check"},
		{"await page.evaluate(() => 1);", "", ""},
		{"", "", ""},
	} {
		if got := actionTitle(op{code: c.code, target: c.target}); got != c.want {
			t.Errorf("%q: %q, want %q", c.code, got, c.want)
		}
	}
}
