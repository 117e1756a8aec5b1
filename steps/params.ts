// The parameter types of the built-in steps. Each reads a step's argument
// and interpolates `$name` (memory, [steps.values], outline columns, the
// allowed environment), so every step gets the values it needs without
// doing it itself:
//
//   {target}    an element: "Log in" (a page-object name), "login > User",
//               'role=button[name="Add"]', "#id"; optionally preceded by
//               "the first", "the last" or "the 2nd" (3rd, 21st...)
//   {text}      a quoted string, "..." or '...'
//   {expected}  what an assertion expects: a quoted string, a number, true or false
//   {to}        "to" or "not to", the negation of a state assertion
//   {storage}   "local" or "session"
import { defineParameterType } from '@cucumber/cucumber'
import { interpolate, interpolateString } from './values'
import { relocate } from './scenario'

const dq = /"((?:[^"\\]|\\.)*)"/
const sq = /'((?:[^'\\]|\\.)*)'/

/** A quoted argument as Cucumber's {string} unescapes it. */
function unquote(double: string | undefined, single: string | undefined): string {
  return (double ?? single ?? '').replace(/\\(["'\\])/g, '$1')
}

/** An element a step acts on or checks (see targets.ts). */
export class Target {
  constructor(
    /** The page-object name or selector, interpolated. */
    readonly text: string,
    /** Which match: 0-based, -1 for the last; undefined for the only one. */
    readonly nth?: number,
  ) {}

  toString(): string {
    const which = this.nth === undefined ? '' : this.nth === -1 ? 'the last ' : this.nth === 0 ? 'the first ' : `the ${ordinal(this.nth + 1)} `
    return which + JSON.stringify(this.text)
  }
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'
  return n + s
}

function nthOf(word: string | undefined): number | undefined {
  if (word === undefined) return undefined
  if (word === 'first') return 0
  if (word === 'last') return -1
  const n = parseInt(word, 10)
  if (n < 1) throw new Error(`"the ${word}": elements are counted from 1st`)
  return n - 1
}

const which = '(?:the (first|last|\\d+(?:st|nd|rd|th)) )?'

defineParameterType({
  name: 'target',
  regexp: [new RegExp(which + dq.source), new RegExp(which + sq.source)],
  transformer(this: object, nthD?: string, double?: string, nthS?: string, single?: string) {
    try {
      return new Target(interpolateString(this, unquote(double, single)), nthOf(nthD ?? nthS))
    } catch (e) {
      throw relocate(this, e)
    }
  },
  useForSnippets: false,
})

defineParameterType({
  name: 'text',
  regexp: [dq, sq],
  transformer(this: object, double?: string, single?: string) {
    try {
      return interpolateString(this, unquote(double, single))
    } catch (e) {
      throw relocate(this, e)
    }
  },
  useForSnippets: false,
})

defineParameterType({
  name: 'expected',
  regexp: [dq, sq, /(-?\d+(?:\.\d+)?)/, /(true|false)/],
  transformer(this: object, double?: string, single?: string, num?: string, bool?: string) {
    if (num !== undefined) return Number(num)
    if (bool !== undefined) return bool === 'true'
    try {
      return interpolate(this, unquote(double, single))
    } catch (e) {
      throw relocate(this, e)
    }
  },
  useForSnippets: false,
})

defineParameterType({
  name: 'to',
  regexp: /(?:not )?to/,
  transformer: (s: string) => s.startsWith('not'),
  useForSnippets: false,
})

defineParameterType({
  name: 'storage',
  regexp: /local|session/,
  transformer: (s: string) => s,
  useForSnippets: false,
})
