// Assertions on elements: their state (visible, enabled, checked...) with
// {to} ("to" or "not to"), and their properties (text, value, attributes,
// CSS, count, role, accessible name...) with a {validation}. All are
// web-first: they retry until they hold or the assertion timeout (5 s, or
// the N of `within N seconds, ...`) passes, then fail as Playwright does,
// with what was expected, what was found and the locator.
import { Then, DataTable } from '@cucumber/cucumber'
import type { Locator } from '@playwright/test'
import { Target } from './params'
import { interpolateRows } from './values'
import { assertProperty, expectOf, step, within } from './step'
import { locate, normalize, rootOf, textsOf } from './targets'
import { eventually, type Validation } from './validation'

/** Defines `I expect {target} {to} <state>` with Playwright's matcher for it. */
function state(phrase: string, description: string, example: string[], check: (m: any, o: { timeout: number }) => Promise<void>): void {
  Then(
    `I expect {target} {to} ${phrase}`,
    { description, example },
    step(async function (t: Target, negate: boolean) {
      await check(expectOf(this, locate(this, t), negate), within(this))
    }),
  )
}

state('be visible', 'Checks that an element is visible (or, with "not to", that it is hidden or absent).', ['Then I expect "Log in" to be visible', 'Then I expect "#spinner" not to be visible'], (m, o) => m.toBeVisible(o))
state('be hidden', 'Checks that an element is hidden or absent.', ['Then I expect "#spinner" to be hidden', 'Then I expect "#menu" not to be hidden'], (m, o) => m.toBeHidden(o))
state('be enabled', 'Checks that an element (a button, a field) is enabled.', ['Then I expect "Log in" to be enabled', 'Then I expect "#save" not to be enabled'], (m, o) => m.toBeEnabled(o))
state('be disabled', 'Checks that an element is disabled.', ['Then I expect "#save" to be disabled', 'Then I expect "Log in" not to be disabled'], (m, o) => m.toBeDisabled(o))
state('be checked', 'Checks that a checkbox or radio button is checked.', ['Then I expect "#terms" to be checked', 'Then I expect "#newsletter" not to be checked'], (m, o) => m.toBeChecked(o))
state('be focused', 'Checks that an element has the keyboard focus.', ['Then I expect "User" to be focused', 'Then I expect "Password" not to be focused'], (m, o) => m.toBeFocused(o))
state('be editable', 'Checks that a field can be typed into (enabled and not read-only).', ['Then I expect "User" to be editable', 'Then I expect "#code" not to be editable'], (m, o) => m.toBeEditable(o))
state('be in the viewport', 'Checks that an element intersects the viewport (is scrolled into view).', ['Then I expect "#footer" to be in the viewport', 'Then I expect "#footer" not to be in the viewport'], (m, o) => m.toBeInViewport(o))
state('be empty', 'Checks that an element has no text (or a field no value).', ['Then I expect "#results" to be empty', 'Then I expect "User" not to be empty'], (m, o) => m.toBeEmpty(o))
state('exist', 'Checks that an element is in the page (attached to the DOM), visible or not.', ['Then I expect "#dialog" to exist', 'Then I expect "#error" not to exist'], (m, o) => m.toBeAttached(o))

Then(
  'I expect the text of {target} {validation} {expected}',
  {
    description: "Checks an element's text (whitespace collapsed, as Playwright compares it).",
    example: ['Then I expect the text of "role=status" to equal "2 items left"', 'Then I expect the text of "h1" to contain "Welcome"', 'Then I expect the text of the first "li" not to match "^Buy"'],
  },
  step(async function (t: Target, v: Validation, expected: unknown) {
    const l = locate(this, t)
    await assertProperty(this, l, 'the text', v, expected, {
      native: (m, e, o) => m.toHaveText(e, o),
      contain: (m, e, o) => m.toContainText(e, o),
      read: async () => normalize(await l.textContent({ timeout: 1000 })),
    })
  }),
)

Then(
  'I expect the value of {target} {validation} {expected}',
  { description: 'Checks the value of a field (input, textarea, select).', example: ['Then I expect the value of "User" to equal "demo"', 'Then I expect the value of "#qty" to be greater than 2'] },
  step(async function (t: Target, v: Validation, expected: unknown) {
    const l = locate(this, t)
    await assertProperty(this, l, 'the value', v, expected, {
      native: (m, e, o) => m.toHaveValue(e, o),
      read: () => l.inputValue({ timeout: 1000 }),
    })
  }),
)

Then(
  'I expect the attribute {text} of {target} {validation} {expected}',
  { description: 'Checks the value of an attribute of an element.', example: ['Then I expect the attribute "href" of "Docs" to equal "/docs"', 'Then I expect the attribute "aria-expanded" of "#menu" not to equal "true"'] },
  step(async function (name: string, t: Target, v: Validation, expected: unknown) {
    const l = locate(this, t)
    await assertProperty(this, l, `the attribute "${name}"`, v, expected, {
      native: (m, e, o) => m.toHaveAttribute(name, e, o),
      read: () => l.getAttribute(name, { timeout: 1000 }),
    })
  }),
)

Then(
  'I expect {target} {to} have the attribute {text}',
  { description: 'Checks that an element has an attribute, whatever its value.', example: ['Then I expect "#save" to have the attribute "disabled"', 'Then I expect "#name" not to have the attribute "readonly"'] },
  step(async function (t: Target, negate: boolean, name: string) {
    await expectOf(this, locate(this, t), negate).toHaveAttribute(name, within(this))
  }),
)

Then(
  'I expect the CSS property {text} of {target} {validation} {expected}',
  { description: 'Checks the computed value of a CSS property of an element.', example: ['Then I expect the CSS property "display" of "#menu" to equal "none"', 'Then I expect the CSS property "color" of ".error" to equal "rgb(200, 0, 0)"'] },
  step(async function (name: string, t: Target, v: Validation, expected: unknown) {
    const l = locate(this, t)
    await assertProperty(this, l, `the CSS property "${name}"`, v, expected, {
      native: (m, e, o) => m.toHaveCSS(name, e, o),
      read: () => l.evaluate((el: Element, n: string) => getComputedStyle(el).getPropertyValue(n), name, { timeout: 1000 }),
    })
  }),
)

Then(
  'I expect {target} {to} have the class {text}',
  { description: 'Checks that an element has a CSS class (among others).', example: ['Then I expect "#row-1" to have the class "selected"', 'Then I expect "#row-2" not to have the class "selected"'] },
  step(async function (t: Target, negate: boolean, name: string) {
    await expectOf(this, locate(this, t), negate).toContainClass(name, within(this))
  }),
)

Then(
  'I expect the count of {target} {validation} {expected}',
  { description: 'Checks how many elements a target matches.', example: ['Then I expect the count of "li" to equal 3', 'Then I expect the count of ".todo" to be greater than 2', 'Then I expect the count of ".error" not to equal 0'] },
  step(async function (t: Target, v: Validation, expected: unknown) {
    const l = locate(this, t)
    if (v.op === 'equal') {
      const n = Number(expected)
      if (!Number.isInteger(n)) throw new Error(`the count of ${l} cannot equal ${JSON.stringify(expected)}: expected a whole number`)
      await expectOf(this, l, v.negate).toHaveCount(n, within(this))
      return
    }
    await eventually(this, `the count of ${l}`, () => l.count(), v, expected, { locator: String(l) })
  }),
)

Then(
  'I expect the role of {target} {validation} {expected}',
  { description: 'Checks the ARIA role of an element (explicit or implicit: a <button> is a button).', example: ['Then I expect the role of "#save" to equal "button"', 'Then I expect the role of "#nav" not to equal "button"'] },
  step(async function (t: Target, v: Validation, expected: unknown) {
    if (v.op !== 'equal') throw new Error(`a role is checked with "to equal" or "not to equal", not "${v.text}"`)
    await expectOf(this, locate(this, t), v.negate).toHaveRole(String(expected), within(this))
  }),
)

Then(
  'I expect the accessible name of {target} {validation} {expected}',
  { description: 'Checks the accessible name of an element (what a screen reader announces).', example: ['Then I expect the accessible name of "#save" to equal "Save"', 'Then I expect the accessible name of "#close" to contain "Close"'] },
  step(async function (t: Target, v: Validation, expected: unknown) {
    await assertProperty(this, locate(this, t), 'the accessible name', v, expected, { native: (m, e, o) => m.toHaveAccessibleName(e, o) })
  }),
)

Then(
  'I expect the accessible description of {target} {validation} {expected}',
  { description: 'Checks the accessible description of an element (aria-describedby, title).', example: ['Then I expect the accessible description of "#password" to contain "8 characters"'] },
  step(async function (t: Target, v: Validation, expected: unknown) {
    await assertProperty(this, locate(this, t), 'the accessible description', v, expected, { native: (m, e, o) => m.toHaveAccessibleDescription(e, o) })
  }),
)

Then(
  'I expect the HTML of {target} {validation} {expected}',
  { description: "Checks an element's inner HTML.", example: ['Then I expect the HTML of "#greeting" to contain "<strong>"'] },
  step(async function (t: Target, v: Validation, expected: unknown) {
    const l = locate(this, t)
    await eventually(this, `the HTML of ${l}`, () => l.innerHTML({ timeout: 1000 }), v, expected, { locator: String(l) })
  }),
)

Then(
  'I expect the property {text} of {target} {validation} {expected}',
  { description: 'Checks a JavaScript property of an element (value, checked, validity.valid, dataset.id...).', example: ['Then I expect the property "validity.valid" of "#email" to equal false', 'Then I expect the property "dataset.id" of "#row-1" to equal "1"'] },
  step(async function (path: string, t: Target, v: Validation, expected: unknown) {
    const l = locate(this, t)
    const read = () => l.evaluate((el: any, p: string) => p.split('.').reduce((o: any, k: string) => (o === null || o === undefined ? o : o[k]), el), path, { timeout: 1000 })
    await eventually(this, `the property "${path}" of ${l}`, read, v, expected, { locator: String(l) })
  }),
)

Then(
  'I expect the texts of {target} {validation} {expected}',
  {
    description:
      'Checks the list of texts of the elements a target matches, as a list: "to contain" an item, "to have length" N, "to equal" a JSON list; other comparisons are for each text, with "every text of" or "any text of" (collections).',
    example: ['Then I expect the texts of "li" to contain "Buy milk"', 'Then I expect the texts of "li" not to contain "Walk the dog"', 'Then I expect the texts of "li" to have length 3', `Then I expect the texts of "li" to equal '["Buy milk", "Walk the dog"]'`],
  },
  step(async function (t: Target, v: Validation, expected: unknown) {
    const l = locate(this, t)
    await eventually(this, `the texts of ${l}`, () => textsOf(l), v, expected, { locator: String(l) })
  }),
)

Then(
  'I expect the texts of {target} {to} be:',
  { description: 'Checks the texts of every element a target matches, in order, one per row of the table.', example: 'Then I expect the texts of "li" to be:' },
  step(async function (t: Target, negate: boolean, table: DataTable) {
    const want = interpolateRows(this, table.raw()).map((r) => r[0])
    await expectOf(this, locate(this, t), negate).toHaveText(want, within(this))
  }),
)

Then(
  'I expect the page {to} contain the text {text}',
  { description: 'Checks that a visible element of the page (or of the frame switched to) shows the text.', example: ['Then I expect the page to contain the text "Welcome, demo!"', 'Then I expect the page not to contain the text "Error"'] },
  step(async function (negate: boolean, text: string) {
    const l = rootOf(this).getByText(text).filter({ visible: true })
    if (negate) await expectOf(this, l, false).toHaveCount(0, within(this))
    else await expectOf(this, l.first(), false).toBeVisible(within(this))
  }),
)

Then(
  'I expect the selected option of {target} {validation} {expected}',
  { description: 'Checks the label of the option chosen in a select.', example: ['Then I expect the selected option of "#colour" to equal "Blue"'] },
  step(async function (t: Target, v: Validation, expected: unknown) {
    const l = locate(this, t)
    const read = () => l.evaluate((el: any) => (el.selectedOptions && el.selectedOptions[0] ? el.selectedOptions[0].label : null), undefined, { timeout: 1000 })
    await eventually(this, `the selected option of ${l}`, read, v, expected, { locator: String(l) })
  }),
)

