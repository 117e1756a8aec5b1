// Validations as a grammar: one parameter type, {validation}, says how an
// assertion step compares what it read with what the feature expects
// ("to equal", "not to contain", "to match", "to be greater than"...), so
// every assertion step takes every comparison and its `not` form without
// a phrasing of its own.
import { defineParameterType } from '@cucumber/cucumber'
import { stepClock, stepTimeLeft } from 'ferridriver'

/** The comparisons of {validation}, as written in a step. */
export const operations = [
  'equal',
  'contain',
  'match',
  'start with',
  'end with',
  'be greater than',
  'be less than',
  'be at least',
  'be at most',
  'have length',
] as const

export type Operation = (typeof operations)[number]

/** A parsed {validation}: "not to contain" is {negate: true, op: "contain"}. */
export interface Validation {
  negate: boolean
  op: Operation
  /** As written in the step, e.g. "not to contain". */
  text: string
}

/** The regular expression of {validation}. */
export const validationPattern = new RegExp(`(?:not )?to (?:${operations.join('|')})`)

/** Parses a {validation} as written in a step. */
export function parseValidation(text: string): Validation {
  const negate = text.startsWith('not ')
  const op = text.replace(/^not /, '').replace(/^to /, '') as Operation
  if (!operations.includes(op)) throw new Error(`unknown comparison "${text}" (known: ${operations.map((o) => 'to ' + o).join(', ')}, each with "not")`)
  return { negate, op, text }
}

defineParameterType({
  name: 'validation',
  regexp: validationPattern,
  transformer: parseValidation,
  useForSnippets: false,
})

/** A value as a failure message shows it. */
export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v)
  if (v instanceof RegExp) return String(v)
  if (v === undefined) return 'undefined'
  try {
    return JSON.stringify(v)
  } catch {
    return String(v)
  }
}

/** A regular expression written in a step: `/pattern/flags` or a bare pattern. */
export function toRegExp(expected: unknown): RegExp {
  if (expected instanceof RegExp) return expected
  const s = String(expected)
  const m = /^\/(.*)\/([dgimsuvy]*)$/s.exec(s)
  return m ? new RegExp(m[1], m[2]) : new RegExp(s)
}

function number(v: unknown, what: string): number {
  const n = typeof v === 'number' ? v : Number(String(v).trim())
  if (String(v).trim() === '' || Number.isNaN(n)) throw new Error(`${what} ${show(v)} is not a number`)
  return n
}

/** Loose equality: a step's expected value is text; the actual may be a number or JSON. */
function equal(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string' || typeof expected !== 'string') {
    if (typeof actual !== 'object' || actual === null) return String(actual) === String(expected)
  }
  if (typeof actual === 'object' && actual !== null) {
    let want: unknown = expected
    if (typeof expected === 'string') {
      try {
        want = JSON.parse(expected)
      } catch {
        return false
      }
    }
    return JSON.stringify(sortKeys(actual)) === JSON.stringify(sortKeys(want))
  }
  return String(actual) === String(expected)
}

function sortKeys(v: any): any {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const k of Object.keys(v).sort()) out[k] = sortKeys(v[k])
    return out
  }
  return v
}

/** The comparisons that take a list as a whole: the others compare one value. */
const listOperations: readonly Operation[] = ['equal', 'contain', 'have length']

/**
 * A step that compares a list with a comparison of one value ("to match",
 * "to start with", "to be greater than"...): a usage error, reported at
 * once rather than retried, and never a comparison of the list joined into
 * one string (which passes or fails by the order of its items).
 */
export class ListComparisonError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ListComparisonError'
  }
}

/** Whether actual passes op against expected, before `not` is applied. */
function holds(actual: unknown, op: Operation, expected: unknown): boolean {
  if (Array.isArray(actual) && !listOperations.includes(op)) {
    throw new ListComparisonError(
      `"to ${op}" compares one value, and ${show(actual)} is a list: compare the list with "to equal" (a JSON list), "to contain" (an item) or "to have length", ` +
        `or each item with "every" or "any" (I expect every text of ... / I expect any text of ...)`,
    )
  }
  switch (op) {
    case 'equal':
      return equal(actual, expected)
    case 'contain':
      if (Array.isArray(actual)) return actual.some((a) => equal(a, expected))
      return String(actual).includes(String(expected))
    case 'match':
      return toRegExp(expected).test(String(actual))
    case 'start with':
      return String(actual).startsWith(String(expected))
    case 'end with':
      return String(actual).endsWith(String(expected))
    case 'be greater than':
      return number(actual, 'the value') > number(expected, 'the expected value')
    case 'be less than':
      return number(actual, 'the value') < number(expected, 'the expected value')
    case 'be at least':
      return number(actual, 'the value') >= number(expected, 'the expected value')
    case 'be at most':
      return number(actual, 'the value') <= number(expected, 'the expected value')
    case 'have length': {
      const len = (actual as any)?.length
      if (typeof len !== 'number') throw new Error(`the value ${show(actual)} has no length`)
      return len === number(expected, 'the expected length')
    }
  }
}

/**
 * Checks actual against expected; returns null when the validation
 * holds, else the failure message. subject names what was read, e.g.
 * `the text of "role=status"`.
 */
export function check(subject: string, actual: unknown, v: Validation, expected: unknown): string | null {
  let ok: boolean
  try {
    ok = holds(actual, v.op, expected) !== v.negate
  } catch (e: any) {
    if (e instanceof ListComparisonError) throw new ListComparisonError(`${subject} ${v.text} ${show(expected)}: ${e.message}`)
    return `Expected ${subject} ${v.text} ${show(expected)}, but ${e.message}`
  }
  if (ok) return null
  return [
    `Expected ${subject} ${v.text} ${show(expected)}`,
    `Expected: ${v.negate ? 'not ' : ''}${v.op === 'match' ? String(toRegExp(expected)) : show(expected)}`,
    `Received: ${show(actual)}`,
  ].join('\n')
}

/** Throws check's message when the validation does not hold. */
export function verify(subject: string, actual: unknown, v: Validation, expected: unknown): void {
  const msg = check(subject, actual, v, expected)
  if (msg) throw new AssertionError(msg)
}

/** A failed assertion of a built-in step. */
export class AssertionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'AssertionError'
  }
}

const defaultTimeout = 5000
const timeouts = new WeakMap<object, number>()

/** The time web-first assertions of world's steps retry for (5 s by default). */
export function assertionTimeout(world: object): number {
  return timeouts.get(world) ?? defaultTimeout
}

/** Runs fn with world's assertions retrying for ms instead. */
export async function withAssertionTimeout<T>(world: object, ms: number, fn: () => Promise<T>): Promise<T> {
  const before = timeouts.get(world)
  timeouts.set(world, ms)
  try {
    return await fn()
  } finally {
    if (before === undefined) timeouts.delete(world)
    else timeouts.set(world, before)
  }
}

/**
 * The time in ms, as Date.now(), on a clock that stops while the running
 * step waits for the browser to start: deadlines of steps that poll are
 * measured with it, so start-up does not use up their time.
 */
export const now = (): number => stepClock()

/** Resolves after ms milliseconds. */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Time kept back from the step's own timeout, so an assertion fails with its own message. */
const stepMargin = 250

/** The least time an assertion is started with (see assertionBudget). */
const minBudget = 50

/**
 * The time a web-first assertion of world may take now: its assertion
 * timeout, cut to what the running step has left. With almost nothing
 * left of the step, it throws at once: an assertion given 1 ms would only
 * report a timeout nobody set.
 */
export function assertionBudget(world: object): number {
  const left = stepTimeLeft() - stepMargin
  if (left < minBudget) {
    throw new Error(`the step has ${Math.max(0, Math.round(left + stepMargin))} ms of its timeout left, too little to check anything: its earlier work took the rest (raise it with [test] timeout, setDefaultTimeout or the step's { timeout })`)
  }
  return Math.max(1, Math.min(assertionTimeout(world), left))
}

/** Options of eventually. */
export interface EventuallyOptions {
  /** The locator read, as Playwright describes it, shown in the failure. */
  locator?: string
}

/**
 * A web-first check: reads the actual value again until the validation
 * holds or the world's assertion timeout passes, then fails with the last
 * value read. read may throw (an element not there yet): that counts as not
 * holding, and its message is the failure's when nothing was ever read.
 */
export async function eventually(
  world: object,
  subject: string,
  read: () => Promise<unknown>,
  v: Validation,
  expected: unknown,
  options: EventuallyOptions = {},
): Promise<void> {
  const timeout = assertionBudget(world)
  const deadline = now() + timeout
  const intervals = [0, 100, 250, 500, 1000]
  let tries = 0
  let last: string | null = null
  for (;;) {
    try {
      last = check(subject, await read(), v, expected)
      if (last === null) return
    } catch (e: any) {
      if (e instanceof ListComparisonError) throw e
      last = `Expected ${subject} ${v.text} ${show(expected)}, but it could not be read: ${e.message}`
    }
    tries++
    const wait = intervals[Math.min(tries, intervals.length - 1)]
    if (now() + wait > deadline) break
    await sleep(wait)
  }
  const [head, ...rest] = (last ?? '').split('\n')
  const lines = [head, ...(options.locator ? [`Locator: ${options.locator}`] : []), ...rest]
  throw new AssertionError(`${lines.join('\n')}\nTimeout: ${timeout}ms (checked ${tries} time${tries === 1 ? '' : 's'})`)
}
