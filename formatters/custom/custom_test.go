package custom

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ferridriver/ferridriver/formatters"
	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/messages"
)

// runSet writes files in a temp project, builds a formatters.Set of specs
// with custom formatters, feeds it the CCK sample's stream and closes it.
// It returns the project directory, stdout and what the Set reported.
func runSet(t *testing.T, files map[string]string, sample string, o Options, specs ...string) (dir, stdout, errOut string, failed bool) {
	t.Helper()
	dir = t.TempDir()
	testenv.WriteFiles(t, dir, files)
	var sps []formatters.Spec
	for _, s := range specs {
		sp, err := formatters.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		sps = append(sps, sp)
	}
	o.Dir = dir
	var out, errb bytes.Buffer
	o.Stdout, o.Stderr = &out, &errb
	set, err := formatters.NewSet(sps, formatters.Options{Cwd: dir, FormatOptions: map[string]any{}, Custom: Factory(o)}, &out, &errb, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range oracles.CCKStream(t, sample) {
		set.Handle(env)
	}
	set.Close()
	return dir, out.String(), errb.String(), set.Failed()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestCustomFormatterOutputs: a Formatter subclass writes to its --format
// file, a plugin (async formatter(), a cleanup) to stdout; both see every
// envelope in stream order, the subclass after its construction too.
func TestCustomFormatterOutputs(t *testing.T) {
	files := map[string]string{
		"kinds.js": `const { Formatter } = require('@cucumber/cucumber')
module.exports = class Kinds extends Formatter {
  constructor(options) {
    super(options)
    this.log('steps known: ' + options.supportCodeLibrary.stepDefinitions.length + '\n')
    options.eventBroadcaster.on('envelope', (e) => this.log(Object.keys(e)[0] + '\n'))
  }
}`,
		"plugin.mjs": `export default {
  type: 'formatter',
  async formatter({ on, write, options }) {
    await new Promise((r) => setTimeout(r, 10))
    let n = 0
    on('message', () => n++)
    return async () => write(options.label + ': ' + n + ' envelopes\n')
  },
  optionsKey: 'mine',
}`,
	}
	var want strings.Builder
	envs := oracles.CCKStream(t, "minimal")
	want.WriteString("steps known: 1\n")
	for _, env := range envs {
		want.WriteString(kindOf(env) + "\n")
	}
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, files)
	var out, errb bytes.Buffer
	set, err := formatters.NewSet([]formatters.Spec{{Name: "./kinds.js", Path: "reports/kinds.txt"}, {Name: "./plugin.mjs"}},
		formatters.Options{Cwd: dir, FormatOptions: map[string]any{"mine": map[string]any{"label": "plugin"}}, Custom: Factory(Options{Dir: dir, Stdout: &out, Stderr: &errb})},
		&out, &errb, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range envs {
		set.Handle(env)
	}
	set.Close()
	if set.Failed() {
		t.Fatalf("failed: %s", errb.String())
	}
	if got := readFile(t, filepath.Join(dir, "reports", "kinds.txt")); got != want.String() {
		t.Errorf("kinds.txt:\n%s\nwant\n%s", got, want.String())
	}
	if got, w := out.String(), "plugin: "+strconv.Itoa(len(envs))+" envelopes\n"; got != w {
		t.Errorf("stdout %q, want %q", got, w)
	}
}

func kindOf(env *messages.Envelope) string {
	data, _ := json.Marshal(env)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(data, &m)
	for k := range m {
		return k
	}
	return ""
}

// TestJsonFormatterPrintsTheBuiltInReport: a JsonFormatter subclass
// prints what ferridriver's json format writes for the same stream.
func TestJsonFormatterPrintsTheBuiltInReport(t *testing.T) {
	dir, _, errOut, failed := runSet(t, map[string]string{
		"json.js": "const { JsonFormatter } = require('@cucumber/cucumber')\nmodule.exports = class extends JsonFormatter {}\n",
	}, "attachments", Options{}, "./json.js:out.json")
	if failed {
		t.Fatal(errOut)
	}
	var want bytes.Buffer
	f, err := formatters.New("json", formatters.Options{Out: &want, Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range oracles.CCKStream(t, "attachments") {
		if err := f.Handle(env); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	if got := readFile(t, filepath.Join(dir, "out.json")); got != want.String() || got == "" {
		t.Errorf("JsonFormatter wrote %d bytes, the json format %d", len(got), want.Len())
	}
}

// TestCustomFormatterErrors: what cannot load is an error before the run,
// naming the module; a formatter that throws, rejects or never finishes
// fails alone, reported once with where, and the other formats complete.
func TestCustomFormatterErrors(t *testing.T) {
	loadErrors := []struct {
		name, spec, file, want string
	}{
		{"missing module", "./nowhere.js", "", `Could not resolve "./nowhere.js"`},
		{"unknown name", "junt", "", `unknown format "junt": not one of ferridriver's formats (html, json, junit, message`},
		{"no formatter", "./empty.js", "module.exports = { answer: 42 }\n", "./empty.js does not export a function/class"},
		{"syntax error", "./broken.js", "module.exports = class {\n", "broken.js:2:"},
		{"throws at load", "./throws.js", "throw new Error('no config')\n", "throws.js:1:"},
		{"throws at load, said", "./throws.js", "throw new Error('no config')\n", "Error: no config"},
	}
	for _, tc := range loadErrors {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.file != "" {
				testenv.WriteFiles(t, dir, map[string]string{strings.TrimPrefix(tc.spec, "./"): tc.file})
			}
			var errb bytes.Buffer
			_, err := formatters.NewSet([]formatters.Spec{{Name: tc.spec}}, formatters.Options{Cwd: dir, Custom: Factory(Options{Dir: dir, Stdout: &errb, Stderr: &errb})}, &errb, &errb, false)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}

	runErrors := []struct {
		name, src, want string
	}{
		{"throws", `const { Formatter } = require('@cucumber/cucumber')
module.exports = class extends Formatter {
  constructor(o) {
    super(o)
    o.eventBroadcaster.on('envelope', (e) => {
      if (e.testCaseStarted) throw new TypeError('cannot handle ' + e.testCaseStarted.attempt)
    })
  }
}`, "TypeError: cannot handle 0\n    at f.js:6:"},
		{"rejects", `module.exports = { type: 'formatter', formatter({ on }) {
  on('message', (e) => { if (e.testRunFinished) Promise.reject(new Error('lost upload')) })
} }`, "unhandled rejection: Error: lost upload"},
		{"never finishes", `const { Formatter } = require('@cucumber/cucumber')
module.exports = class extends Formatter { finished() { return new Promise(() => {}) } }`, "finishing timed out after 300 ms"},
	}
	for _, tc := range runErrors {
		t.Run(tc.name, func(t *testing.T) {
			_, stdout, errOut, failed := runSet(t, map[string]string{"f.js": tc.src}, "minimal", Options{FinishTimeout: 300 * time.Millisecond}, "./f.js:f.txt", "message")
			if !failed || strings.Count(errOut, "format ./f.js:f.txt failed") != 1 || !strings.Contains(errOut, tc.want) {
				t.Fatalf("failed %v, reported:\n%s\nwant once, with %q", failed, errOut, tc.want)
			}
			if n := strings.Count(stdout, "\n"); n != len(oracles.CCKStream(t, "minimal")) {
				t.Errorf("the message format wrote %d envelopes", n)
			}
		})
	}
}

// TestSlowFormatterDoesNotHoldTheStream: a formatter that takes long over
// an envelope does not slow the stream that feeds it (the run's workers);
// Close waits for it.
func TestSlowFormatterDoesNotHoldTheStream(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"slow.js": `module.exports = { type: 'formatter', formatter({ on, write }) {
  let n = 0
  on('message', () => { if (n++ === 0) { const end = Date.now() + 3000; while (Date.now() < end) {} } })
  return () => write(n + '\n')
} }`})
	var out bytes.Buffer
	set, err := formatters.NewSet([]formatters.Spec{{Name: "./slow.js"}}, formatters.Options{Cwd: dir, Custom: Factory(Options{Dir: dir, Stdout: &out, Stderr: &out})}, &out, &out, false)
	if err != nil {
		t.Fatal(err)
	}
	envs := oracles.CCKStream(t, "minimal")
	start := time.Now()
	for _, env := range envs {
		set.Handle(env)
	}
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("feeding the stream took %v: the formatter held it", d)
	}
	set.Close()
	if got, want := out.String(), strconv.Itoa(len(envs))+"\n"; got != want {
		t.Errorf("out %q, want %q", got, want)
	}
}

// TestCustomFormatterColours: a formatter's colorFns, util.styleText and
// process.env.FORCE_COLOR follow ferridriver's colour decision for its
// output: colours on a coloured stdout, none in a file.
func TestCustomFormatterColours(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"colours.js": `const { Formatter } = require('@cucumber/cucumber')
const { styleText } = require('node:util')
module.exports = class extends Formatter {
  constructor(options) {
    super(options)
    this.log([this.colorFns.forStatus('FAILED')('failed'), this.colorFns.location('here'), styleText('green', 'own'), process.env.FORCE_COLOR].join(' ') + '\n')
  }
}`})
	var out, errb bytes.Buffer
	set, err := formatters.NewSet([]formatters.Spec{{Name: "./colours.js"}, {Name: "./colours.js", Path: "colours.txt"}},
		formatters.Options{Cwd: dir, FormatOptions: map[string]any{}, Color: true, Custom: Factory(Options{Dir: dir, Stdout: &out, Stderr: &errb})}, &out, &errb, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range oracles.CCKStream(t, "minimal") {
		set.Handle(env)
	}
	set.Close()
	if set.Failed() {
		t.Fatal(errb.String())
	}
	if got, want := out.String(), "\x1b[31mfailed\x1b[39m \x1b[90mhere\x1b[39m \x1b[32mown\x1b[39m 1\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if got, want := readFile(t, filepath.Join(dir, "colours.txt")), "failed here own 0\n"; got != want {
		t.Errorf("colours.txt %q, want %q", got, want)
	}
}
