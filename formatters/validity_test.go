package formatters

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ferridriver/ferridriver/internal/oracles"
	"github.com/ferridriver/ferridriver/messages"
)

// jenkinsXSD is the JUnit schema the Jenkins JUnit plugin validates with
// (a copy of shared/reference/jenkins-junit.xsd).
const jenkinsXSD = "testdata/jenkins-junit.xsd"

// testStreams are every CCK stream, whole and cut short after a random
// testStepStarted (an interrupted run: testRunFinished success=false).
type testStream struct {
	name string
	envs []*messages.Envelope
}

func testStreams(t *testing.T) []testStream {
	var out []testStream
	for i, s := range cckStreams(t) {
		envs := oracles.ReadStream(t, s.path)
		out = append(out, testStream{s.name, envs})
		rng := rand.New(rand.NewSource(int64(i + 1)))
		if cut, ok := truncate(envs, rng); ok {
			out = append(out, testStream{s.name + "-interrupted", cut})
		}
	}
	return out
}

func xsdPath(t *testing.T) string {
	p, err := filepath.Abs(jenkinsXSD)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("the Jenkins JUnit XSD is missing: %v", err)
	}
	return p
}

// TestJUnitValidAgainstJenkinsXSD validates our junit for every whole and
// interrupted CCK stream with libxml2 (xmllint-wasm) against the Jenkins
// schema, and checks testcase names are unique.
func TestJUnitValidAgainstJenkinsXSD(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, s := range testStreams(t) {
		out := render(t, "junit", Options{}, s.envs)
		wellFormedUniqueNames(t, s.name, out)
		f := filepath.Join(dir, s.name+".xml")
		if err := os.WriteFile(f, out, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	raw := node(t, nil, "validate.mjs", append([]string{"xsd", xsdPath(t)}, files...)...)
	var results map[string][]string
	if err := json.Unmarshal(raw, &results); err != nil {
		t.Fatalf("validator output: %v: %s", err, raw)
	}
	for _, f := range files {
		if _, ok := results[f]; !ok {
			t.Fatalf("%s was not validated: %s", f, raw)
		}
	}
	for f, errs := range results {
		if len(errs) > 0 {
			t.Errorf("%s is not valid against the Jenkins XSD: %s", filepath.Base(f), strings.Join(errs, "; "))
		}
	}
	t.Logf("%d junit reports (46 whole and interrupted CCK streams) valid against the Jenkins XSD", len(files))
}

func wellFormedUniqueNames(t *testing.T, name string, doc []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	seen := map[[2]string]bool{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Errorf("%s: junit is not well-formed XML: %v", name, err)
			return
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "testcase" {
			var key [2]string
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "classname":
					key[0] = a.Value
				case "name":
					key[1] = a.Value
				}
			}
			if seen[key] {
				t.Errorf("%s: duplicate testcase %q / %q", name, key[0], key[1])
			}
			seen[key] = true
		}
	}
}

var (
	jsonSchemaOnce sync.Once
	jsonSchema     *jsonschema.Schema
	jsonSchemaErr  error
)

// cucumberJSSchema compiles the cucumber-js JSON report schema with the two
// extensions cucumber-js's own output needs (and so ours has): the
// `embeddings` of steps and hooks, and the "ambiguous" status.
func cucumberJSSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw := node(t, nil, "validate.mjs", "cucumber-js-json-schema")
	jsonSchemaOnce.Do(func() {
		var doc map[string]any
		if jsonSchemaErr = json.Unmarshal(raw, &doc); jsonSchemaErr != nil {
			return
		}
		defs := doc["definitions"].(map[string]any)
		embeddings := map[string]any{
			"type": "array",
			"items": map[string]any{
				"type":                 "object",
				"properties":           map[string]any{"data": map[string]any{"type": "string"}, "mime_type": map[string]any{"type": "string"}},
				"required":             []any{"data", "mime_type"},
				"additionalProperties": false,
			},
		}
		for _, d := range []string{"JsStep", "JsHookStep"} {
			defs[d].(map[string]any)["properties"].(map[string]any)["embeddings"] = embeddings
		}
		st := defs["JsStatus"].(map[string]any)
		st["enum"] = append(st["enum"].([]any), "ambiguous")
		c := jsonschema.NewCompiler()
		if jsonSchemaErr = c.AddResource("cucumber-js.json", doc); jsonSchemaErr != nil {
			return
		}
		jsonSchema, jsonSchemaErr = c.Compile("cucumber-js.json")
	})
	if jsonSchemaErr != nil {
		t.Fatal(jsonSchemaErr)
	}
	return jsonSchema
}

// TestJSONValidAgainstSchema validates our json for every whole and
// interrupted CCK stream against the cucumber-js JSON schema.
func TestJSONValidAgainstSchema(t *testing.T) {
	schema := cucumberJSSchema(t)
	n := 0
	for _, s := range testStreams(t) {
		out := render(t, "json", Options{}, s.envs)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Errorf("%s: json report is not JSON: %v", s.name, err)
			continue
		}
		if err := schema.Validate(inst); err != nil {
			t.Errorf("%s: json report not valid against the cucumber-js schema: %v", s.name, err)
			continue
		}
		n++
	}
	t.Logf("%d json reports valid against the cucumber-js schema", n)
}

// TestHTMLEmbedsTheStream renders every whole and interrupted CCK stream
// with the official html formatter and checks the page carries every
// envelope.
func TestHTMLEmbedsTheStream(t *testing.T) {
	t.Setenv(EnvHTMLFormatter, filepath.Join(oracles.NodeModules(t), "@cucumber", "html-formatter"))
	streams := testStreams(t)
	var mu sync.Mutex
	ok := 0
	for _, s := range streams {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			page := render(t, "html", Options{}, s.envs)
			if !bytes.HasPrefix(page, []byte("<!DOCTYPE html>")) || !bytes.HasSuffix(bytes.TrimSpace(page), []byte("</html>")) {
				t.Fatalf("not an html page: %.100s", page)
			}
			const open = "window.CUCUMBER_MESSAGES = ["
			i := bytes.Index(page, []byte(open))
			j := bytes.Index(page[i:], []byte("];\n</script>"))
			if i < 0 || j < 0 {
				t.Fatal("no embedded messages")
			}
			// The formatter escapes "<" as \x3C, which is not JSON.
			data := bytes.ReplaceAll(page[i+len(open)-1:i+j+1], []byte(`\x3C`), []byte(`\u003c`))
			var embedded []map[string]any
			if err := json.Unmarshal(data, &embedded); err != nil {
				t.Fatalf("embedded messages are not JSON: %v", err)
			}
			if len(embedded) != len(s.envs) {
				t.Fatalf("page embeds %d messages, want %d", len(embedded), len(s.envs))
			}
			for k, e := range s.envs {
				if _, has := embedded[k][e.Kind()]; !has {
					t.Fatalf("message %d: want %s, page has %v", k, e.Kind(), embedded[k])
				}
			}
			mu.Lock()
			ok++
			mu.Unlock()
		})
	}
	t.Cleanup(func() { t.Logf("%d/%d html reports embed their whole stream", ok, len(streams)) })
}

// TestHTMLMissingPackageFailsAlone: without the package the html format
// fails with the fix in its message, and the other formats are written.
func TestHTMLMissingPackageFailsAlone(t *testing.T) {
	t.Setenv(EnvHTMLFormatter, filepath.Join(t.TempDir(), "nowhere"))
	dir := t.TempDir()
	var stderr bytes.Buffer
	set, err := NewSet([]Spec{{Name: "html", Path: "r.html"}, {Name: "junit", Path: "r.xml"}}, Options{Cwd: dir}, io.Discard, &stderr, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range oracles.ReadStream(t, cckStreams(t)[0].path) {
		set.Handle(e)
	}
	set.Close()
	if !set.Failed() || !strings.Contains(stderr.String(), EnvHTMLFormatter) || !strings.Contains(stderr.String(), "ferridriver install") {
		t.Fatalf("want one html failure naming the fix, got %q", stderr.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "r.xml")); err != nil || !bytes.Contains(b, []byte("<testsuite")) {
		t.Fatalf("junit not written: %v %q", err, b)
	}
}

// TestEveryFormatSurvivesInterruptedStreams feeds every format every
// interrupted CCK stream, and a stream that stops without testRunFinished.
func TestEveryFormatSurvivesInterruptedStreams(t *testing.T) {
	for _, s := range testStreams(t) {
		if !strings.HasSuffix(s.name, "-interrupted") {
			continue
		}
		noFinish := s.envs[:len(s.envs)-1]
		for _, name := range Names() {
			if name == "html" || strings.HasPrefix(name, "test-") {
				continue // html: TestHTMLEmbedsTheStream
			}
			for _, envs := range [][]*messages.Envelope{s.envs, noFinish} {
				out := render(t, name, Options{TTY: name == "progress-bar"}, envs)
				if len(out) == 0 && name != "rerun" && name != "snippets" {
					t.Errorf("%s: %s wrote nothing", s.name, name)
				}
			}
		}
	}
}

type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// TestWriteErrorsAreReturned: a format that cannot write says so from
// Handle or Close (the Set then reports it and drops only that format).
func TestWriteErrorsAreReturned(t *testing.T) {
	t.Setenv(EnvHTMLFormatter, filepath.Join(oracles.NodeModules(t), "@cucumber", "html-formatter"))
	envs := oracles.CCKStream(t, "examples-tables")
	for _, name := range Names() {
		if strings.HasPrefix(name, "test-") {
			continue
		}
		registryMu.RLock()
		f, err := registry[name](Options{Out: brokenWriter{}, FormatOptions: map[string]any{}, TTY: name == "progress-bar"})
		registryMu.RUnlock()
		if err != nil {
			t.Fatal(err)
		}
		var got error
		for _, e := range envs {
			if got = f.Handle(e); got != nil {
				break
			}
		}
		if got == nil {
			got = f.Close()
		}
		if got == nil || !strings.Contains(got.Error(), io.ErrClosedPipe.Error()) {
			t.Errorf("%s: a write error was not returned (got %v)", name, got)
		}
	}
}
