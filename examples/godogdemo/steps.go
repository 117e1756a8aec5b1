// Package godogdemo is a complete godog suite on ferridriver's browser
// World, against ferridriver's demo app: Go steps (this file) and
// TypeScript steps (steps/todo.ts) act on the same page, configured by
// ferridriver.toml; godog_test.go runs features/ with `go test`. Copy the
// directory into a module of your own to start (docs/godog.md).
package godogdemo

import (
	"context"

	"github.com/cucumber/godog"
	"github.com/playwright-community/playwright-go"

	"github.com/ferridriver/ferridriver/godogworld"
)

// InitializeScenario registers the Go steps. Each step gets the scenario's
// page from its context.Context.
func InitializeScenario(sc *godog.ScenarioContext) {
	sc.Step(`^I open "([^"]*)"$`, func(ctx context.Context, path string) error {
		_, err := godogworld.MustFromContext(ctx).Page.Goto(path) // relative to [browser] baseURL
		return err
	})
	sc.Step(`^I log in as "([^"]*)" with password "([^"]*)"$`, func(ctx context.Context, user, password string) error {
		page := godogworld.MustFromContext(ctx).Page
		if err := page.GetByLabel("Username").Fill(user); err != nil {
			return err
		}
		if err := page.GetByLabel("Password").Fill(password); err != nil {
			return err
		}
		return page.GetByRole("button", playwright.PageGetByRoleOptions{Name: "Log in"}).Click()
	})
	sc.Step(`^the heading reads "([^"]*)"$`, func(ctx context.Context, text string) error {
		w := godogworld.MustFromContext(ctx)
		// Web-first: retried until the heading has the text or the
		// timeout (godogworld.Options.ExpectTimeout, 5 s) passed.
		heading := w.Page.GetByRole("heading", playwright.PageGetByRoleOptions{Level: playwright.Int(1)})
		return w.Expect.Locator(heading).ToHaveText(text)
	})
	sc.Step(`^the counter reads "([^"]*)"$`, func(ctx context.Context, text string) error {
		w := godogworld.MustFromContext(ctx)
		return w.Expect.Locator(w.Page.GetByTestId("todo-count")).ToHaveText(text)
	})
}
