package godogworld

import (
	"context"

	"github.com/cucumber/godog"
	"github.com/playwright-community/playwright-go"
)

// World is one scenario's browser: a fresh context and page, closed when
// the scenario ends. The JavaScript steps of the scenario (package
// godogworld/jssteps) see the same page as this.page.
type World struct {
	// Page is the scenario's page. A step may replace it (with a popup, a
	// second page of Context): the failure screenshot shows World.Page.
	Page playwright.Page
	// Context is the page's browser context, with the [browser] options
	// (baseURL, viewport, locale, storageState, timeouts...).
	Context playwright.BrowserContext
	// BaseURL is [browser] baseURL ("" when unset). Page.Goto resolves
	// relative URLs against it.
	BaseURL string
	// Expect makes web-first assertions: playwright-go's
	// PlaywrightAssertions, which retry until the condition holds or the
	// timeout (Options.ExpectTimeout, default 5 s) passes, as Playwright's
	// expect does. For example
	// w.Expect.Locator(w.Page.GetByRole("heading")).ToHaveText("Welcome").
	Expect playwright.PlaywrightAssertions
	// Scenario is the running scenario (godog's pickle).
	Scenario *godog.Scenario
}

func newWorld(page playwright.Page, opts Options, pickle *godog.Scenario) *World {
	var expect playwright.PlaywrightAssertions
	if opts.ExpectTimeout > 0 {
		expect = playwright.NewPlaywrightAssertions(millis(opts.ExpectTimeout))
	} else {
		expect = playwright.NewPlaywrightAssertions()
	}
	return &World{Page: page, Context: page.Context(), BaseURL: opts.Browser.BaseURL, Expect: expect, Scenario: pickle}
}

// missingWrapper is the panic of MustFromContext (and the error of plugin
// steps) in a scenario that Suite.ScenarioInitializer did not start.
const missingWrapper = "godogworld: no browser World in this context: the godog.TestSuite's ScenarioInitializer " +
	"must be wrapped by the Suite's (ScenarioInitializer: suite.ScenarioInitializer(InitializeScenario)), " +
	"and the context must be the one godog passed to the step or hook"

// MustFromContext returns the World of the scenario that ctx belongs to,
// as FromContext, for step functions: when there is none it panics with a
// message that names the missing wrapper (godog reports a step's panic as
// its failure). Hooks, which godog does not protect from panics, use
// FromContext.
func MustFromContext(ctx context.Context) *World {
	w := FromContext(ctx)
	if w == nil {
		panic(missingWrapper)
	}
	return w
}

// FromContext returns the World of the scenario that ctx belongs to: the
// context.Context godog passes to step functions and hooks of a suite whose
// ScenarioInitializer is wrapped by Suite.ScenarioInitializer. It returns
// nil outside such a scenario, or when the scenario's page could not be
// created (the scenario then fails with the reason).
func FromContext(ctx context.Context) *World {
	if sc := scenarioFrom(ctx); sc != nil {
		return sc.world
	}
	return nil
}
