import { Given, When, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { DemoWorld } from './world'

const paths: Record<string, string> = { login: '/login', welcome: '/welcome' }

Given('I open the login page', async function (this: DemoWorld) {
  await this.page.goto('/login')
  await expect(this.page.getByRole('heading', { name: 'Log in' })).toBeVisible()
})

When('I log in as {string} with password {string}', async function (this: DemoWorld, username: string, password: string) {
  await this.page.getByLabel('Username').fill(username)
  await this.page.getByLabel('Password').fill(password)
  await this.page.getByRole('button', { name: 'Log in' }).click()
})

Given('I am logged in as {string}', async function (this: DemoWorld, username: string) {
  await this.page.getByLabel('Username').fill(username)
  await this.page.getByLabel('Password').fill('secret')
  await this.page.getByRole('button', { name: 'Log in' }).click()
  await expect(this.page).toHaveURL(/\/welcome$/)
})

Then('I see the message {string}', async function (this: DemoWorld, message: string) {
  await expect(this.page.getByText(message, { exact: true })).toBeVisible()
})

Then('I end up on the {word} page', async function (this: DemoWorld, page: string) {
  const path = paths[page]
  if (!path) throw new Error(`unknown page "${page}" (known: ${Object.keys(paths).join(', ')})`)
  await expect(this.page).toHaveURL(new RegExp(path.replace(/[.]/g, '\\.') + '$'))
})
