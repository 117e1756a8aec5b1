// Step definitions of features/todo.feature: cucumber-js's API, with
// Playwright's page and expect. `ferridriver steps` lists them with the
// built-in steps.
import { Given, When, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { CustomWorld } from './world'

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
