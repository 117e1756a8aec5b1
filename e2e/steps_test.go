package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/steps/catalogue"
)

// decodeCatalogue reads the output of `ferridriver steps --json`.
func decodeCatalogue(t *testing.T, out string) catalogue.Catalogue {
	t.Helper()
	var c catalogue.Catalogue
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("steps --json: %v\n%s", err, out)
	}
	return c
}

// stepsProject is a project with its own steps only (the library off), so
// that the output is exact.
var stepsProject = map[string]string{
	"ferridriver.toml": "[test]\nbuiltinSteps = false\nsteps = [\"steps/**/*.ts\"]\n",
	"steps/colors.ts": `import { defineParameterType } from '@cucumber/cucumber'
defineParameterType({ name: 'color', regexp: /red|green/, transformer: (s: string) => s })
`,
	"steps/shop.ts": `import { Given, When } from '@cucumber/cucumber'
import './colors'

Given('a {color} basket', { description: 'Starts with an empty basket.', example: 'Given a red basket' }, function (c: string) {})

When(/^I add (\d+) apples?$/, function (n: string) {})
`,
}

// `ferridriver steps` lists the project's steps and parameter types, as
// text, JSON and Markdown; --filter narrows them (exit 1 when nothing is
// left); a broken step file is a usage error naming its line.
func TestStepsCommand(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, stepsProject)

	res := ferridriver(t, dir, "steps")
	want := `steps/shop.ts
  Given a {color} basket        # steps/shop.ts:4
      Starts with an empty basket.
      e.g. Given a red basket
  When /^I add (\d+) apples?$/  # steps/shop.ts:6

Parameter types
  {color}  /red|green/  # steps/colors.ts:2

2 steps (0 built-in, 2 in the project)
`
	if res.code != 0 || res.stdout != want {
		t.Fatalf("steps: exit %d\n%s\nwant:\n%s\nstderr: %s", res.code, res.stdout, want, res.stderr)
	}

	res = ferridriver(t, dir, "steps", "--json")
	c := decodeCatalogue(t, res.stdout)
	if res.code != 0 || len(c.Steps) != 2 || len(c.ParameterTypes) != 1 {
		t.Fatalf("steps --json: exit %d\n%s", res.code, res.stdout)
	}
	if s := c.Steps[1]; s.Type != "RegularExpression" || s.Keyword != "When" || s.Category != "steps/shop.ts" || s.Builtin || s.Examples == nil {
		t.Fatalf("regular expression step: %+v", s)
	}

	if res = ferridriver(t, dir, "steps", "--filter", "BASKET empty"); res.code != 0 || !strings.Contains(res.stdout, "a {color} basket") || strings.Contains(res.stdout, "apples") {
		t.Fatalf("--filter: exit %d\n%s", res.code, res.stdout)
	}
	if res = ferridriver(t, dir, "steps", "--filter", "pears"); res.code != 1 || !strings.Contains(res.stderr, `no step matches "pears"`) {
		t.Fatalf("--filter matching nothing: exit %d, want 1\n%s", res.code, res.stderr)
	}
	if res = ferridriver(t, dir, "steps", "--json", "--md"); res.code != 2 {
		t.Fatalf("--json --md: exit %d, want 2\n%s", res.code, res.stderr)
	}

	// --md -o replaces only what is between the markers.
	doc := "# Our steps\n\nWritten by hand.\n\n<!-- generated:begin -->\nold\n<!-- generated:end -->\n\nThe end.\n"
	testenv.WriteFiles(t, dir, map[string]string{"docs/steps.md": doc})
	if res = ferridriver(t, dir, "steps", "--md", "-o", "docs/steps.md"); res.code != 0 || res.stdout != "" {
		t.Fatalf("--md -o: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	md := string(mustRead(t, filepath.Join(dir, "docs", "steps.md")))
	for _, w := range []string{"# Our steps\n\nWritten by hand.\n\n<!-- generated:begin -->\n2 steps (0 built-in, 2 in the project).", "| `Given a {color} basket` | Starts with an empty basket. | `Given a red basket` |", "<!-- generated:end -->\n\nThe end.\n"} {
		if !strings.Contains(md, w) {
			t.Fatalf("docs/steps.md lacks %q:\n%s", w, md)
		}
	}
	if strings.Contains(md, "old") {
		t.Fatalf("the generated part was not replaced:\n%s", md)
	}

	testenv.WriteFiles(t, dir, map[string]string{"steps/broken.ts": "import { Given } from '@cucumber/cucumber'\nGiven('x', ))\n"})
	if res = ferridriver(t, dir, "steps"); res.code != 2 || !strings.Contains(res.stderr, "steps/broken.ts:2:") {
		t.Fatalf("a broken step file: exit %d, want 2 naming steps/broken.ts:2\n%s", res.code, res.stderr)
	}
}

// With the library on, every built-in step is listed first with its
// category, description and examples, and the project's steps after them;
// --builtin leaves the project's out.
func TestStepsListsTheBuiltinLibrary(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"steps/mine.ts": stepsProject["steps/shop.ts"], "steps/colors.ts": stepsProject["steps/colors.ts"]})
	res := ferridriver(t, dir, "steps", "--json")
	c := decodeCatalogue(t, res.stdout)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	builtin := 0
	for i, s := range c.Steps {
		if !s.Builtin {
			continue
		}
		builtin++
		if i >= builtin {
			t.Fatalf("built-in step %q listed after a project step", s.Expression)
		}
		if s.Category == "" || strings.Contains(s.Category, ":") || strings.HasSuffix(s.Category, ".ts") || !strings.HasPrefix(s.Source, "ferridriver:steps/") || s.Description == "" || len(s.Examples) == 0 {
			t.Fatalf("built-in step %+v", s)
		}
	}
	if builtin == 0 || builtin == len(c.Steps) {
		t.Fatalf("%d built-in steps of %d", builtin, len(c.Steps))
	}
	only := decodeCatalogue(t, ferridriver(t, dir, "steps", "--json", "--builtin").stdout)
	if len(only.Steps) != builtin {
		t.Fatalf("--builtin: %d steps, want %d", len(only.Steps), builtin)
	}
	for _, p := range only.ParameterTypes {
		if !p.Builtin {
			t.Fatalf("--builtin lists the project's parameter type %q", p.Name)
		}
	}
}

// typo swaps two letters in the middle of the longest word of a step's
// text that is not in quotes.
func typo(text string) string {
	best, start := "", 0
	inQuote := false
	word := 0
	for i, r := range text + " " {
		switch {
		case r == '"':
			inQuote = !inQuote
			word = i + 1
		case !unicode.IsLetter(r):
			if !inQuote && i-word > len(best) {
				best, start = text[word:i], word
			}
			word = i + 1
		}
	}
	if len(best) < 4 {
		return ""
	}
	b := []byte(text)
	m := start + len(best)/2
	b[m-1], b[m] = b[m], b[m-1]
	return string(b)
}

// An undefined step close to a built-in one is reported with the closest
// built-in steps, in the summary and in the message stream (Gherkin
// snippets after the code snippet), in a run that uses built-in steps; a
// run that uses none is a cucumber-js project's: its stream and summary
// have only the code snippet, and the closest built-in steps are printed
// on stderr; with the library off, only the code snippet, as cucumber-js.
func TestUndefinedStepSuggestsBuiltinSteps(t *testing.T) {
	dir := t.TempDir()
	cat := decodeCatalogue(t, ferridriver(t, dir, "steps", "--json", "--builtin").stdout)
	var step, def, example string
	for _, s := range cat.Steps {
		for _, ex := range s.Examples {
			first, _, _ := strings.Cut(ex, "\n")
			keyword, text, _ := strings.Cut(strings.TrimSpace(first), " ")
			if typo(text) != "" {
				step, def, example = keyword+" "+typo(text), s.Expression, strings.TrimSpace(first)
				break
			}
		}
		if step != "" {
			break
		}
	}
	if step == "" {
		t.Fatalf("no built-in example has a word to misspell: %+v", cat.Steps)
	}
	snippetLanguages := func() []string {
		var langs []string
		for _, e := range oracles.ReadStream(t, filepath.Join(dir, "m.ndjson")) {
			if s := e.Suggestion; s != nil {
				for _, sn := range s.Snippets {
					langs = append(langs, sn.Language)
					if sn.Language == "gherkin" && !strings.HasPrefix(sn.Code, "# Built-in step: ") {
						t.Fatalf("gherkin snippet %q", sn.Code)
					}
				}
			}
		}
		return langs
	}

	// Only the undefined step: no built-in step is used.
	testenv.WriteFiles(t, dir, map[string]string{"features/a.feature": "Feature: a\n  Scenario: s\n    " + step + "\n"})
	res := ferridriver(t, dir, "bdd", "--dry-run", "--format", "message:m.ndjson")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	if strings.Contains(res.stdout, "Closest built-in steps:") || !strings.Contains(res.stderr, "is close to built-in steps:") || !strings.Contains(res.stderr, "# "+def) {
		t.Fatalf("a run that uses no built-in step: the summary names built-in steps, or stderr does not name %q for %q:\n%s%s", def, step, res.stdout, res.stderr)
	}
	if langs := snippetLanguages(); len(langs) != 1 || langs[0] != "typescript" {
		t.Fatalf("a run that uses no built-in step: snippet languages %q, want the code alone", langs)
	}

	// With a built-in step used beside it.
	testenv.WriteFiles(t, dir, map[string]string{"features/a.feature": "Feature: a\n  Scenario: s\n    " + step + "\n  Scenario: t\n    " + example + "\n"})
	res = ferridriver(t, dir, "bdd", "--dry-run", "--format", "message:m.ndjson")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout, "Closest built-in steps:") || !strings.Contains(res.stdout, "# "+def) || !strings.Contains(res.stdout, "You can implement missing steps with the snippets below:") {
		t.Fatalf("the summary does not suggest %q for %q:\n%s", def, step, res.stdout)
	}
	if langs := snippetLanguages(); len(langs) < 2 || len(langs) > 1+3+1 || langs[0] != "typescript" || langs[len(langs)-1] != "gherkin" {
		t.Fatalf("snippet languages %q: want code, then up to 3 built-in steps", langs)
	}

	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": "[test]\nbuiltinSteps = false\n"})
	res = ferridriver(t, dir, "bdd", "--dry-run", "--format", "message:m.ndjson")
	if res.code != 1 || strings.Contains(res.stdout, "Closest built-in steps") {
		t.Fatalf("library off: exit %d\n%s", res.code, res.stdout)
	}
	for _, e := range oracles.ReadStream(t, filepath.Join(dir, "m.ndjson")) {
		if s := e.Suggestion; s != nil {
			for _, sn := range s.Snippets {
				if sn.Language != "typescript" {
					t.Fatalf("library off: a %s snippet", sn.Language)
				}
			}
		}
	}
	_ = os.Remove(filepath.Join(dir, "m.ndjson"))
}

// Suggestions rank by meaning and carry the user's arguments: a check
// written another way gets the library's check, not an action of the same
// length ("I check {target}").
func TestSuggestionsByMeaning(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"features/a.feature": "Feature: a\n  Scenario: s\n    Then I should see \"Buy milk\"\n"})
	// A run that uses no built-in step keeps the library out of stdout (as
	// cucumber-js prints it) and names the close built-in steps on stderr.
	res := ferridriver(t, dir, "bdd", "--dry-run", "--format", "summary")
	_, after, _ := strings.Cut(res.stderr, "is close to built-in steps:\n")
	first, _, _ := strings.Cut(strings.TrimSpace(after), "\n")
	if res.code != 1 || !strings.HasPrefix(first, `Then I expect the page to contain the text "Buy milk"`) {
		t.Fatalf("exit %d; first suggestion %q, want the page-contains-text check with \"Buy milk\":\n%s", res.code, first, res.stderr)
	}
	if strings.Contains(after, `I check "`) {
		t.Errorf("a check was suggested an action:\n%s", res.stderr)
	}
}

// pretty shows the values a step's $names had, as used; a value from the
// environment is not shown.
func TestPrettyShowsValuesAsUsed(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"ferridriver.toml":   "[scripting]\nallowEnv = [\"SECRET_TOKEN\"]\n\n[steps.values]\ntodoApp = \"http://127.0.0.1:3000/\"\n",
		"features/a.feature": "Feature: a\n  Scenario: s\n    Then I expect \"$todoApp\" to start with \"http\"\n    And I expect \"${SECRET_TOKEN}\" to have length 7\n",
	})
	cmd := exec.Command(binary, "bdd", "--format", "pretty")
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "NO_COLOR=1", "SECRET_TOKEN=hunter2")
	res := runCommand(t, cmd, "ferridriver")
	if res.code != 0 || !strings.Contains(res.stdout, `$todoApp = "http://127.0.0.1:3000/"`) {
		t.Fatalf("exit %d; pretty lacks the value of $todoApp:\n%s%s", res.code, res.stdout, res.stderr)
	}
	if strings.Contains(res.stdout, "hunter2") || !strings.Contains(res.stdout, "$SECRET_TOKEN = (from the environment, not shown)") {
		t.Errorf("an environment value is shown, or its use is not:\n%s", res.stdout)
	}
}
