import { Given, When, Then, DataTable } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { DemoWorld } from './world'

Given('I open the todo list', async function (this: DemoWorld) {
  await this.page.goto('/todo.html')
  await expect(this.page.getByRole('heading', { name: 'Todo list' })).toBeVisible()
})

async function addTodos(world: DemoWorld, todos: DataTable) {
  const input = world.page.getByPlaceholder('What needs to be done?')
  for (const { todo } of todos.hashes()) {
    await input.fill(todo)
    await input.press('Enter')
    await expect(world.page.getByTestId('todo-title').last()).toHaveText(todo)
  }
}

Given('I have added the todos:', async function (this: DemoWorld, todos: DataTable) {
  await addTodos(this, todos)
})

When('I add the todos:', async function (this: DemoWorld, todos: DataTable) {
  await addTodos(this, todos)
})

When('I complete {string}', async function (this: DemoWorld, todo: string) {
  await this.page.getByRole('checkbox', { name: todo }).check()
})

When('I delete {string}', async function (this: DemoWorld, todo: string) {
  await this.page.getByRole('button', { name: `Delete ${todo}` }).click()
})

When('I clear the completed todos', async function (this: DemoWorld) {
  await this.page.getByRole('button', { name: 'Clear completed' }).click()
})

Then('the list shows:', async function (this: DemoWorld, expected: DataTable) {
  await expect(this.page.getByTestId('todo-title')).toHaveText(expected.raw().map(([title]) => title))
})

Then('the list is empty', async function (this: DemoWorld) {
  await expect(this.page.getByTestId('todo-item')).toHaveCount(0)
})

Then('{string} is completed', async function (this: DemoWorld, todo: string) {
  await expect(this.page.getByRole('checkbox', { name: todo })).toBeChecked()
  await expect(this.page.getByTestId('todo-item').filter({ hasText: todo })).toHaveClass('completed')
})

Then('the counter reads {string}', async function (this: DemoWorld, text: string) {
  await expect(this.page.getByTestId('todo-count')).toHaveText(text)
})
