package pages

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseExpression(t *testing.T) {
	for _, tc := range []struct {
		src, want string // want: the chain as JSON
	}{
		{`getByLabel('User')`, `[{"method":"getByLabel","args":["User"]}]`},
		{`page.getByRole("button", { name: 'Log in', exact: true })`, `[{"method":"getByRole","args":["button",{"exact":true,"name":"Log in"}]}]`},
		{`getByRole('heading', { level: 2, name: /welcome/i })`, `[{"method":"getByRole","args":["heading",{"level":2,"name":{"$regex":"welcome","flags":"i"}}]}]`},
		{`locator('li').filter({ hasText: 'milk', has: getByRole('checkbox') }).nth(-1)`, `[{"method":"locator","args":["li"]},{"method":"filter","args":[{"has":{"$locator":[{"method":"getByRole","args":["checkbox"]}]},"hasText":"milk"}]},{"method":"nth","args":[-1]}]`},
		{"getByText(`It's \\\"here\\\"`,).first()", `[{"method":"getByText","args":["It's \"here\""]},{"method":"first","args":[]}]`},
		{`frameLocator('#f').getByTestId("x").or(getByText(/a\/b[/]/))`, `[{"method":"frameLocator","args":["#f"]},{"method":"getByTestId","args":["x"]},{"method":"or","args":[{"$locator":[{"method":"getByText","args":[{"$regex":"a\\/b[/]","flags":""}]}]}]}]`},
	} {
		chain, err := ParseExpression(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		got, _ := json.Marshal(chain)
		if string(got) != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestParseExpressionErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`getByLabel('User'`, `column 18: expected ',' or ')', but the expression ends`},
		{`getByLable('User')`, `column 1: unknown locator method "getByLable" (known: and, contentFrame, filter`},
		{`getByRole('button').click()`, `column 21: unknown locator method "click"`},
		{`getByRole('button', { nme: 'x' })`, `column 23: unknown option "nme" (known: checked, disabled, exact, expanded, includeHidden, level, name, pressed, selected)`},
		{`getByRole('button', { exact: 'yes' })`, `option exact must be true or false, not a string`},
		{`getByRole(1)`, `column 11: getByRole: argument 1 must be a string, not a number`},
		{"getByText(`${evil()}`)", `template substitutions`},
		{`getByText(evil())`, `expected a literal value, found "evil"`},
		{`getByText('a', {}, 3)`, `getByText takes 2 arguments`},
		{`nth(2)`, `starts with getBy*, locator or frameLocator, not nth`},
		{`getByTestId('x') + 1`, `unexpected "+ 1" after the locator expression`},
	} {
		_, err := ParseExpression(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestIsExpression(t *testing.T) {
	for s, want := range map[string]bool{
		"getByLabel('User')":           true,
		" page.locator('#a')":          true,
		"role=button[name=\"Log in\"]": false,
		"#login > button":              false,
		"text=Log in":                  false,
		"getByLabelX('a')":             false,
		"locator":                      false,
	} {
		if IsExpression(s) != want {
			t.Errorf("IsExpression(%q) = %v", s, !want)
		}
	}
}

func TestParseFormats(t *testing.T) {
	want := `{"name":"login","file":"pages/login.X","elements":[{"name":"User","line":2,"source":"getByLabel('User')","chain":[{"method":"getByLabel","args":["User"]}]},{"name":"Log in","line":3,"source":"role=button[name=\"Log in\"]","selector":"role=button[name=\"Log in\"]"}]}`
	for ext, src := range map[string]string{
		"yaml": "# the login form\nUser: getByLabel('User')\nLog in: role=button[name=\"Log in\"]\n",
		"toml": "# the login form\nUser = \"getByLabel('User')\"\n\"Log in\" = 'role=button[name=\"Log in\"]'\n",
		"json": "{\n  \"User\": \"getByLabel('User')\",\n  \"Log in\": \"role=button[name=\\\"Log in\\\"]\"\n}\n",
	} {
		p, err := Parse("pages/login."+ext, []byte(src))
		if err != nil {
			t.Errorf("%s: %v", ext, err)
			continue
		}
		got, _ := json.Marshal(p)
		if w := strings.ReplaceAll(want, ".X", "."+ext); string(got) != w {
			t.Errorf("%s:\n got %s\nwant %s", ext, got, w)
		}
	}
}

// Every error names the file, the line and the column (the first line
// too, which the YAML library leaves out), and the hint for an unquoted
// locator quotes the user's own line.
func TestParseErrorsNameFileLineAndColumn(t *testing.T) {
	for _, tc := range []struct{ file, src, want string }{
		{"p/a.yaml", "User: getByLabel('User')\nBad: \"getByRole('button', { nme: 'x' })\"\n", `p/a.yaml:2:29: Bad: getByRole('button', { nme: 'x' }): unknown option "nme"`},
		{"p/a.yaml", "Bad: getByRole('button', { nme: 'x' })\n", `p/a.yaml:1:31: mapping values are not allowed in this context (a locator with ": " in it must be quoted: Bad: "getByRole('button', { nme: 'x' })")`},
		{"p/a.yaml", "Bad: getByRole('button', {nme:'x'})\n", `p/a.yaml:1:27: Bad: getByRole('button', {nme:'x'}): unknown option "nme"`},
		{"p/a.yaml", "A: '#a'\nA: '#b'\n", `p/a.yaml:2:1: "A" is already defined on line 1`},
		{"p/a.yaml", "A:\n  B: '#b'\n", `p/a.yaml:2:3: A: expected a locator string, got a mapping`},
		{"p/a.yaml", "A: 3\n", `p/a.yaml:1:4: A: expected a locator string, got int 3 (quote it)`},
		{"p/a.yaml", "A: [\n", `p/a.yaml:1:1: did not find expected node content`},
		{"p/a.yaml", "A: '#a'\nLog in: getByRole('button', { name: 'Log in' })\n", `p/a.yaml:2:35: mapping values are not allowed in this context (a locator with ": " in it must be quoted: Log in: "getByRole('button', { name: 'Log in' })")`},
		{"p/a.yaml", "Items: getByRole('listitem', { name: \"x\" })\n", `p/a.yaml:1:36: mapping values are not allowed in this context (a locator with ": " in it must be quoted: Items: "getByRole('listitem', { name: \"x\" })")`},
		{"p/a.yaml", "Login > User: '#a'\n", `p/a.yaml:1:1: "Login > User": an element's name cannot contain " > "`},
		{"p/a.toml", "A = '#a'\n\n[section]\nB = '#b'\n", `p/a.toml:3:2: page files are flat`},
		{"p/a.toml", "A = '#a'\nB = 3\n", `p/a.toml:2:1: B: expected a locator string`},
		{"p/a.toml", "A = '#a'\nB = \n", `p/a.toml:2:5: `},
		{"p/a.toml", "a.b = '#a'\n", `p/a.toml:1:1: a.b: quote a name with dots`},
		{"p/a.toml", "A = \"getByText(\"\n", `p/a.toml:1:16: A: getByText(: expected a value, but the expression ends`},
		{"p/a.json", "{\n  \"A\": \"#a\",\n  \"B\": {}\n}\n", `p/a.json:3:3: B: expected a locator string`},
		{"p/a.json", "{\n  \"A\": \"getByText(\"\n}\n", `p/a.json:2:19: A: getByText(: expected a value, but the expression ends`},
		{"p/a.txt", "", `p/a.txt: a page-object file is .yaml, .yml, .toml or .json`},
	} {
		_, err := Parse(tc.file, []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: error %v, want %q", tc.file, tc.src, err, tc.want)
		}
	}
}

func TestLoadFindsFilesAndRefusesDuplicatePages(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pages/login.yaml", "User: getByLabel('User')\n")
	write("pages/shop/cart.toml", "Total = '#total'\n")
	write("pages/notes.txt", "ignored")
	got, err := Load(dir, DefaultPatterns)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Name != "login" || got[1].Name != "cart" || got[1].File != "pages/shop/cart.toml" {
		t.Fatalf("pages %+v", got)
	}
	write("pages/Login.json", "{}")
	if _, err := Load(dir, DefaultPatterns); err == nil || !strings.Contains(err.Error(), `pages/login.yaml: the page "login" is also defined by pages/Login.json`) {
		t.Fatalf("duplicate page: %v", err)
	}
	if _, err := Load(dir, []string{"pages/[.yaml"}); err == nil || !strings.Contains(err.Error(), `pattern "pages/[.yaml"`) {
		t.Fatalf("bad pattern: %v", err)
	}
}
