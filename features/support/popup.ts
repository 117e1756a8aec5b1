import { Given, When, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { DemoWorld } from './world'

Given('I open the popup page', async function (this: DemoWorld) {
  await this.page.goto('/popup.html')
})

// The popup event is awaited together with the click that causes it, so
// it cannot be missed.
When('I open the popup', async function (this: DemoWorld) {
  const [popup] = await Promise.all([
    this.page.waitForEvent('popup'),
    this.page.getByRole('button', { name: 'Open popup' }).click(),
  ])
  await popup.waitForLoadState()
  this.popup = popup
})

When('I follow the link {string}', async function (this: DemoWorld, name: string) {
  const [tab] = await Promise.all([
    this.page.waitForEvent('popup'),
    this.page.getByRole('link', { name }).click(),
  ])
  await tab.waitForLoadState()
  this.popup = tab
})

Then('the popup shows the heading {string}', async function (this: DemoWorld, heading: string) {
  const popup = this.openedPopup()
  await expect(popup.getByRole('heading', { level: 1 })).toHaveText(heading)
  await expect(popup).toHaveURL(/\/popup-content\.html$/)
})

When('I press {string} in the popup', async function (this: DemoWorld, name: string) {
  const popup = this.openedPopup()
  // The button closes the popup window.
  await Promise.all([
    popup.waitForEvent('close'),
    popup.getByRole('button', { name }).click(),
  ])
})

Then('the popup is closed', function (this: DemoWorld) {
  expect(this.openedPopup().isClosed()).toBe(true)
})

Then('the popup status reads {string}', async function (this: DemoWorld, status: string) {
  await expect(this.page.getByTestId('popup-status')).toHaveText(status)
})
