// Package godogtest holds the helpers of godogworld's tests and its
// subpackages': running a godog suite over in-memory features around a
// Suite, reading godog's cucumber JSON, and validating it with the
// official Cucumber JSON converter.
package godogtest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/cucumber/godog"

	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/internal/oracles"
)

// Feature is godog's cucumber JSON of a feature (the parts the tests read).
type Feature struct {
	Name     string    `json:"name"`
	Elements []Element `json:"elements"`
}

// Element is a scenario of the cucumber JSON.
type Element struct {
	Name  string `json:"name"`
	Steps []Step `json:"steps"`
}

// Step is a step of the cucumber JSON.
type Step struct {
	Keyword string `json:"keyword"`
	Name    string `json:"name"`
	Match   struct {
		Location string `json:"location"`
	} `json:"match"`
	Result struct {
		Status string `json:"status"`
		Error  string `json:"error_message"`
	} `json:"result"`
	Embeddings []struct {
		Name     string `json:"name"`
		MimeType string `json:"mime_type"`
		Data     string `json:"data"`
	} `json:"embeddings"`
}

// Run runs a godog suite over features (name -> Gherkin) with the Suite's
// initializers around init, and returns godog's exit status and its
// cucumber JSON report (raw and parsed). extra formats (godog's Format
// syntax, "" for none) are added to the cucumber one.
func Run(t *testing.T, s *godogworld.Suite, features map[string]string, concurrency int, init func(*godog.ScenarioContext), extra string) (int, []byte, []Feature) {
	t.Helper()
	var contents []godog.Feature
	for name, src := range features {
		contents = append(contents, godog.Feature{Name: name, Contents: []byte(src)})
	}
	format := "cucumber"
	if extra != "" {
		format += "," + extra
	}
	var out bytes.Buffer
	status := godog.TestSuite{
		Name:                 t.Name(),
		TestSuiteInitializer: s.TestSuiteInitializer(nil),
		ScenarioInitializer:  s.ScenarioInitializer(init),
		Options: &godog.Options{
			Format: format, Output: &out, NoColors: true, Strict: true,
			FeatureContents: contents, Concurrency: concurrency,
		},
	}.Run()
	var report []Feature
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatalf("godog's cucumber report is not JSON: %v\n%s", err, out.Bytes())
	}
	return status, out.Bytes(), report
}

// ScenarioSteps returns the steps of the scenario named name.
func ScenarioSteps(t *testing.T, report []Feature, name string) []Step {
	t.Helper()
	for _, f := range report {
		for _, e := range f.Elements {
			if e.Name == name {
				return e.Steps
			}
		}
	}
	t.Fatalf("no scenario %q in the report", name)
	return nil
}

// Writer sends what is written to the test log.
type Writer struct{ T *testing.T }

func (w Writer) Write(p []byte) (int, error) {
	w.T.Logf("%s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}

// ValidateCucumberJSON checks godog's report with the schemas published
// by the official Cucumber JSON converter (cucumber-json.mjs says how)
// and that the screenshots are well-formed embeddings.
func ValidateCucumberJSON(t *testing.T, raw []byte) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is required to run the Cucumber JSON converter: %v", err)
	}
	_, self, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(self), "cucumber-json.mjs")
	cmd := exec.Command("node", script, oracles.NodeModules(t))
	cmd.Stdin = bytes.NewReader(raw)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	var res struct {
		Errors       []string        `json:"errors"`
		Converted    json.RawMessage `json:"converted"`
		ConvertError string          `json:"convertError"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, e := range res.Errors {
		t.Errorf("godog's report is not valid against the cucumber-ruby JSON schema: %s", e)
	}
	if res.ConvertError != "" {
		t.Errorf("the Cucumber JSON converter rejects godog's report: %s", res.ConvertError)
	}
	var report []Feature
	if err := json.Unmarshal(raw, &report); err != nil {
		t.Fatal(err)
	}
	shots := 0
	for _, f := range report {
		for _, e := range f.Elements {
			for _, s := range e.Steps {
				for _, em := range s.Embeddings {
					if em.MimeType != "image/png" {
						continue
					}
					b, err := base64.StdEncoding.DecodeString(em.Data)
					if err != nil {
						t.Errorf("%s: embedding is not base64: %v", s.Name, err)
					} else if _, err := png.DecodeConfig(bytes.NewReader(b)); err != nil {
						t.Errorf("%s: embedded image is not a PNG: %v", s.Name, err)
					}
					shots++
				}
			}
		}
	}
	if shots == 0 {
		t.Error("the report embeds no screenshot")
	}
}
