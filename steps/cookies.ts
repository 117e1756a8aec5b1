// Cookies of the scenario's browser context.
import { When, Then, DataTable } from '@cucumber/cucumber'
import { interpolateRows, remember } from './values'
import { step } from './step'
import { eventually, parseValidation, type Validation } from './validation'
import type { StepWorld } from './world'

/** The URL cookies are set for: the page's, else [browser] baseURL. */
function cookieURL(world: StepWorld): string {
  const u = world.page.url()
  if (/^https?:/.test(u)) return u
  if (world.baseURL) return world.baseURL
  throw new Error('a cookie needs a site: open a page first, or set [browser] baseURL')
}

async function cookieValue(world: StepWorld, name: string): Promise<string | null> {
  const all = await world.context.cookies(cookieURL(world))
  const c = all.find((c) => c.name === name)
  return c ? c.value : null
}

When('I set the cookie {text} to {text}', { description: "Sets a cookie for the page's site (or baseURL).", example: 'When I set the cookie "consent" to "yes"' }, step(async function (name: string, value: string) {
  await this.context.addCookies([{ name, value, url: cookieURL(this) }])
}))

When(
  'I set the cookies:',
  { description: 'Sets several cookies, one per row (name | value), for the page\'s site (or baseURL).', example: 'When I set the cookies:' },
  step(async function (table: DataTable) {
    const url = cookieURL(this)
    await this.context.addCookies(interpolateRows(this, table.raw()).map(([name, value]) => ({ name, value: value ?? '', url })))
  }),
)

When('I delete the cookie {text}', { description: 'Deletes a cookie of the context.', example: 'When I delete the cookie "consent"' }, step(async function (name: string) {
  await this.context.clearCookies({ name })
}))

When('I clear the cookies', { description: 'Deletes every cookie of the context.', example: 'When I clear the cookies' }, step(async function () {
  await this.context.clearCookies()
}))

Then(
  'I expect the cookie {text} {validation} {expected}',
  { description: "Checks the value of a cookie of the page's site (absent: null).", example: ['Then I expect the cookie "consent" to equal "yes"', 'Then I expect the cookie "session" not to equal "expired"'] },
  step(async function (name: string, v: Validation, expected: unknown) {
    await eventually(this, `the cookie "${name}"`, () => cookieValue(this, name), v, expected)
  }),
)

Then('I expect the cookie {text} {to} exist', { description: "Checks that the page's site has a cookie, or with \"not to\", that it has none of that name.", example: ['Then I expect the cookie "demo_session" to exist', 'Then I expect the cookie "demo_session" not to exist'] }, step(async function (name: string, negate: boolean) {
  await eventually(this, `the cookie "${name}"`, () => cookieValue(this, name), parseValidation(negate ? 'to equal' : 'not to equal'), null)
}))

When('I remember the cookie {text} as {text}', { description: 'Remembers the value of a cookie as $name.', example: 'When I remember the cookie "demo_session" as "session"' }, step(async function (name: string, as: string) {
  remember(this, as, await cookieValue(this, name))
}))
