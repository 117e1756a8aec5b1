// Interaction: clicking, typing, choosing, dragging, scrolling and
// uploading, on elements named by a {target} (a page-object name or a
// selector, optionally "the first", "the last", "the 2nd"...).
import { When, DataTable } from '@cucumber/cucumber'
import type { KeyboardModifier } from '@playwright/test'
import { Target } from './params'
import { interpolateRows, interpolateString } from './values'
import { fixturePath } from './scenario'
import { step } from './step'
import { locate } from './targets'
import type { StepWorld } from './world'

When('I click {target}', { description: 'Clicks an element (it waits for it to be visible, enabled and still).', example: ['When I click "Log in"', `When I click 'role=button[name="Add"]'`, 'When I click the 2nd "li"'] }, step(async function (t: Target) {
  await locate(this, t).click()
}))

When('I double click {target}', { description: 'Double-clicks an element.', example: 'When I double click "#title"' }, step(async function (t: Target) {
  await locate(this, t).dblclick()
}))

When('I right click {target}', { description: 'Clicks an element with the right mouse button (a context menu).', example: 'When I right click "#title"' }, step(async function (t: Target) {
  await locate(this, t).click({ button: 'right' })
}))

When(
  'I click {target} while holding {text}',
  { description: 'Clicks an element while holding modifier keys (Alt, Control, ControlOrMeta, Meta, Shift; several joined by +).', example: ['When I click "#item" while holding "Shift"', 'When I click "#item" while holding "Control+Shift"'] },
  step(async function (t: Target, keys: string) {
    await locate(this, t).click({ modifiers: keys.split('+').map((k) => k.trim()) as KeyboardModifier[] })
  }),
)

When('I force click {target}', { description: 'Clicks an element without waiting for it to be actionable (e.g. covered by another).', example: 'When I force click "#hidden-behind"' }, step(async function (t: Target) {
  await locate(this, t).click({ force: true })
}))

When('I fill {target} with {text}', { description: 'Replaces the value of a text field.', example: ['When I fill "User" with "demo"', `When I fill 'role=textbox[name="Password"]' with "$password"`] }, step(async function (t: Target, value: string) {
  await locate(this, t).fill(value)
}))

When('I fill {target} with:', { description: 'Replaces the value of a text field (a textarea) with the doc string.', example: 'When I fill "#notes" with:' }, step(async function (t: Target, doc: string) {
  await locate(this, t).fill(interpolateString(this, doc))
}))

const yes = /^(true|yes|on|checked|y|1)$/i

/** Fills one field of a form by its kind: a select, a checkbox or radio, or a text field. */
async function fillField(world: StepWorld, field: string, value: string): Promise<void> {
  const l = locate(world, field)
  const kind = await l.evaluate((el: any) => (el.tagName === 'SELECT' ? 'select' : el.type === 'checkbox' || el.type === 'radio' ? 'check' : 'text'))
  if (kind === 'select') await l.selectOption(value)
  else if (kind === 'check') await l.setChecked(yes.test(value))
  else await l.fill(value)
}

When(
  'I fill the fields:',
  { description: 'Fills several fields, one per row (field | value): text fields are filled, selects choose the option, checkboxes are checked by true/yes/on.', example: 'When I fill the fields:' },
  step(async function (table: DataTable) {
    for (const [field, value] of interpolateRows(this, table.raw())) {
      if (field === undefined || value === undefined) throw new Error('each row of the table is: field | value')
      await fillField(this, field, value)
    }
  }),
)

When('I clear {target}', { description: 'Clears a text field.', example: 'When I clear "User"' }, step(async function (t: Target) {
  await locate(this, t).clear()
}))

When('I type {text} into {target}', { description: 'Types text key by key into an element (keydown, keypress, input, keyup for each character).', example: 'When I type "milk" into "#search"' }, step(async function (text: string, t: Target) {
  await locate(this, t).pressSequentially(text)
}))

When('I select {text} in {target}', { description: 'Chooses the option of a select whose value or label is the text.', example: ['When I select "Blue" in "#colour"', 'When I select "fr" in "Language"'] }, step(async function (option: string, t: Target) {
  await locate(this, t).selectOption(option)
}))

When('I select the option with value {text} in {target}', { description: 'Chooses the option of a select by its value.', example: 'When I select the option with value "fr" in "#language"' }, step(async function (value: string, t: Target) {
  await locate(this, t).selectOption({ value })
}))

When('I select the option with label {text} in {target}', { description: 'Chooses the option of a select by its label.', example: 'When I select the option with label "French" in "#language"' }, step(async function (label: string, t: Target) {
  await locate(this, t).selectOption({ label })
}))

When(
  'I select the options in {target}:',
  { description: 'Chooses several options of a multiple select (one value or label per row); the others are deselected.', example: 'When I select the options in "#toppings":' },
  step(async function (t: Target, table: DataTable) {
    await locate(this, t).selectOption(interpolateRows(this, table.raw()).map((r) => r[0]))
  }),
)

When('I check {target}', { description: 'Checks a checkbox or a radio button.', example: 'When I check "#terms"' }, step(async function (t: Target) {
  await locate(this, t).check()
}))

When('I uncheck {target}', { description: 'Unchecks a checkbox.', example: 'When I uncheck "#newsletter"' }, step(async function (t: Target) {
  await locate(this, t).uncheck()
}))

When('I hover {target}', { description: 'Moves the mouse over an element.', example: 'When I hover "#menu"' }, step(async function (t: Target) {
  await locate(this, t).hover()
}))

When('I focus {target}', { description: 'Focuses an element.', example: 'When I focus "User"' }, step(async function (t: Target) {
  await locate(this, t).focus()
}))

When('I blur {target}', { description: 'Removes the focus from an element.', example: 'When I blur "User"' }, step(async function (t: Target) {
  await locate(this, t).blur()
}))

When('I drag {target} to {target}', { description: 'Drags an element and drops it on another.', example: 'When I drag "#card" to "#done"' }, step(async function (from: Target, to: Target) {
  await locate(this, from).dragTo(locate(this, to))
}))

When('I scroll to {target}', { description: 'Scrolls an element into view.', example: 'When I scroll to "#footer"' }, step(async function (t: Target) {
  await locate(this, t).scrollIntoViewIfNeeded()
}))

When('I scroll to the top of the page', { description: 'Scrolls the page to its top.', example: 'When I scroll to the top of the page' }, step(async function () {
  await this.page.evaluate(() => window.scrollTo(0, 0))
}))

When('I scroll to the bottom of the page', { description: 'Scrolls the page to its bottom.', example: 'When I scroll to the bottom of the page' }, step(async function () {
  await this.page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
}))

When('I scroll down {int} pixels', { description: 'Scrolls the page down.', example: 'When I scroll down 500 pixels' }, step(async function (n: number) {
  await this.page.evaluate((dy: number) => window.scrollBy(0, dy), n)
}))

When('I scroll up {int} pixels', { description: 'Scrolls the page up.', example: 'When I scroll up 500 pixels' }, step(async function (n: number) {
  await this.page.evaluate((dy: number) => window.scrollBy(0, -dy), n)
}))

When(
  'I upload {text} to {target}',
  { description: 'Sets the file of a file input; the path is relative to the feature file.', example: 'When I upload "fixtures/avatar.png" to "#avatar"' },
  step(async function (path: string, t: Target) {
    await locate(this, t).setInputFiles(fixturePath(this, path))
  }),
)

When(
  'I upload the files to {target}:',
  { description: 'Sets the files of a file input, one path per row (relative to the feature file).', example: 'When I upload the files to "#attachments":' },
  step(async function (t: Target, table: DataTable) {
    await locate(this, t).setInputFiles(interpolateRows(this, table.raw()).map((r) => fixturePath(this, r[0])))
  }),
)

When('I dispatch the {text} event on {target}', { description: 'Dispatches a DOM event (click, input, change, a custom one) on an element.', example: 'When I dispatch the "change" event on "#colour"' }, step(async function (type: string, t: Target) {
  await locate(this, t).dispatchEvent(type)
}))
