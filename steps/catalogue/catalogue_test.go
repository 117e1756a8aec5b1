package catalogue

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/jsbridge"
)

func lib(file string, line int) jsbridge.SourceRef {
	return jsbridge.SourceRef{URI: jsbridge.LibraryScheme + "steps/" + file, Line: line}
}

// sample is a small registry: two library files, a project file, a
// regular expression and a defineStep, and two parameter types.
func sample() *jsbridge.Registry {
	return &jsbridge.Registry{
		Steps: []*jsbridge.StepDef{
			{Keyword: "Given", Pattern: "I open {string}", Description: "Opens a URL.\nRelative to baseURL.", Examples: []string{`Given I open "/login"`}, Source: lib("navigation.ts", 6)},
			{Keyword: "Then", Pattern: "I expect the URL {validation} {string}", Description: "Checks the URL.", Examples: []string{`Then I expect the URL to contain "/a"`, `Then I expect the URL not to match "b|c"`}, Source: lib("navigation.ts", 14)},
			{Keyword: "When", Pattern: "I send:", Description: "Sends a request.", Examples: []string{"When I send:\n  \"\"\"\n  GET /\n  \"\"\""}, Source: lib("api/request.ts", 3)},
			{Keyword: "Given", Pattern: "I am logged in as {word}", Source: jsbridge.SourceRef{URI: "steps/login.ts", Line: 4}},
			{Keyword: "", Pattern: `^I wait (\d+)/s$`, IsRegexp: true, Flags: "i", Source: jsbridge.SourceRef{URI: "steps/login.ts", Line: 9}},
		},
		ParamTypes: []*jsbridge.ParamTypeDef{
			{Name: "validation", Regexps: []string{"(?:not )?to (?:equal|contain)"}, Source: lib("validation.ts", 43)},
			{Name: "color", Regexps: []string{"red|blue", `\/dark`}, Source: jsbridge.SourceRef{URI: "steps/colors.ts", Line: 2}},
		},
	}
}

func TestFromRegistry(t *testing.T) {
	c := FromRegistry(sample())
	var got []string
	for _, s := range c.Steps {
		got = append(got, s.Category+"|"+s.Title()+"|"+s.Source+"|"+s.Type)
	}
	want := []string{
		"navigation|Given I open {string}|ferridriver:steps/navigation.ts:6|CucumberExpression",
		"navigation|Then I expect the URL {validation} {string}|ferridriver:steps/navigation.ts:14|CucumberExpression",
		"api/request|When I send:|ferridriver:steps/api/request.ts:3|CucumberExpression",
		"steps/login.ts|Given I am logged in as {word}|steps/login.ts:4|CucumberExpression",
		`steps/login.ts|/^I wait (\d+)/s$/i|steps/login.ts:9|RegularExpression`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if b, p := c.Counts(); b != 3 || p != 2 {
		t.Fatalf("counts %d %d", b, p)
	}
	if s := c.Steps[0].Summary(); s != "Opens a URL." {
		t.Fatalf("summary %q", s)
	}
	var groups []string
	for _, g := range c.Groups() {
		groups = append(groups, g.Category)
	}
	if !slices.Equal(groups, []string{"navigation", "api/request", "steps/login.ts"}) {
		t.Fatalf("groups %q", groups)
	}
	if b := c.BuiltinOnly(); len(b.Steps) != 3 || len(b.ParameterTypes) != 1 || b.ParameterTypes[0].Name != "validation" {
		t.Fatalf("builtin only: %+v", b)
	}
}

func TestFilter(t *testing.T) {
	c := FromRegistry(sample())
	for _, tc := range []struct {
		filter string
		steps  []string
		params []string
	}{
		{"", []string{"I open {string}", "I expect the URL {validation} {string}", "I send:", "I am logged in as {word}", `^I wait (\d+)/s$`}, []string{"validation", "color"}},
		{"url", []string{"I open {string}", "I expect the URL {validation} {string}"}, []string{"validation"}}, // expression or description
		{"URL checks", []string{"I expect the URL {validation} {string}"}, []string{"validation"}},
		{"relative", []string{"I open {string}"}, []string{}}, // the description's second line
		{"api", []string{"I send:"}, []string{}},              // the category
		{"steps/login.ts", []string{"I am logged in as {word}", `^I wait (\d+)/s$`}, []string{}},
		{"open nothing", []string{}, []string{}},
	} {
		t.Run(tc.filter, func(t *testing.T) {
			f := c.Filter(tc.filter)
			var steps, params []string
			for _, s := range f.Steps {
				steps = append(steps, s.Expression)
			}
			for _, p := range f.ParameterTypes {
				params = append(params, p.Name)
			}
			if !slices.Equal(steps, tc.steps) && !(len(steps) == 0 && len(tc.steps) == 0) {
				t.Errorf("steps %q, want %q", steps, tc.steps)
			}
			if !slices.Equal(params, tc.params) && !(len(params) == 0 && len(tc.params) == 0) {
				t.Errorf("parameter types %q, want %q", params, tc.params)
			}
		})
	}
}

func TestText(t *testing.T) {
	got := FromRegistry(sample()).Text()
	want := `navigation (built-in)
  Given I open {string}                        # ferridriver:steps/navigation.ts:6
      Opens a URL.
      e.g. Given I open "/login"
  Then I expect the URL {validation} {string}  # ferridriver:steps/navigation.ts:14
      Checks the URL.
      e.g. Then I expect the URL to contain "/a"
           Then I expect the URL not to match "b|c"

api/request (built-in)
  When I send:  # ferridriver:steps/api/request.ts:3
      Sends a request.
      e.g. When I send:
             """
             GET /
             """

steps/login.ts
  Given I am logged in as {word}  # steps/login.ts:4
  /^I wait (\d+)/s$/i             # steps/login.ts:9

Parameter types
  {validation}  /(?:not )?to (?:equal|contain)/  # ferridriver:steps/validation.ts:43
  {color}  /red|blue/ /\/dark/  # steps/colors.ts:2

5 steps (3 built-in, 2 in the project)
`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := (&Catalogue{}).Text(); got != "0 steps (0 built-in, 0 in the project)\n" {
		t.Fatalf("empty: %q", got)
	}
}

func TestJSON(t *testing.T) {
	b, err := FromRegistry(sample()).JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Catalogue
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	s := back.Steps[1]
	if s.Expression != "I expect the URL {validation} {string}" || s.Keyword != "Then" || s.Category != "navigation" || !s.Builtin || len(s.Examples) != 2 || s.Source != "ferridriver:steps/navigation.ts:14" {
		t.Fatalf("step %+v", s)
	}
	if r := back.Steps[4]; r.Type != RegularExpression || r.Flags != "i" || r.Builtin || r.Examples == nil {
		t.Fatalf("regexp step %+v (examples must be [] not null)", r)
	}
	if p := back.ParameterTypes[1]; p.Name != "color" || len(p.Regexps) != 2 || p.Builtin {
		t.Fatalf("parameter type %+v", p)
	}
	if b, _ := (&Catalogue{Steps: []Step{{Expression: "a <b> & c"}}}).JSON(); !strings.Contains(string(b), `"a <b> & c"`) {
		t.Fatalf("JSON escapes HTML: %s", b)
	}
}

func TestMarkdown(t *testing.T) {
	got := FromRegistry(sample()).BuiltinOnly().Markdown()
	want := "3 built-in steps in 2 categories.\n\n" +
		"- [navigation](#navigation) (2)\n" +
		"- [api/request](#apirequest) (1)\n" +
		"- [Parameter types](#parameter-types)\n" +
		"\n### navigation\n\nBuilt-in, from `ferridriver:steps/navigation.ts`.\n\n" +
		"| Step | What it does | Example |\n|---|---|---|\n" +
		"| `Given I open {string}` | Opens a URL. Relative to baseURL. | `Given I open \"/login\"` |\n" +
		"| `Then I expect the URL {validation} {string}` | Checks the URL. | `Then I expect the URL to contain \"/a\"`<br>`Then I expect the URL not to match \"b\\|c\"` |\n" +
		"\n### api/request\n\nBuilt-in, from `ferridriver:steps/api/request.ts`.\n\n" +
		"| Step | What it does | Example |\n|---|---|---|\n" +
		"| `When I send:` | Sends a request. | `When I send:`<br>`  \"\"\"`<br>`  GET /`<br>`  \"\"\"` |\n" +
		"\n### Parameter types\n\n| Name | Regular expression | Source |\n|---|---|---|\n" +
		"| `{validation}` | `/(?:not )?to (?:equal\\|contain)/` | `ferridriver:steps/validation.ts:43` |\n"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if all := FromRegistry(sample()).Markdown(); !strings.HasPrefix(all, "5 steps (3 built-in, 2 in the project).\n") || !strings.Contains(all, "\n### steps/login.ts\n\n| Step |") {
		t.Fatalf("with project steps:\n%s", all)
	}
}

func TestMarkdownCode(t *testing.T) {
	for in, want := range map[string]string{
		"plain":         "`plain`",
		"a|b":           "`a\\|b`",
		"use `x` here":  "``use `x` here``",
		"`edge`":        "`` `edge` ``",
		"two\nlines":    "`two`<br>`lines`",
		"table | a | b": "`table \\| a \\| b`",
	} {
		if got := mdCode(in); got != want {
			t.Errorf("mdCode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplice(t *testing.T) {
	for _, tc := range []struct {
		name, doc, want, err string
	}{
		{name: "replaces between the markers", doc: "# Steps\n\nIntro.\n\n" + BeginMarker + "\nold\nlines\n" + EndMarker + "\n\nOutro.\n",
			want: "# Steps\n\nIntro.\n\n" + BeginMarker + "\nnew\n" + EndMarker + "\n\nOutro.\n"},
		{name: "empty file", doc: "", want: BeginMarker + "\nnew\n" + EndMarker + "\n"},
		{name: "no markers: appended", doc: "# Mine", want: "# Mine\n\n" + BeginMarker + "\nnew\n" + EndMarker + "\n"},
		{name: "end only", doc: "x\n" + EndMarker + "\n", err: "must both be there"},
		{name: "reversed", doc: EndMarker + "\n" + BeginMarker + "\n", err: "must both be there"},
		{name: "twice", doc: BeginMarker + "\n" + EndMarker + "\n" + BeginMarker + "\n" + EndMarker + "\n", err: "one line only"},
		{name: "mentioned in the text", doc: "Between `" + BeginMarker + "` and `" + EndMarker + "`:\n\n  " + BeginMarker + "  \nold\n" + EndMarker,
			want: "Between `" + BeginMarker + "` and `" + EndMarker + "`:\n\n  " + BeginMarker + "  \nnew\n" + EndMarker},
		{name: "not on lines of their own: mentions", doc: BeginMarker + " " + EndMarker + "\n", want: BeginMarker + " " + EndMarker + "\n\n" + BeginMarker + "\nnew\n" + EndMarker + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Splice(tc.doc, "new\n\n")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q (%v), want %q", got, err, tc.want)
			}
			if g, ok := Generated(got); !ok || g != "new\n" {
				t.Fatalf("Generated = %q %v", g, ok)
			}
		})
	}
}

func TestGlue(t *testing.T) {
	got := FromRegistry(sample()).Glue("1.2.3")
	for _, want := range []string{
		"(ferridriver 1.2.3)",
		"import { Given, When, Then, defineParameterType } from '@cucumber/cucumber'",
		"export function ferridriverBuiltinSteps(): void {\n",
		"  defineParameterType({ name: 'validation', regexp: /(?:not )?to (?:equal|contain)/ })\n",
		"  defineParameterType({ name: 'color', regexp: [/red|blue/, /\\/dark/] })\n",
		"  // Opens a URL.\n  // Relative to baseURL.\n  //   Given I open \"/login\"\n  // ferridriver:steps/navigation.ts:6\n  Given('I open {string}', function () {})\n",
		"  Then('I expect the URL {validation} {string}', function () {})\n",
		"  //   When I send:\n  //     \"\"\"\n",
		"  Given('I am logged in as {word}', function () {})\n",
		// defineStep becomes Given; the regular expression keeps its flags.
		"  Given(/^I wait (\\d+)\\/s$/i, function () {})\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("glue lacks %q:\n%s", want, got)
		}
	}
	if !strings.HasSuffix(got, "}\n") {
		t.Errorf("glue does not close its function:\n%s", got)
	}
}

func TestLiterals(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`it's {int}`, `'it\'s {int}'`},
		{`a \(b\) c\/d`, `'a \(b\) c\/d'`},
	} {
		if got := stringLiteral(tc.in); got != tc.want {
			t.Errorf("stringLiteral(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ src, flags, want string }{
		{`a/b`, "", `/a\/b/`},
		{`a\/b`, "g", `/a\/b/g`},
		{`[/]x`, "", `/[/]x/`},
		{`\[/\]`, "", `/\[\/\]/`},
		{"", "", `/(?:)/`},
	} {
		if got := regexpLiteral(tc.src, tc.flags); got != tc.want {
			t.Errorf("regexpLiteral(%q) = %s, want %s", tc.src, got, tc.want)
		}
	}
}
