import { When, Then, DataTable } from '@cucumber/cucumber'
import { expect } from '@playwright/test'

When('I add the todos:', async function (table: DataTable) {
  for (const { todo } of table.hashes()) {
    await this.page.getByLabel('New todo').fill(todo)
    await this.page.getByLabel('New todo').press('Enter')
  }
})

Then('the list shows {int} todos', async function (n: number) {
  await expect(this.page.getByTestId('todo-item')).toHaveCount(n)
})
