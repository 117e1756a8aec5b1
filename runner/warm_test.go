package runner

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/jsbridge"
)

// TestRunRemembersPolyfillsOfTheRun: the Node polyfills and packed
// modules that the run's code first required in a hook (cucumber-js's
// formatter helpers) are recorded with the bundle, so that the next run
// compiles them in the background as it starts.
func TestRunRemembersPolyfillsOfTheRun(t *testing.T) {
	cacheDir := t.TempDir()
	cache, err := jsbridge.OpenCache(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	s := newSuite(t, map[string]string{
		"features/a.feature": "Feature: f\n  Scenario: a\n    Given a step\n",
		"steps/steps.js": `const cucumber = require('@cucumber/cucumber')
const { Before, Given } = cucumber
Before(function ({ gherkinDocument, pickle }) { this.line = cucumber.formatterHelpers.PickleParser.getPickleLocation({ gherkinDocument, pickle }).line })
Given('a step', function () { if (this.line !== 2) throw new Error('line ' + this.line) })
`,
	}).run(Options{Cache: cache})
	if !s.res.Success {
		t.Fatalf("run failed: %s", s.stderr.String())
	}
	var warm string
	_ = filepath.WalkDir(cacheDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".warm") {
			data, _ := os.ReadFile(path)
			warm += string(data)
		}
		return nil
	})
	if !strings.Contains(warm, "@cucumber/cucumber/lib/formatter/helpers/pickle_parser.js") {
		t.Errorf("the modules the hook required are not remembered:\n%s", warm)
	}
}
