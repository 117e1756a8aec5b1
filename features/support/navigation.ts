// Steps shared by every page: opening pages, pressing buttons. (Reloading
// is the built-in step `I reload the page`.)
import { Given, When, Then, DataTable } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { DemoWorld } from './world'

Given('I open the home page', async function (this: DemoWorld) {
  await this.page.goto('/')
})

When('I press the {string} button', async function (this: DemoWorld, name: string) {
  await this.page.getByRole('button', { name, exact: true }).click()
})

Then('the page title is {string}', async function (this: DemoWorld, title: string) {
  await expect(this.page).toHaveTitle(title)
})

Then('I see these links:', async function (this: DemoWorld, links: DataTable) {
  const nav = this.page.getByRole('navigation', { name: 'Pages' })
  for (const [name, href] of Object.entries(links.rowsHash())) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href)
  }
  await expect(nav.getByRole('link')).toHaveCount(links.raw().length)
})
