package e2e

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// The built-in step library is loaded before the project's steps: a
// project step matching the same text wins over the built-in one, and
// [test] builtinSteps = false turns the library off (issue 12).
func TestBuiltinStepsAreLoadedUnlessTurnedOff(t *testing.T) {
	files := map[string]string{
		"features/a.feature": "Feature: a\n  Scenario: s\n    Given I open \"/login\"\n    When I go back\n",
		"steps/mine.ts":      "import { When } from '@cucumber/cucumber'\nWhen('I go back', function () {})\n",
	}
	for _, tc := range []struct {
		name, config string
		code         int
		want         []string // the source of each step's definition, "" for undefined
	}{
		{"on by default", "", 0, []string{"ferridriver:steps/", "steps/mine.ts"}},
		{"turned off", "[test]\nbuiltinSteps = false\n", 1, []string{"", "steps/mine.ts"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testenv.WriteFiles(t, dir, files)
			if tc.config != "" {
				testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": tc.config})
			}
			res := ferridriver(t, dir, "bdd", "--dry-run", "--format", "message:m.ndjson")
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", res.code, tc.code, res.stdout, res.stderr)
			}
			envs := oracles.ReadStream(t, filepath.Join(dir, "m.ndjson"))
			defs := map[string]string{}
			for _, e := range envs {
				if d := e.StepDefinition; d != nil {
					defs[d.ID] = *d.SourceReference.URI
				}
			}
			var got []string
			for _, e := range envs {
				if tc := e.TestCase; tc != nil {
					for _, s := range tc.TestSteps {
						if s.PickleStepID == nil {
							continue
						}
						switch len(s.StepDefinitionIDs) {
						case 0:
							got = append(got, "")
						case 1:
							got = append(got, defs[s.StepDefinitionIDs[0]])
						default:
							t.Fatalf("step %s is ambiguous: %v", *s.PickleStepID, s.StepDefinitionIDs)
						}
					}
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("steps matched %q, want %q", got, tc.want)
			}
			for i := range got {
				if (tc.want[i] == "") != (got[i] == "") || !strings.HasPrefix(got[i], tc.want[i]) {
					t.Fatalf("steps matched %q, want %q", got, tc.want)
				}
			}
		})
	}
}

// An existing suite that defines a parameter type of the same name as one
// of the built-in library's ({value}) runs unchanged: its own parameter
// type is used, the built-in steps that need the library's are left out
// (said once), and nothing is ambiguous or undefined.
func TestProjectParameterTypeReplacesTheLibrarys(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/a.feature": "Feature: a\n  Scenario: s\n    Given the value <<42>> is stored\n",
		"steps/mine.ts": `import { Given, defineParameterType } from '@cucumber/cucumber'
defineParameterType({ name: 'value', regexp: /<<(\d+)>>/, transformer: (s: string) => Number(s) * 2 })
Given('the value {value} is stored', function (v: number) { if (v !== 84) throw new Error('the library transformer ran: ' + v) })
`,
	})
	res := ferridriver(t, dir, "bdd", "--format", "summary")
	if res.code != 0 || !strings.Contains(res.stdout, "1 scenario (1 passed)") {
		t.Fatalf("exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stderr, "parameter type(s) {value}") || strings.Count(res.stderr, "{value}") != 1 {
		t.Fatalf("the replaced parameter type is not said once:\n%s", res.stderr)
	}
}

// features/builtin runs green with the built-in steps only, and uses every
// built-in browser step, each {to} and {validation} step in both its
// positive and its "not" form (issue 12). The API steps (steps/api*.ts)
// prove themselves elsewhere.
func TestBuiltinStepsFeatures(t *testing.T) {
	t.Parallel() // long and self-contained (see the package doc)
	testenv.NeedBrowser(t)
	dir, _ := exampleSuite(t)
	res := ferridriver(t, dir, "bdd", "features/builtin", "--parallel", "2", "--format", "message:m.ndjson", "--format", "summary")
	if res.code != 0 {
		t.Fatalf("features/builtin: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	t.Log(strings.TrimSpace(res.stdout))
	envs := oracles.ReadStream(t, filepath.Join(dir, "m.ndjson"))
	type use struct{ plain, negated bool }
	defs := map[string]*messages.StepDefinition{}
	uses := map[string]*use{}
	for _, e := range envs {
		if d := e.StepDefinition; d != nil && strings.HasPrefix(*d.SourceReference.URI, "ferridriver:steps/") && !strings.HasPrefix(filepath.Base(*d.SourceReference.URI), "api") {
			defs[d.ID] = d
			uses[d.ID] = &use{}
		}
	}
	for _, e := range envs {
		tc := e.TestCase
		if tc == nil {
			continue
		}
		for _, s := range tc.TestSteps {
			for i, id := range s.StepDefinitionIDs {
				u := uses[id]
				if u == nil {
					continue
				}
				negated := false
				for _, a := range s.StepMatchArgumentsLists[i].StepMatchArguments {
					if n := a.ParameterTypeName; n != nil && (*n == "to" || *n == "validation") && a.Group.Value != nil && strings.HasPrefix(*a.Group.Value, "not ") {
						negated = true
					}
				}
				if negated {
					u.negated = true
				} else {
					u.plain = true
				}
			}
		}
	}
	var missing []string
	for id, d := range defs {
		u := uses[id]
		where := fmt.Sprintf("%q (%s:%d)", d.Pattern.Source, *d.SourceReference.URI, d.SourceReference.Location.Line)
		switch {
		case !u.plain:
			missing = append(missing, where)
		case (strings.Contains(d.Pattern.Source, "{to}") || strings.Contains(d.Pattern.Source, "{validation}")) && !u.negated:
			missing = append(missing, "the not form of "+where)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("features/builtin does not use %d built-in steps:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	t.Logf("features/builtin checks %d built-in browser steps", len(defs))
	if len(defs) < 140 {
		t.Errorf("only %d built-in browser steps", len(defs))
	}
	// Screenshots are attached to the report.
	var shots []string
	for _, e := range envs {
		if a := e.Attachment; a != nil && a.MediaType == "image/png" && a.FileName != nil {
			shots = append(shots, *a.FileName)
		}
	}
	for _, want := range []string{"screenshot.png", "elements.png", "full-page.png", "element.png"} {
		if !slices.Contains(shots, want) {
			t.Errorf("no %s attached (attached: %v)", want, shots)
		}
	}
}

const failingFeature = `Feature: failures
  Background:
    Given I open "/elements.html"

  Scenario: state
    Then I expect "#secret" to be visible
  Scenario: state not
    Then I expect "#click-me" not to be visible
  Scenario: text
    Then I expect the text of "h1" to equal "Nope"
  Scenario: text eventually
    Then I expect the text of "h1" to start with "Nope"
  Scenario: value
    Then I expect the value of "#code" to equal "XYZ"
  Scenario: attribute
    Then I expect the attribute "aria-expanded" of "#toggle-details" to equal "true"
  Scenario: css
    Then I expect the CSS property "color" of "#styled" to equal "rgb(0, 0, 0)"
  Scenario: class
    Then I expect "#styled" to have the class "ok"
  Scenario: count
    Then I expect the count of the first "#items li" to equal 4
  Scenario: count eventually
    Then I expect the count of "#items li" to be greater than 5
  Scenario: role
    Then I expect the role of "#fancy" to equal "link"
  Scenario: accessible name
    Then I expect the accessible name of "#fancy" to equal "Open"
  Scenario: url
    Then I expect the URL to contain "/nope"
  Scenario: title
    Then I expect the title to equal "Nope"
  Scenario: page text
    Then I expect the page to contain the text "Not on this page"
  Scenario: memory
    When I remember "a" as "x"
    Then I expect "$x" to equal "b"
  Scenario: requests
    When I record the network requests
    Then I expect a request to "**/api/nope" to have been made
  Scenario: storage
    Then I expect the local storage item "theme" to equal "dark"
  Scenario: within
    Then within 1 second, I expect the text of "h1" to equal "Later"
  Scenario: unknown page element
    When I click "login > Nope"
  Scenario: ambiguous page element
    When I click "Heading"
  Scenario: not a page object
    When I click "Sign up"
  Scenario: hidden
    When I click "#secret"
  Scenario: disabled
    When I click "#save"
  Scenario: detached
    When I click "#remove-banner"
    And I wait 500 milliseconds
    And I click "#banner"
  Scenario: missing
    When I click the first "#todo-list li button.destroy"
  Scenario: wait for a text
    When I wait for the text "Never shown"
  Scenario: page object and selector
    When I click "Items >> text=Buy milk"
  Scenario: every text
    Then I expect every text of "#items li" to start with "Buy"
  Scenario: any text
    Then I expect any text of "#items li" to equal "Feed the cat"
  Scenario: a list compared as one value
    Then I expect the texts of "#items li" to match "^Buy"
  Scenario: unknown remembered name
    When I fill "#focus-me" with "${nope}"
  Scenario: every element
    Then I expect every attribute "class" of "#items li" to contain "selected"
  Scenario: any element
    Then I expect any element of "#items li" to be hidden
  Scenario: every element of nothing
    Then I expect every element of "#nothing li" to be visible
  Scenario: click until
    When I click "#click-me" until the text of "#clicks" to equal "Clicked 99 times"
  Scenario: no download
    When I click "#click-me" and save the download to "downloads/x.txt"
  Scenario: no response
    When I intercept "**/api/nope" as "nope"
    And I click "#click-me"
    And I wait for the "nope" response
  Scenario: soft
    Then I softly expect the text of "h1" to equal "Soft one"
    And I softly expect the title to equal "Soft two"
    And I expect the text of "#banner" to equal "Banner"
  Scenario: parameterised page object
    Then I expect the text of "Item (Walk the dog)" to equal "Walk"
  Scenario: unknown flow
    When I call "No such flow"
  Scenario: failing flow
    When I call "Broken flow" with:
      | what | a |
`

// One failure per assertion family reads like Playwright's: what was
// expected, what was found, the locator, and the step's line in the
// feature (not the library's). Serial, not parallel: its short step timeout
// (1.5 s) leaves the assertions 250 ms to report, which a second suite
// beside it on two cores can use up.
func TestBuiltinStepFailures(t *testing.T) {
	dir := browserProject(t)
	testenv.WriteFiles(t, dir, map[string]string{
		"features/fail.feature":         failingFeature,
		"pages/login.yaml":              "Heading: h1\n",
		"pages/forms.yaml":              "Heading: h1\nItems: '#items li'\n",
		"pages/items.yaml":              "Item ({text}): \"#items li >> text={text}\"\n",
		"features/flows/broken.feature": "@flow\nFeature: flows\n  Scenario: Broken flow\n    Given I remember \"b\" as \"other\"\n    Then I expect \"$what\" to equal \"$other\"\n",
		// Short step timeouts keep the failures quick; the browser's
		// start-up does not count against them.
		"steps/timeout.ts": "import { setDefaultTimeout } from '@cucumber/cucumber'\nsetDefaultTimeout(1500)\n",
	})
	res := ferridriver(t, dir, "bdd", "--parallel", "2", "--format", "message:m.ndjson")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	envs := oracles.ReadStream(t, filepath.Join(dir, "m.ndjson"))
	lines := strings.Split(failingFeature, "\n")
	lineOf := func(text string) int {
		for i, l := range lines {
			if strings.HasSuffix(l, " "+text) && !strings.Contains(l, "Given I open") {
				return i + 1
			}
		}
		t.Fatalf("no line %q", text)
		return 0
	}
	got := map[string]string{} // scenario -> failure message
	pickles := map[string]*messages.Pickle{}
	cases := map[string]string{}   // test case -> pickle
	started := map[string]string{} // test case started -> test case
	for _, e := range envs {
		switch {
		case e.Pickle != nil:
			pickles[e.Pickle.ID] = e.Pickle
		case e.TestCase != nil:
			cases[e.TestCase.ID] = e.TestCase.PickleID
		case e.TestCaseStarted != nil:
			started[e.TestCaseStarted.ID] = e.TestCaseStarted.TestCaseID
		case e.TestStepFinished != nil && e.TestStepFinished.TestStepResult.Status == messages.TestStepResultStatusFailed:
			p := pickles[cases[started[e.TestStepFinished.TestCaseStartedID]]]
			got[p.Name] = *e.TestStepFinished.TestStepResult.Message
		}
	}
	for _, tc := range []struct {
		scenario, step string
		want           []string
	}{
		{"state", `I expect "#secret" to be visible`, []string{"expect(locator).toBeVisible() failed", "Locator: locator('#secret')", "Expected: visible", "Received: hidden", "Timeout: 12"}},
		{"state not", `I expect "#click-me" not to be visible`, []string{"expect(locator).not.toBeVisible() failed", "Locator: locator('#click-me')", "Expected: not visible", "Received: visible"}},
		{"text", `I expect the text of "h1" to equal "Nope"`, []string{"expect(locator).toHaveText(expected) failed", "Locator: locator('h1')", `Expected string: "Nope"`, `Received string: "Elements"`}},
		{"text eventually", `I expect the text of "h1" to start with "Nope"`, []string{`Expected the text of locator('h1') to start with "Nope"`, "Locator: locator('h1')", `Expected: "Nope"`, `Received: "Elements"`, "Timeout: 12"}},
		{"value", `I expect the value of "#code" to equal "XYZ"`, []string{"toHaveValue", "Locator: locator('#code')", `"XYZ"`, `"ABC-123"`}},
		{"attribute", `I expect the attribute "aria-expanded" of "#toggle-details" to equal "true"`, []string{"toHaveAttribute", "Locator: locator('#toggle-details')", `"true"`, `"false"`}},
		{"css", `I expect the CSS property "color" of "#styled" to equal "rgb(0, 0, 0)"`, []string{"toHaveCSS", "Locator: locator('#styled')", `"rgb(0, 0, 0)"`, `"rgb(200, 0, 0)"`}},
		{"class", `I expect "#styled" to have the class "ok"`, []string{"toContainClass", "Locator: locator('#styled')", `"ok"`, `"error big"`}},
		{"count", `I expect the count of the first "#items li" to equal 4`, []string{"toHaveCount", "Locator: locator('#items li').first()", "Expected: 4", "Received: 1"}},
		{"count eventually", `I expect the count of "#items li" to be greater than 5`, []string{"Expected the count of locator('#items li') to be greater than 5", "Locator: locator('#items li')", "Received: 3"}},
		{"role", `I expect the role of "#fancy" to equal "link"`, []string{"toHaveRole", "Locator: locator('#fancy')", `"link"`, `"button"`}},
		{"accessible name", `I expect the accessible name of "#fancy" to equal "Open"`, []string{"toHaveAccessibleName", "Locator: locator('#fancy')", `"Open"`, `"Close the panel"`}},
		{"url", `I expect the URL to contain "/nope"`, []string{`Expected the URL to contain "/nope"`, `Received: "http://`, "/elements.html"}},
		{"title", `I expect the title to equal "Nope"`, []string{"toHaveTitle", `"Nope"`, `"Elements · Demo app"`}},
		{"page text", `I expect the page to contain the text "Not on this page"`, []string{"toBeVisible", `getByText('Not on this page')`}},
		{"memory", `I expect "$x" to equal "b"`, []string{`Expected "a" to equal "b"`, `Expected: "b"`, `Received: "a"`}},
		{"requests", `I expect a request to "**/api/nope" to have been made`, []string{`Expected the number of requests to "**/api/nope" to be greater than 0`, "Received: 0"}},
		{"storage", `I expect the local storage item "theme" to equal "dark"`, []string{`Expected the local storage item "theme" to equal "dark"`, "Received: null"}},
		{"within", `within 1 second, I expect the text of "h1" to equal "Later"`, []string{"within 1 second: ", "toHaveText", `Expected string: "Later"`, "Timeout: 1000ms"}},
		{"unknown page element", `I click "login > Nope"`, []string{`the page "login" (pages/login.yaml) has no element "Nope"; it has: "Heading"`}},
		{"ambiguous page element", `I click "Heading"`, []string{`"Heading" is defined by several pages (pages/forms.yaml:1, pages/login.yaml:1): write "forms > Heading" or "login > Heading"`}},
		{"not a page object", `I click "Sign up"`, []string{"locator.click: Timeout", `Note: "Sign up" is not a page-object name (page objects: forms > Heading, forms > Items, items > Item ({text}), login > Heading), so it was used as a CSS selector`, `'role=button[name="Sign up"]'`}},
		{"page object and selector", `I click "Items >> text=Buy milk"`, []string{`"Items >> text=Buy milk" is neither a page-object name nor a selector: "Items" is a page object (pages/forms.yaml:2)`, `('#items li >> text=Buy milk')`}},
		{"unknown remembered name", `I fill "#focus-me" with "${nope}"`, []string{`nothing is remembered as "nope"`}},
		{"every element", `I expect every attribute "class" of "#items li" to contain "selected"`, []string{"Expected every attribute \"class\" of locator('#items li') to contain \"selected\"\nbut 2 of 3 do not:\n  [2] \"item\"\n  [3] \"item\"\nLocator: locator('#items li')\nTimeout: 12"}},
		{"any element", `I expect any element of "#items li" to be hidden`, []string{"Expected any element of locator('#items li') to be hidden\nbut none of the 3 does:\n  [1] visible\n  [2] visible\n  [3] visible\n"}},
		{"every element of nothing", `I expect every element of "#nothing li" to be visible`, []string{"Expected every element of locator('#nothing li') to be visible\nbut the target matches no element\n"}},
		{"click until", `I click "#click-me" until the text of "#clicks" to equal "Clicked 99 times"`, []string{`Clicking "#click-me" `, ` did not make "I expect the text of "#clicks" to equal "Clicked 99 times"" pass; its last failure:`, `Expected string: "Clicked 99 times"`, `Received string: "Clicked `}},
		{"no download", `I click "#click-me" and save the download to "downloads/x.txt"`, []string{`clicking "#click-me" started no download within 12`, "(locator('#click-me'))"}},
		{"no response", `I wait for the "nope" response`, []string{`the "nope" response: no response to "**/api/nope" came within 12`, "(waiting since features/fail.feature:"}},
		{"soft", `I expect the text of "#banner" to equal "Banner"`, []string{"2 soft assertions failed:\n  1) I expect the text of \"h1\" to equal \"Soft one\"\n     at features/fail.feature:", `Expected string: "Soft one"`, "  2) I expect the title to equal \"Soft two\"\n     at features/fail.feature:", `"Soft two"`}},
		{"parameterised page object", `I expect the text of "Item (Walk the dog)" to equal "Walk"`, []string{"Locator: locator('#items li >> text=Walk the dog')", `Expected string: "Walk"`, `Received string: "Walk the dog"`}},
		{"unknown flow", `I call "No such flow"`, []string{`no flow is named "No such flow": a flow is a scenario tagged @flow (there are "Broken flow")`}},
		{"failing flow", `I call "Broken flow" with:`, []string{`the flow "Broken flow" (features/flows/broken.feature:3) failed at features/flows/broken.feature:5: Then I expect "$what" to equal "$other"` + "\n" + `Expected "a" to equal "b"`}},
		// Timeouts say why: the target as written, and Playwright's call log.
		{"hidden", `I click "#secret"`, []string{"locator.click: Timeout", `Target: "#secret"`, "Call log (last lines):", "waiting for locator('#secret')", "element is not visible"}},
		{"disabled", `I click "#save"`, []string{"locator.click: Timeout", `Target: "#save"`, "waiting for locator('#save')", "element is not enabled"}},
		{"detached", `I click "#banner"`, []string{"locator.click: Timeout", `Target: "#banner"`, "waiting for locator('#banner')"}},
		{"missing", `I click the first "#todo-list li button.destroy"`, []string{"locator.click: Timeout", `Target: the first "#todo-list li button.destroy"`, "waiting for locator('#todo-list li button.destroy').first()"}},
		// Lists are compared as lists, never joined into one string.
		{"every text", `I expect every text of "#items li" to start with "Buy"`, []string{`Expected every text of locator('#items li') to start with "Buy"`, "but 2 of 3 do not:", `[2] "Walk the dog"`, `[3] "Write tests"`}},
		{"any text", `I expect any text of "#items li" to equal "Feed the cat"`, []string{`Expected any text of locator('#items li') to equal "Feed the cat"`, "but none of the 3 does:", `[1] "Buy milk"`}},
		{"a list compared as one value", `I expect the texts of "#items li" to match "^Buy"`, []string{`"to match" compares one value`, `is a list`, `"every" or "any"`}},
		{"wait for a text", `I wait for the text "Never shown"`, []string{"locator.waitFor: Timeout", `Target: the text "Never shown", to be visible`, "getByText('Never shown')"}},
	} {
		msg, ok := got[tc.scenario]
		if !ok {
			t.Errorf("%s: did not fail", tc.scenario)
			continue
		}
		want := append(tc.want, fmt.Sprintf("at features/fail.feature:%d", lineOf(tc.step)))
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: the message lacks %q:\n%s", tc.scenario, w, msg)
			}
		}
		if tc.scenario == "page object and selector" && strings.Contains(msg, "Timeout") {
			t.Errorf("%s: failed by a timeout, not at once:\n%s", tc.scenario, msg)
		}
		if strings.Contains(msg, "ferridriver:steps/") {
			t.Errorf("%s: the message shows the library's source, not the feature's line:\n%s", tc.scenario, msg)
		}
	}
}

// A broken page-object file stops a run with its file and line (usage
// error, exit 2), but --print-config still shows the configuration.
func TestBrokenPageObjectFile(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"features/a.feature": "Feature: a\n  Scenario: s\n    Given I open \"/login\"\n",
		"pages/login.yaml":   "Heading: h1\nUser: getByRole('button'\n",
	})
	res := ferridriver(t, dir, "bdd", "--dry-run")
	if res.code != 2 || !strings.Contains(res.stderr, "pages/login.yaml:2") {
		t.Errorf("bdd: exit %d, want 2 and the file's line\n%s%s", res.code, res.stdout, res.stderr)
	}
	if res = ferridriver(t, dir, "bdd", "--print-config"); res.code != 0 || !strings.Contains(res.stdout, "[test]") {
		t.Errorf("bdd --print-config: exit %d, want 0 and the configuration\n%s%s", res.code, res.stdout, res.stderr)
	}
	// An error on the first line has its line and column too, and the
	// hint quotes the user's own key.
	testenv.WriteFiles(t, dir, map[string]string{"pages/login.yaml": "Items: getByRole('listitem', { name: 'Buy milk' })\n"})
	res = ferridriver(t, dir, "bdd", "--dry-run")
	if want := `pages/login.yaml:1:36: mapping values are not allowed in this context (a locator with ": " in it must be quoted: Items: "getByRole('listitem', { name: 'Buy milk' })")`; res.code != 2 || !strings.Contains(res.stderr, want) {
		t.Errorf("bdd: exit %d, want 2 and %s\n%s", res.code, want, res.stderr)
	}
}
