package godogdemo_test

import (
	"testing"

	"github.com/cucumber/godog"

	"github.com/ferridriver/ferridriver/examples/godogdemo"
	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/internal/testenv"
)

// TestFeatures runs features/ with godog, one subtest per scenario.
func TestFeatures(t *testing.T) {
	// ferridriver's own test runs skip browser tests this way; your
	// project does not need it.
	testenv.NeedBrowser(t)

	opts, err := godogworld.LoadOptions(".") // ferridriver.toml
	if err != nil {
		t.Fatal(err)
	}
	// The application under test: the demo app, served on a free port,
	// replaces the configured baseURL.
	opts.Browser.BaseURL = testenv.DemoApp(t)
	opts.Browser.OutputDir = t.TempDir() // traces, with [browser] trace on

	fd, err := godogworld.New(opts)
	if err != nil {
		t.Fatal(err) // e.g. a TypeScript step that does not compile, with its file:line
	}
	suite := godog.TestSuite{
		Name:                 "godogdemo",
		TestSuiteInitializer: fd.TestSuiteInitializer(nil), // closes the browser at the end
		ScenarioInitializer:  fd.ScenarioInitializer(godogdemo.InitializeScenario),
		Options: &godog.Options{
			Format:   "pretty",
			Paths:    []string{"features"},
			Strict:   true,
			TestingT: t, // every scenario is a subtest
		},
	}
	if suite.Run() != 0 {
		t.Fatal("the features failed")
	}
}
