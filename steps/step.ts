// What every built-in step shares: the wrapper that makes its failures
// point at the feature's line (not the library's), with a hint when a
// target was not found, and the web-first assertion helpers.
import { expect } from '@playwright/test'
import type { Locator, Page } from '@playwright/test'
import { explainFailure } from 'ferridriver'
import { Target } from './params'
import { relocate } from './scenario'
import { targetHint } from './targets'
import { takeUsedValues } from './values'
import { assertionBudget, eventually, toRegExp, type Validation } from './validation'
import type { StepWorld } from './world'

/**
 * Wraps a step function: its error names the step's line in the feature
 * file instead of the library's source (a library bug, a TypeError, keeps
 * its stack as well); a browser call's failure names the step's target as
 * written (or what target(...args) describes: "the text \"Saved\"") and
 * keeps the call log's lines that say why, and gets a hint when a target
 * looks like a page-object name that is not defined.
 */
export function step<A extends any[]>(fn: (this: StepWorld, ...args: A) => unknown, target?: (...args: A) => string) {
  return async function (this: StepWorld, ...args: A): Promise<void> {
    try {
      await fn.apply(this, args)
    } catch (e) {
      // (not target?.(...args): goja called the World with it)
      throw located(this, e, args, target ? target(...args) : undefined)
    } finally {
      logUsedValues(this)
    }
  }
}

/**
 * Logs the `$name`s the step used with their values (one line each), so
 * reports show `$todoApp = "http://localhost:3000/"` under the step that
 * wrote `"$todoApp"`. Values from the environment are not shown.
 */
function logUsedValues(world: StepWorld): void {
  const used = takeUsedValues(world)
  if (used.size === 0 || typeof world.log !== 'function') return
  world.log([...used].map(([name, value]) => `$${name} = ${value}`).join('\n'))
}

/** Whether e is a browser call's failure (a timeout, or a message with Playwright's call log). */
const isBrowserFailure = (e: Error) => e.name === 'TimeoutError' || /\nCall log/.test(e.message)

function located(world: StepWorld, e: unknown, args: unknown[], described?: string): unknown {
  if (!(e instanceof Error)) return e
  const targets = args.filter((a): a is Target => a instanceof Target)
  const what = described ?? (targets.length === 1 ? String(targets[0]) : undefined)
  if (what && isBrowserFailure(e)) e.message = explainFailure(e.message, what)
  for (const a of targets) {
    const hint = targetHint(a)
    if (hint && !e.message.includes(hint) && /Timeout|waiting for|not found|resolved to 0|element\(s\) not found/.test(e.message)) e.message += '\n' + hint
  }
  return relocate(world, e)
}

/** Playwright's expect on subject, negated when negate says so (the time is within()'s). */
export function expectOf(world: object, subject: Locator | object, negate: boolean): any {
  const e = expect(subject as any) as any
  return negate ? e.not : e
}

/** The options of a web-first matcher: the time the World's assertions have now. */
export function within(world: object): { timeout: number } {
  return { timeout: assertionBudget(world) }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** How a validation is handed to Playwright's matcher for a string property. */
export type NativeMatcher = (m: any, expected: string | RegExp, options: { timeout: number }) => Promise<void>

/**
 * A web-first assertion of a property of a locator, or of the page (its
 * URL, its title), with a {validation}: Playwright's own matcher when it
 * has one for the comparison (equal, match; contain, start with and end
 * with as a pattern unless contain has its own), else reading the property
 * again until it holds (eventually).
 */
export async function assertProperty(
  world: StepWorld,
  locator: Locator | Page,
  what: string,
  v: Validation,
  expected: unknown,
  how: { native?: NativeMatcher; contain?: NativeMatcher; read?: () => Promise<unknown> },
): Promise<void> {
  const s = String(expected)
  let pattern: string | RegExp | undefined
  let native = how.native
  switch (v.op) {
    case 'equal':
      pattern = s
      break
    case 'match':
      pattern = toRegExp(expected)
      break
    case 'contain':
      if (how.contain) [pattern, native] = [s, how.contain]
      else if (!how.read) pattern = new RegExp(escape(s))
      break
    case 'start with':
      if (!how.read) pattern = new RegExp('^' + escape(s))
      break
    case 'end with':
      if (!how.read) pattern = new RegExp(escape(s) + '$')
      break
  }
  if (native && pattern !== undefined) {
    try {
      await native(expectOf(world, locator, v.negate), pattern, within(world))
      return
    } catch (e: any) {
      // A pattern Playwright cannot take (lookaround...) is checked here.
      if (!(e instanceof TypeError && how.read)) throw e
    }
  }
  if (locator === world.page) {
    await eventually(world, what, how.read!, v, expected)
    return
  }
  if (!how.read) throw new Error(`${what} of ${locator} cannot be checked with "${v.text}"`)
  await eventually(world, `${what} of ${locator}`, how.read, v, expected, { locator: String(locator) })
}
