// Step definitions: cucumber-js's API, with Playwright's page and expect.
import { Given, When, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { CustomWorld } from './world'

Given('I open the login page', async function (this: CustomWorld) {
  await this.page.goto('/login')
})

When('I log in as {string} with password {string}', async function (this: CustomWorld, username: string, password: string) {
  await this.page.getByLabel('Username').fill(username)
  await this.page.getByLabel('Password').fill(password)
  await this.page.getByRole('button', { name: 'Log in' }).click()
})

Then('I see the heading {string}', async function (this: CustomWorld, heading: string) {
  await expect(this.page.getByRole('heading', { level: 1 })).toHaveText(heading)
})

Given('I open the todo list', async function (this: CustomWorld) {
  await this.page.goto('/todo.html')
})

When('I add the todo {string}', async function (this: CustomWorld, todo: string) {
  await this.page.getByPlaceholder('What needs to be done?').fill(todo)
  await this.page.getByRole('button', { name: 'Add' }).click()
  this.todos.push(todo)
})

Then('the list has {int} todo(s)', async function (this: CustomWorld, count: number) {
  await expect(this.page.getByTestId('todo-item')).toHaveCount(count)
  await expect(this.page.getByTestId('todo-title')).toHaveText(this.todos)
})

Then('the counter reads {string}', async function (this: CustomWorld, text: string) {
  await expect(this.page.getByTestId('todo-count')).toHaveText(text)
})
