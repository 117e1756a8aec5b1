import { Given, When, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { DemoWorld } from './world'

Given('I open the slow page with a delay of {int} ms', async function (this: DemoWorld, delay: number) {
  await this.page.goto(`/slow.html?delay=${delay}`)
})

// The bar shows only until the delay has passed: the feature asks for 3 s
// so that it is still there when a cold or busy machine gets here.
Then('the page shows a progress bar', async function (this: DemoWorld) {
  await expect(this.page.getByRole('progressbar', { name: 'Loading' })).toBeVisible()
})

// No sleep: the assertion retries until the content appears (up to 5 s).
Then('eventually the page shows {string}', async function (this: DemoWorld, text: string) {
  await expect(this.page.getByTestId('slow-content')).toHaveText(text, { timeout: 5_000 })
})

Then('the progress bar is gone', async function (this: DemoWorld) {
  await expect(this.page.getByRole('progressbar')).toHaveCount(0)
})

When('I load the data and wait for the API response', async function (this: DemoWorld) {
  const [response] = await Promise.all([
    this.page.waitForResponse((r) => r.url().includes('/api/slow')),
    this.page.getByRole('button', { name: 'Load data' }).click(),
  ])
  this.apiStatus = response.status()
})

Then('the API answered with status {int}', function (this: DemoWorld, status: number) {
  expect(this.apiStatus).toBe(status)
})

Then('the data result reads {string}', async function (this: DemoWorld, text: string) {
  await expect(this.page.getByTestId('data-result')).toHaveText(text)
})
