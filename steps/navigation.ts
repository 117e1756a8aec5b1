// Navigation: opening pages, history, and the page's URL and title.
import { Given, When, Then } from '@cucumber/cucumber'
import { interpolateString } from './memory'
import { eventually, type Validation } from './validation'

Given('I open {string}', { description: 'Opens a URL, relative to [browser] baseURL.', example: 'Given I open "/login"' }, async function (url: string) {
  await this.page.goto(interpolateString(this, url))
})

When('I go back', { description: 'Goes back in the browser history.', example: 'When I go back' }, async function () {
  await this.page.goBack()
})

Then(
  'I expect the URL {validation} {string}',
  { description: "Checks the page's URL, retrying until it holds.", example: ['Then I expect the URL to contain "/welcome"', 'Then I expect the URL not to match "/login$"'] },
  async function (v: Validation, expected: string) {
    await eventually(this, 'the URL', async () => this.page.url(), v, interpolateString(this, expected))
  },
)
