package jssteps_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/godogworld/jssteps"
	"github.com/ferridriver/ferridriver/internal/testenv"
	"github.com/ferridriver/ferridriver/world"
)

// TestLoadOptions reads ferridriver.toml as bdd does, with relative
// [browser] paths made relative to the project directory.
func TestLoadOptions(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"ferridriver.toml": `
extensions = ["tools"]
[test]
steps = ["steps/**/*.ts"]
worldParameters = { userName = "Ada" }
[browser]
baseURL = "http://127.0.0.1:4173"
storageState = "auth/state.json"
outputDir = "/tmp/out"
screenshot = "on"
[bundler]
alias = { "~lib" = "./lib" }
[scripting]
allowEnv = ["GODOGWORLD_TEST_VAR"]
`})
	t.Setenv("GODOGWORLD_TEST_VAR", "visible")
	t.Setenv("FERRIDRIVER_BROWSER_HEADLESS", "false")
	o, err := jssteps.LoadOptions(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := o.Browser
	if b.BaseURL != "http://127.0.0.1:4173" || b.StorageState != filepath.Join(dir, "auth", "state.json") ||
		b.OutputDir != "/tmp/out" || b.ScreenshotMode() != world.ModeOn || b.IsHeadless() {
		t.Errorf("browser: %+v", b)
	}
	if o.Dir != dir || strings.Join(o.Steps, ",") != "steps/**/*.ts" || strings.Join(o.Extensions, ",") != "tools" ||
		o.WorldParameters["userName"] != "Ada" || o.Alias["~lib"] != "./lib" || o.Env["GODOGWORLD_TEST_VAR"] != "visible" || len(o.Env) != 1 {
		t.Errorf("options: %+v", o)
	}
	if o.ScriptCommands == nil {
		t.Error("no command set")
	}
}

// TestOptionErrors: bad configuration and JavaScript steps godog cannot
// match are reported by New and LoadOptions, naming the key or the file
// and line, before godog runs.
func TestOptionErrors(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{
		"bad/ferridriver.toml": "[browser]\nscreenshot = \"sometimes\"\n",
		"steps/steps.js": "const { Given } = require('@cucumber/cucumber')\n" +
			"Given('fine', function () {})\n" +
			"Given(/^(?<=x)y$/, function () {})\n" +
			"Given('I use {unknown}', function () {})\n",
		"broken/steps.ts": "Given('x', function ( {})\n",
	})
	if _, err := jssteps.LoadOptions(filepath.Join(dir, "bad")); err == nil || !strings.Contains(err.Error(), "screenshot") {
		t.Errorf("LoadOptions: %v", err)
	}
	if _, err := jssteps.New(jssteps.Options{Options: godogworld.Options{Browser: world.Config{Browser: "netscape"}}, Dir: dir, Steps: []string{"steps/steps.js"}}); err == nil || !strings.HasPrefix(err.Error(), "[browser] browser") {
		t.Errorf("New with a bad [browser]: %v", err)
	}
	_, err := jssteps.New(jssteps.Options{Dir: dir, Steps: []string{"steps"}})
	if err == nil {
		t.Fatal("New accepted step definitions godog cannot match")
	}
	for _, want := range []string{"steps/steps.js:3: step /^(?<=x)y$/", "steps/steps.js:4: step \"I use {unknown}\": undefined parameter type {unknown}"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if strings.Contains(err.Error(), "\"fine\"") {
		t.Errorf("error names a good definition: %v", err)
	}
	if _, err := jssteps.New(jssteps.Options{Dir: dir, Steps: []string{"broken"}}); err == nil || !strings.Contains(err.Error(), "broken/steps.ts:2:1: ") {
		t.Errorf("New with a step file that does not compile: %v", err)
	}
}

// TestEmptyGlob: a steps pattern that names no file is an error of New,
// naming it, instead of every JavaScript step being undefined.
func TestEmptyGlob(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFiles(t, dir, map[string]string{"steps/steps.ts": "import { Given } from '@cucumber/cucumber'\nGiven('fine', function () {})\n"})
	for _, tc := range []struct {
		steps []string
		want  string
	}{
		{[]string{"steps/**/*.ts", "step/**/*.ts"}, `"step/**/*.ts" names no JavaScript or TypeScript file in ` + dir},
		{[]string{"features/steps"}, `"features/steps" names no JavaScript or TypeScript file`},
	} {
		_, err := jssteps.New(jssteps.Options{Dir: dir, Steps: tc.steps})
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), `"steps/**/*.ts"`) {
			t.Errorf("New with steps %v: %v", tc.steps, err)
		}
	}
	s, err := jssteps.New(jssteps.Options{Dir: dir, Steps: []string{"steps/**/*.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
}
