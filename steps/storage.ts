// Web storage (localStorage, sessionStorage) of the page's origin, and the
// storage state of the context (cookies and local storage) saved to a file
// and loaded from one, to start a scenario already logged in.
import { Given, When, Then } from '@cucumber/cucumber'
import { remember } from './values'
import { reopen } from './emulation'
import { fixturePath } from './scenario'
import { step } from './step'
import { eventually, type Validation } from './validation'
import type { StepWorld } from './world'

type Storage = 'local' | 'session'

function readItem(world: StepWorld, s: Storage, key: string): Promise<string | null> {
  return world.page.evaluate(([s, k]: string[]) => (s === 'local' ? localStorage : sessionStorage).getItem(k), [s, key])
}

When('I set the {storage} storage item {text} to {text}', { description: "Sets an item of the page's localStorage or sessionStorage.", example: ['When I set the local storage item "theme" to "dark"', 'When I set the session storage item "step" to "2"'] }, step(async function (s: Storage, key: string, value: string) {
  await this.page.evaluate(([s, k, v]: string[]) => (s === 'local' ? localStorage : sessionStorage).setItem(k, v), [s, key, value])
}))

When('I remove the {storage} storage item {text}', { description: "Removes an item of the page's localStorage or sessionStorage.", example: 'When I remove the local storage item "theme"' }, step(async function (s: Storage, key: string) {
  await this.page.evaluate(([s, k]: string[]) => (s === 'local' ? localStorage : sessionStorage).removeItem(k), [s, key])
}))

When('I clear the {storage} storage', { description: "Removes every item of the page's localStorage or sessionStorage.", example: ['When I clear the local storage', 'When I clear the session storage'] }, step(async function (s: Storage) {
  await this.page.evaluate((s: string) => (s === 'local' ? localStorage : sessionStorage).clear(), s)
}))

Then(
  'I expect the {storage} storage item {text} {validation} {expected}',
  { description: 'Checks an item of the page\'s localStorage or sessionStorage (absent: null), retrying until it holds.', example: ['Then I expect the local storage item "theme" to equal "dark"', 'Then I expect the session storage item "step" not to equal "1"'] },
  step(async function (s: Storage, key: string, v: Validation, expected: unknown) {
    await eventually(this, `the ${s} storage item "${key}"`, () => readItem(this, s, key), v, expected)
  }),
)

When('I remember the {storage} storage item {text} as {text}', { description: 'Remembers an item of localStorage or sessionStorage as $name.', example: 'When I remember the local storage item "todos" as "saved"' }, step(async function (s: Storage, key: string, name: string) {
  remember(this, name, await readItem(this, s, key))
}))

When(
  'I save the storage state to {text}',
  { description: "Writes the context's cookies and local storage to a JSON file (relative to the feature file), for `I load the storage state from`.", example: 'When I save the storage state to "state/logged-in.json"' },
  step(async function (path: string) {
    await this.context.storageState({ path: fixturePath(this, path) })
  }),
)

Given(
  'I load the storage state from {text}',
  { description: 'Starts a fresh browser context with the cookies and local storage of a saved state file (use it before opening pages).', example: 'Given I load the storage state from "state/logged-in.json"' },
  step(async function (path: string) {
    await reopen(this, { storageState: fixturePath(this, path) })
  }),
)
