// Tabs (pages of the scenario's browser context). Switching makes a tab
// the one every later step acts on; tabs are numbered from 1 in the order
// they were opened.
import { When, Then } from '@cucumber/cucumber'
import type { Page } from '@playwright/test'
import { step } from './step'
import { frameStack } from './targets'
import { assertionBudget, eventually, now, sleep, type Validation } from './validation'
import type { StepWorld } from './world'

async function switchTo(world: StepWorld, page: Page): Promise<void> {
  world.page = page
  frameStack(world).length = 0
  await page.bringToFront()
}

When('I open a new tab', { description: 'Opens an empty tab and switches to it.', example: 'When I open a new tab' }, step(async function () {
  await switchTo(this, await this.context.newPage())
}))

When('I open {text} in a new tab', { description: 'Opens a URL in a new tab and switches to it.', example: 'When I open "/todo.html" in a new tab' }, step(async function (url: string) {
  const page = await this.context.newPage()
  await switchTo(this, page)
  await page.goto(url)
}))

When('I switch to tab {int}', { description: 'Switches to a tab by its number (1 is the first opened), waiting for a tab that is opening.', example: 'When I switch to tab 2' }, step(async function (n: number) {
  if (n < 1) throw new Error(`tabs are numbered from 1, not ${n}`)
  const deadline = now() + assertionBudget(this)
  let pages = this.context.pages()
  while (n > pages.length && now() < deadline) {
    await sleep(100)
    pages = this.context.pages()
  }
  if (n > pages.length) throw new Error(`there is no tab ${n}: ${pages.length} tab${pages.length === 1 ? ' is' : 's are'} open`)
  await switchTo(this, pages[n - 1])
}))

When(
  'I switch to the new tab',
  { description: 'Switches to the tab opened last (a popup, a target=_blank link), waiting for it to open.', example: 'When I switch to the new tab' },
  step(async function () {
    const current = this.page
    const deadline = now() + assertionBudget(this)
    for (;;) {
      const pages = this.context.pages()
      const last = pages[pages.length - 1]
      if (last && last !== current) {
        await last.waitForLoadState('domcontentloaded')
        await switchTo(this, last)
        return
      }
      if (now() > deadline) throw new Error(`no new tab was opened (${pages.length} tab${pages.length === 1 ? '' : 's'} open)`)
      await sleep(100)
    }
  }),
)

When('I close the current tab', { description: 'Closes the current tab and switches to the one opened last among the others.', example: 'When I close the current tab' }, step(async function () {
  const closing = this.page
  await closing.close()
  const rest = this.context.pages().filter((p) => p !== closing && !p.isClosed())
  if (rest.length) await switchTo(this, rest[rest.length - 1])
}))

When('I close tab {int}', { description: 'Closes a tab by its number (1 is the first opened); closing the current one switches to the one opened last among the others.', example: 'When I close tab 2' }, step(async function (n: number) {
  const pages = this.context.pages()
  if (n < 1 || n > pages.length) throw new Error(`there is no tab ${n}: ${pages.length} tab${pages.length === 1 ? ' is' : 's are'} open`)
  const closing = pages[n - 1]
  await closing.close()
  if (closing !== this.page) return
  const rest = this.context.pages().filter((p) => p !== closing && !p.isClosed())
  if (rest.length) await switchTo(this, rest[rest.length - 1])
}))

Then('I expect the number of tabs {validation} {expected}', { description: 'Checks how many tabs are open.', example: ['Then I expect the number of tabs to equal 2', 'Then I expect the number of tabs to be greater than 1'] }, step(async function (v: Validation, expected: unknown) {
  await eventually(this, 'the number of tabs', async () => this.context.pages().filter((p) => !p.isClosed()).length, v, expected)
}))
