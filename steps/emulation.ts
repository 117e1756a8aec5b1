// Emulation: viewport, colour scheme, media, geolocation and permissions
// change the running context; timezone, locale and user agent can only be
// set on a new context, so those steps start a fresh context and page
// (with the same [browser] configuration): use them before opening pages.
import { Given, When } from '@cucumber/cucumber'
import type { BrowserContextOptions } from '@playwright/test'
import { step } from './step'
import { newContextHappened, stateOf, type StepWorld } from './world'

const options = new WeakMap<object, BrowserContextOptions>()

/**
 * Replaces the World's context and page by new ones created with the
 * options given so far in the scenario plus these; the new page opens the
 * URL the old one showed, if any.
 */
export async function reopen(world: StepWorld, extra: BrowserContextOptions): Promise<void> {
  const opts = stateOf(options, world, () => ({}))
  Object.assign(opts, extra)
  const url = world.page.url()
  const context = await world.browser.newContext(opts)
  const page = await context.newPage()
  world.context = context
  world.page = page
  await newContextHappened(world)
  if (/^https?:/.test(url)) await page.goto(url)
}

Given('I emulate the timezone {text}', { description: 'Starts a fresh context in a timezone (an IANA name).', example: 'Given I emulate the timezone "Asia/Tokyo"' }, step(async function (timezoneId: string) {
  await reopen(this, { timezoneId })
}))

Given('I emulate the locale {text}', { description: 'Starts a fresh context with a locale (navigator.language, Accept-Language, number and date formats).', example: 'Given I emulate the locale "fr-FR"' }, step(async function (locale: string) {
  await reopen(this, { locale })
}))

Given('I emulate the user agent {text}', { description: 'Starts a fresh context that sends another User-Agent.', example: 'Given I emulate the user agent "ferridriver-bot/1.0"' }, step(async function (userAgent: string) {
  await reopen(this, { userAgent })
}))

When('I set the viewport to {int} by {int}', { description: 'Resizes the page\'s viewport (width by height, CSS pixels).', example: 'When I set the viewport to 375 by 812' }, step(async function (width: number, height: number) {
  await this.page.setViewportSize({ width, height })
}))

const schemes = ['light', 'dark', 'no-preference']

When('I emulate the color scheme {text}', { description: 'Makes the page see prefers-color-scheme: light, dark or no-preference.', example: 'When I emulate the color scheme "dark"' }, step(async function (scheme: string) {
  if (!schemes.includes(scheme)) throw new Error(`the color scheme is one of ${schemes.join(', ')}, not "${scheme}"`)
  await this.page.emulateMedia({ colorScheme: scheme as 'light' | 'dark' | 'no-preference' })
}))

When('I emulate the media type {text}', { description: 'Makes the page render for the screen or for print.', example: 'When I emulate the media type "print"' }, step(async function (media: string) {
  if (media !== 'screen' && media !== 'print') throw new Error(`the media type is "screen" or "print", not "${media}"`)
  await this.page.emulateMedia({ media })
}))

When(
  'I set the geolocation to {float}, {float}',
  { description: 'Grants the geolocation permission and places the browser at a latitude and longitude.', example: 'When I set the geolocation to 48.8584, 2.2945' },
  step(async function (latitude: number, longitude: number) {
    await this.context.grantPermissions(['geolocation'])
    await this.context.setGeolocation({ latitude, longitude })
  }),
)

When('I grant the permission {text}', { description: 'Grants a browser permission (geolocation, notifications, clipboard-read, camera...) to every page of the context.', example: 'When I grant the permission "notifications"' }, step(async function (permission: string) {
  await this.context.grantPermissions([permission])
}))
