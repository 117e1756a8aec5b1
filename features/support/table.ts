import { Given, When, Then, DataTable } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { DemoWorld } from './world'

Given('I open the team table', async function (this: DemoWorld) {
  await this.page.goto('/table.html')
})

When('I sort the table by {string}', async function (this: DemoWorld, column: string) {
  await this.page.getByRole('button', { name: column, exact: true }).click()
})

Then('the team table is:', async function (this: DemoWorld, expected: DataTable) {
  const table = this.page.getByRole('table', { name: 'Team members' })
  // Wait for the expected order (the table sorts on click), then compare
  // the whole table cell by cell.
  const [header, ...rows] = expected.raw()
  await expect(table.locator('tbody tr td:first-child')).toHaveText(rows.map((r) => r[0]))
  const actual = [await table.getByRole('columnheader').allTextContents()]
  const trs = table.locator('tbody tr')
  for (let i = 0; i < (await trs.count()); i++) {
    actual.push(await trs.nth(i).getByRole('cell').allTextContents())
  }
  expect(actual).toEqual([header, ...rows])
})

Then('the {string} column is sorted {word}', async function (this: DemoWorld, column: string, order: string) {
  await expect(this.page.getByRole('columnheader', { name: column })).toHaveAttribute('aria-sort', order)
})

Then('the sort status reads {string}', async function (this: DemoWorld, status: string) {
  await expect(this.page.getByTestId('sort-status')).toHaveText(status)
})

Then('the first row starts with {string}', async function (this: DemoWorld, name: string) {
  const first = this.page.getByRole('table', { name: 'Team members' }).locator('tbody tr').first()
  await expect(first.getByRole('cell').first()).toHaveText(name)
})
