// Navigation: opening pages, history, and the page's URL and title.
import { Given, When, Then } from '@cucumber/cucumber'
import './params'
import { assertProperty, step } from './step'
import { eventually, type Validation } from './validation'
import type { StepWorld } from './world'

Given(
  'I open {text}',
  { description: 'Opens a URL; a relative one (/login) is relative to [browser] baseURL.', example: ['Given I open "/login"', 'Given I open "https://example.com/"'] },
  step(async function (url: string) {
    await this.page.goto(url)
  }),
)

// History steps wait for the document to be complete rather than for a
// load event: a browser that keeps pages in its back/forward cache (one
// ferridriver connects to over CDP, for instance) restores them without
// one, and Playwright's goBack() would wait for it until its timeout.
async function history(world: StepWorld, go: 'goBack' | 'goForward'): Promise<void> {
  await world.page[go]({ waitUntil: 'commit' })
  await world.page.waitForFunction(() => document.readyState === 'complete')
}

When('I go back', { description: 'Goes back in the browser history.', example: 'When I go back' }, step(async function () {
  await history(this, 'goBack')
}))

When('I go forward', { description: 'Goes forward in the browser history.', example: 'When I go forward' }, step(async function () {
  await history(this, 'goForward')
}))

When('I reload the page', { description: 'Reloads the current page.', example: 'When I reload the page' }, step(async function () {
  await this.page.reload()
}))

Then(
  'I expect the URL {validation} {expected}',
  {
    description: "Checks the page's URL (a relative expected URL is relative to baseURL for `to equal`), retrying until it holds.",
    example: ['Then I expect the URL to equal "/welcome"', 'Then I expect the URL to contain "/welcome"', 'Then I expect the URL not to match "/login$"'],
  },
  step(async function (v: Validation, expected: unknown) {
    await assertProperty(this, this.page, 'the URL', v, expected, { native: (m, e, o) => m.toHaveURL(e, o), read: async () => this.page.url() })
  }),
)

Then(
  'I expect the URL path {validation} {expected}',
  { description: "Checks the path of the page's URL (without origin, query and fragment).", example: ['Then I expect the URL path to equal "/welcome"', 'Then I expect the URL path to start with "/todo"'] },
  step(async function (v: Validation, expected: unknown) {
    await eventually(this, 'the URL path', async () => new URL(this.page.url()).pathname, v, expected)
  }),
)

Then(
  'I expect the URL parameter {text} {validation} {expected}',
  { description: "Checks a query parameter of the page's URL (absent: null).", example: ['Then I expect the URL parameter "delay" to equal "300"', 'Then I expect the URL parameter "page" not to equal "2"'] },
  step(async function (name: string, v: Validation, expected: unknown) {
    await eventually(this, `the URL parameter "${name}"`, async () => new URL(this.page.url()).searchParams.get(name), v, expected)
  }),
)

Then(
  'I expect the title {validation} {expected}',
  { description: "Checks the page's title, retrying until it holds.", example: ['Then I expect the title to equal "Log in · Demo app"', 'Then I expect the title to contain "Demo"'] },
  step(async function (v: Validation, expected: unknown) {
    await assertProperty(this, this.page, 'the title', v, expected, { native: (m, e, o) => m.toHaveTitle(e, o), read: () => this.page.title() })
  }),
)
