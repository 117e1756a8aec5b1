package godogdemo

import (
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cucumber/godog"
	"github.com/cucumber/godog/colors"

	"github.com/ferridriver/ferridriver/demoapp"
	"github.com/ferridriver/ferridriver/godogworld"
	"github.com/ferridriver/ferridriver/godogworld/jssteps"
)

// godogOpts are godog's options; `go test -godog.format=progress
// -godog.tags=@smoke -godog.concurrency=2 ...` change them (BindFlags).
var godogOpts = godog.Options{
	Output: colors.Colored(os.Stdout),
	Format: "pretty",
	Paths:  []string{"features"},
	Strict: true,
}

func init() {
	godog.BindFlags("godog.", flag.CommandLine, &godogOpts)
}

// appURL is the application under test: here ferridriver's demo app,
// served by the test process (use your own http.Handler, or the URL of
// an app started elsewhere).
var appURL string

func TestMain(m *testing.M) {
	flag.Parse()
	app := httptest.NewServer(demoapp.Handler())
	appURL = app.URL
	code := m.Run()
	app.Close()
	os.Exit(code)
}

// TestFeatures runs features/ with godog, one subtest per scenario.
func TestFeatures(t *testing.T) {
	// ferridriver.toml: [browser] and [test] steps (the TypeScript steps).
	// A suite with Go steps only needs none of it: godogworld.New(
	// godogworld.Options{Browser: world.Config{BaseURL: appURL}}).
	opts, err := jssteps.LoadOptions(".")
	if err != nil {
		t.Fatal(err)
	}
	opts.Browser.BaseURL = appURL                                  // replaces the configured baseURL
	opts.Browser.OutputDir = filepath.Join(t.TempDir(), "results") // traces, with [browser] trace on
	opts.StepTimeout = 30 * time.Second                            // a step that hangs fails after 30 s

	fd, err := jssteps.New(opts)
	if err != nil {
		t.Fatal(err) // e.g. a TypeScript step that does not compile, with its file:line
	}
	o := godogOpts
	o.TestingT = t                               // every scenario is a subtest
	o.DefaultContext = godogworld.TestContext(t) // scenarios stop before go test's -timeout
	suite := godog.TestSuite{
		Name:                 "godogdemo",
		TestSuiteInitializer: fd.TestSuiteInitializer(nil), // closes the browser at the end
		ScenarioInitializer:  fd.ScenarioInitializer(InitializeScenario),
		Options:              &o,
	}
	if suite.Run() != 0 {
		t.Fatal("the features failed")
	}
}
