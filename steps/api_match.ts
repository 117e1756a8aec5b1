// Matching JSON against an expected document with markers, as API steps
// check a response: every difference is reported with its JSON path.
//
// In the expected document a string may be a marker instead of a value:
//
//   #ignore      anything, even a missing key     #present     any value, null too
//   #notpresent  the key must be missing          #null        null (the key must be there)
//   #notnull     any value but null               #string #number #integer #boolean #array #object
//   #uuid        a UUID string                    #date        an ISO 8601 date, 2024-01-31
//   #datetime    an ISO 8601 date and time, 2024-01-31T09:30:00Z (seconds, fraction, zone optional)
//   #regex RE    a string that RE matches whole   #[] #[N]     an array (of N elements)
//   #[] MARKER   an array whose every element is MARKER, e.g. "#[] #string", "#[2] #uuid"
//   ##MARKER     optional: missing or null, or else MARKER ("##string")
//   #? EXPR      a JavaScript expression that must be true of the value, `_`
//                ("#? _ > 0"); `$` is the whole actual document, remembered
//                values are there by name ("#? _ >= minAge")
//   #TYPE? EXPR  the type marker, then the expression ("#string? _.length == 3")
//
// "\#..." is the literal string "#..." (in JSON: "\\#...").

import { childPath } from './api_path'

/** How strictly a document must match. */
export interface MatchOptions {
  /**
   * A subset is enough: the actual objects may have more keys and the
   * actual arrays more elements, found in any order.
   */
  contains?: boolean
  /** Arrays may list the expected elements in any order (with exactly as many elements). */
  anyOrder?: boolean
  /**
   * One is enough (Karate's "contains any"): an expected array passes when
   * one of its elements is found in the actual array, an expected object
   * when one of its fields matches. Below the top level, "contains".
   */
  containsAny?: boolean
  /**
   * Resolves memory references in an expected string ("$id", "user-$id");
   * returns undefined when the string has none.
   */
  resolve?: (s: string) => { value: unknown } | undefined
  /** A remembered value by its name, for the names in `#? ...` expressions; undefined when none. */
  lookup?: (name: string) => { value: unknown } | undefined
}

/** One difference: where, and what was expected and found. */
export interface Mismatch {
  path: string
  message: string
}

/** A marker that does not exist or is malformed: a mistake in the feature, not a mismatch. */
export class MarkerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MarkerError'
  }
}

/** The markers a feature may write, for documentation and error messages. */
export const markers = ['#ignore', '#present', '#notpresent', '#null', '#notnull', '#string', '#number', '#integer', '#boolean', '#array', '#object', '#uuid', '#date', '#datetime', '#regex RE', '#[]', '#[N]', '#[] MARKER', '##MARKER', '#? EXPR', '#TYPE? EXPR']

type Marker =
  | { kind: 'ignore' | 'present' | 'notpresent' | 'null' | 'notnull' | 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'uuid' | 'date' | 'datetime' }
  | { kind: 'regex'; re: RegExp }
  | { kind: 'each'; size: number | null; element: Marker | null }
  | { kind: 'optional'; inner: Marker }
  | { kind: 'expr'; base: Marker | null; source: string; fn: (value: unknown, root: unknown, scope: object) => unknown }

const simple = new Set(['ignore', 'present', 'notpresent', 'null', 'notnull', 'string', 'number', 'integer', 'boolean', 'array', 'object', 'uuid', 'date', 'datetime'])

const markerCache = new Map<string, Marker>()

/** The marker a string is, or null when it is a plain value. Throws MarkerError for an unknown marker. */
export function parseMarker(s: string, path = '$'): Marker | null {
  if (!s.startsWith('#')) return null
  let m = markerCache.get(s)
  if (!m) {
    m = parseMarkerText(s, path)
    markerCache.set(s, m)
  }
  return m
}

function parseMarkerText(s: string, path: string): Marker {
  const bad = (why: string) => new MarkerError(`${why} at ${path}: ${JSON.stringify(s)} (markers: ${markers.join(', ')}; write "\\\\#..." for a literal string starting with #)`)
  if (s.startsWith('##')) {
    const inner = parseMarkerText(s.slice(1), path)
    if (inner.kind === 'optional') throw bad('a marker is optional once')
    return { kind: 'optional', inner }
  }
  const regex = /^#regex\s+([\s\S]+)$/.exec(s)
  if (regex) {
    try {
      return { kind: 'regex', re: new RegExp('^(?:' + regex[1] + ')$') }
    } catch (e: any) {
      throw bad(`invalid regular expression (${e.message})`)
    }
  }
  const expr = /^#([a-z]*)\?\s*([\s\S]*)$/.exec(s)
  if (expr) {
    let base: Marker | null = null
    if (expr[1] !== '') {
      if (!simple.has(expr[1]) || ['ignore', 'present', 'notpresent'].includes(expr[1])) throw bad(`"#${expr[1]}?" is not a type marker an expression can follow (e.g. "#number? _ > 0")`)
      base = { kind: expr[1] } as Marker
    }
    const source = expr[2].trim()
    if (source === '') throw bad('"#?" needs an expression of _, the value, e.g. "#? _ > 0"')
    let fn: (value: unknown, root: unknown, scope: object) => unknown
    try {
      // Sloppy mode, for `with`: remembered values are names in scope.
      fn = new Function('_', '$', '__scope', `with (__scope) { return (${source}\n) }`) as any
    } catch (e: any) {
      throw bad(`the expression is not valid JavaScript (${e.message})`)
    }
    return { kind: 'expr', base, source, fn }
  }
  const each = /^#\[(\d*)\]\s*(.*)$/.exec(s)
  if (each) {
    const size = each[1] === '' ? null : Number(each[1])
    if (each[2] === '') return { kind: 'each', size, element: null }
    if (!each[2].startsWith('#')) throw bad('the element marker after "#[]" starts with #, e.g. "#[] #string"')
    return { kind: 'each', size, element: parseMarkerText(each[2], path + '[*]') }
  }
  const name = s.slice(1)
  if (simple.has(name)) return { kind: name } as Marker
  if (name === 'regex') throw bad('"#regex" needs a pattern, e.g. "#regex [A-Z]{3}"')
  throw bad('unknown marker')
}

/** The marker as written, for messages. */
function markerText(m: Marker): string {
  switch (m.kind) {
    case 'regex':
      return '#regex ' + m.re.source.slice(4, -2)
    case 'each':
      return `#[${m.size ?? ''}]` + (m.element ? ' ' + markerText(m.element) : '')
    case 'optional':
      return '#' + markerText(m.inner)
    case 'expr':
      return (m.base ? markerText(m.base) : '#') + '? ' + m.source
    default:
      return '#' + m.kind
  }
}

const uuidRE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const dateRE = /^(\d{4})-(\d{2})-(\d{2})$/
const dateTimeRE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:[Zz]|[+-](\d{2}):?(\d{2}))?$/

/** Whether y-m-d is a day of the calendar. */
function validDate(y: string, m: string, d: string): boolean {
  const yy = Number(y)
  const mm = Number(m)
  const dd = Number(d)
  if (mm < 1 || mm > 12 || dd < 1) return false
  const days = [31, yy % 4 === 0 && (yy % 100 !== 0 || yy % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  return dd <= days[mm - 1]
}

/** Whether s is an ISO 8601 date (2024-01-31). */
export function isISODate(s: unknown): boolean {
  const m = typeof s === 'string' ? dateRE.exec(s) : null
  return !!m && validDate(m[1], m[2], m[3])
}

/** Whether s is an ISO 8601 date and time (2024-01-31T09:30:00.5+01:00). */
export function isISODateTime(s: unknown): boolean {
  const m = typeof s === 'string' ? dateTimeRE.exec(s) : null
  if (!m || !validDate(m[1], m[2], m[3])) return false
  const [h, min, sec, zh, zm] = [m[4], m[5], m[6] ?? '0', m[7] ?? '0', m[8] ?? '0'].map(Number)
  return h <= 23 && min <= 59 && sec <= 60 && zh <= 23 && zm <= 59
}

/** Whether s is a UUID (any version). */
export function isUUID(s: unknown): boolean {
  return typeof s === 'string' && uuidRE.test(s)
}

/** A JSON value as a message shows it: compact, cut after max characters. */
export function showJSON(v: unknown, max = 80): string {
  let s: string
  if (v === undefined) return 'nothing'
  try {
    s = JSON.stringify(v)
  } catch {
    s = String(v)
  }
  return s.length > max ? s.slice(0, max - 3) + '...' : s
}

function kindOf(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'object') return 'an object'
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number'
  return `a ${typeof v}`
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/**
 * Why actual (present or not) fails marker m, or null when it passes.
 * The reason is a phrase such as "received 42 (not a string)".
 */
function failsMarker(present: boolean, actual: unknown, m: Marker, opts: MatchOptions, path: string, out: Mismatch[]): string | null {
  const received = () => `received ${showJSON(actual)}`
  if (m.kind === 'ignore') return null
  if (m.kind === 'notpresent') return present ? `${received()}, but the key must not be there` : null
  if (!present) return m.kind === 'optional' ? null : 'missing'
  switch (m.kind) {
    case 'present':
      return null
    case 'optional':
      return actual === null ? null : failsMarker(true, actual, m.inner, opts, path, out)
    case 'null':
      return actual === null ? null : `${received()} (${kindOf(actual)}, not null)`
    case 'notnull':
      return actual === null ? 'received null' : null
    case 'string':
    case 'boolean':
      return typeof actual === m.kind ? null : `${received()} (${kindOf(actual)}, not a ${m.kind})`
    case 'number':
      return typeof actual === 'number' ? null : `${received()} (${kindOf(actual)}, not a number)`
    case 'integer':
      return Number.isInteger(actual) ? null : `${received()} (${kindOf(actual)}, not an integer)`
    case 'array':
      return Array.isArray(actual) ? null : `${received()} (${kindOf(actual)}, not an array)`
    case 'object':
      return isObject(actual) ? null : `${received()} (${kindOf(actual)}, not an object)`
    case 'uuid':
      return isUUID(actual) ? null : `${received()} (not a UUID)`
    case 'date':
      return isISODate(actual) ? null : `${received()} (not an ISO 8601 date like 2024-01-31)`
    case 'datetime':
      return isISODateTime(actual) ? null : `${received()} (not an ISO 8601 date-time like 2024-01-31T09:30:00Z)`
    case 'regex':
      if (typeof actual !== 'string') return `${received()} (${kindOf(actual)}, not a string)`
      return m.re.test(actual) ? null : `${received()} (does not match)`
    case 'expr': {
      if (m.base) {
        const why = failsMarker(true, actual, m.base, opts, path, out)
        if (why) return why
      }
      let ok: unknown
      try {
        ok = m.fn(actual, matchRoot, scopeOf(opts))
      } catch (e: any) {
        return `${received()} (the expression threw ${e?.name ?? 'Error'}: ${e?.message ?? e})`
      }
      return ok ? null : `${received()} (the expression is false)`
    }
    case 'each': {
      if (!Array.isArray(actual)) return `${received()} (${kindOf(actual)}, not an array)`
      if (m.size !== null && actual.length !== m.size) return `received ${actual.length} element${actual.length === 1 ? '' : 's'}`
      if (m.element) {
        const el = m.element
        actual.forEach((e, i) => {
          const why = failsMarker(true, e, el, opts, childPath(path, i), out)
          if (why) out.push({ path: childPath(path, i), message: `expected ${markerText(el)}, ${why}` })
        })
      }
      return null
    }
  }
}

/**
 * The differences between actual and expected, each with its JSON path
 * (path is the path of actual itself, "$" for a whole document). Empty when
 * they match. Throws MarkerError for a malformed marker in expected.
 */
export function matchJSON(actual: unknown, expected: unknown, opts: MatchOptions = {}, path = '$'): Mismatch[] {
  const out: Mismatch[] = []
  const before = matchRoot
  matchRoot = actual
  try {
    if (opts.containsAny) matchAny(actual, expected, { ...opts, containsAny: false, contains: true }, path, out)
    else matchValue(true, actual, expected, opts, path, out, false)
  } finally {
    matchRoot = before
  }
  return out
}

/** The actual document being matched: `$` in a `#? ...` expression. */
let matchRoot: unknown

/** The names a `#? ...` expression sees besides _ and $: the remembered values. */
function scopeOf(opts: MatchOptions): object {
  const lookup = opts.lookup
  if (!lookup) return {}
  return new Proxy(
    {},
    {
      has: (_t, name) => typeof name === 'string' && name !== '_' && name !== '$' && lookup(name) !== undefined,
      get: (_t, name) => (typeof name === 'string' ? lookup(name)?.value : undefined),
    },
  )
}

/**
 * Karate's "contains any": one expected element (of an array) or field (of
 * an object) that matches is enough; the others may be missing or differ.
 */
function matchAny(actual: unknown, expected: unknown, opts: MatchOptions, path: string, out: Mismatch[]): void {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      out.push({ path, message: `expected an array, received ${showJSON(actual)} (${kindOf(actual)})` })
      return
    }
    const hit = expected.some((e) => actual.some((a, j) => subMatch(a, e, opts, childPath(path, j), false).length === 0))
    if (!hit) out.push({ path, message: `expected any of ${showJSON(expected, 200)}, received ${showJSON(actual, 200)} (none of them is there)` })
    return
  }
  if (isObject(expected)) {
    if (!isObject(actual)) {
      out.push({ path, message: `expected an object, received ${showJSON(actual)} (${kindOf(actual)})` })
      return
    }
    const misses: Mismatch[] = []
    for (const k of Object.keys(expected)) {
      const has = Object.prototype.hasOwnProperty.call(actual, k)
      const ms: Mismatch[] = []
      matchValue(has, has ? actual[k] : undefined, expected[k], opts, childPath(path, k), ms, false)
      if (ms.length === 0) return
      misses.push(...ms)
    }
    out.push({ path, message: `expected any of the fields ${Object.keys(expected).map((k) => JSON.stringify(k)).join(', ')} to match, but none does:` })
    out.push(...misses)
    return
  }
  matchValue(true, actual, expected, opts, path, out, false)
}

function matchValue(present: boolean, actual: unknown, expected: unknown, opts: MatchOptions, path: string, out: Mismatch[], literal: boolean): void {
  if (typeof expected === 'string' && !literal) {
    const m = parseMarker(expected, path)
    if (m) {
      const why = failsMarker(present, actual, m, opts, path, out)
      if (why) out.push({ path, message: `expected ${markerText(m)}, ${why}` })
      return
    }
    if (expected.startsWith('\\#')) expected = expected.slice(1)
    else {
      const r = opts.resolve?.(expected)
      if (r && r.value !== expected) {
        const before = out.length
        if (present && looselyEqual(actual, r.value)) return
        matchValue(present, actual, r.value, opts, path, out, true)
        for (let i = before; i < out.length; i++) out[i].message += ` (from ${expected})`
        return
      }
    }
  }
  if (!present) {
    out.push({ path, message: `missing, expected ${showJSON(expected)}` })
    return
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      out.push({ path, message: `expected an array, received ${showJSON(actual)} (${kindOf(actual)})` })
      return
    }
    matchArray(actual, expected, opts, path, out, literal)
    return
  }
  if (isObject(expected)) {
    if (!isObject(actual)) {
      out.push({ path, message: `expected an object, received ${showJSON(actual)} (${kindOf(actual)})` })
      return
    }
    for (const k of Object.keys(expected)) {
      const has = Object.prototype.hasOwnProperty.call(actual, k)
      matchValue(has, has ? actual[k] : undefined, expected[k], opts, childPath(path, k), out, literal)
    }
    if (!opts.contains) {
      for (const k of Object.keys(actual)) {
        if (!Object.prototype.hasOwnProperty.call(expected, k)) out.push({ path: childPath(path, k), message: `not expected, received ${showJSON(actual[k])}` })
      }
    }
    return
  }
  if (actual === expected) return
  if (typeof actual !== typeof expected || actual === null || expected === null) {
    out.push({ path, message: `expected ${showJSON(expected)} (${kindOf(expected)}), received ${showJSON(actual)} (${kindOf(actual)})` })
  } else {
    out.push({ path, message: `expected ${showJSON(expected)}, received ${showJSON(actual)}` })
  }
}

/** A remembered value against the actual one: a number or boolean equals its text. */
function looselyEqual(actual: unknown, remembered: unknown): boolean {
  const prim = (v: unknown) => typeof v === 'number' || typeof v === 'boolean'
  if (typeof remembered === 'string' && prim(actual)) return String(actual) === remembered
  if (typeof actual === 'string' && prim(remembered)) return String(remembered) === actual
  return false
}

function matchArray(actual: unknown[], expected: unknown[], opts: MatchOptions, path: string, out: Mismatch[], literal: boolean): void {
  const plural = (n: number) => `${n} element${n === 1 ? '' : 's'}`
  if (!opts.contains && !opts.anyOrder) {
    if (actual.length !== expected.length) out.push({ path, message: `expected ${plural(expected.length)}, received ${plural(actual.length)}` })
    const n = Math.max(actual.length, expected.length)
    for (let i = 0; i < n; i++) {
      if (i >= actual.length) out.push({ path: childPath(path, i), message: `missing, expected ${showJSON(expected[i])}` })
      else if (i >= expected.length) out.push({ path: childPath(path, i), message: `not expected, received ${showJSON(actual[i])}` })
      else matchValue(true, actual[i], expected[i], opts, childPath(path, i), out, literal)
    }
    return
  }
  // Any order: pair each expected element with a distinct actual element
  // that matches it (a bipartite matching: markers make a greedy pairing
  // fail, e.g. ["#string", "a"] against ["a", "b"]).
  if (!opts.contains && actual.length !== expected.length) out.push({ path, message: `expected ${plural(expected.length)}, received ${plural(actual.length)}` })
  const fits: boolean[][] = expected.map((e) => actual.map((a, j) => subMatch(a, e, opts, childPath(path, j), literal).length === 0))
  const owner: number[] = actual.map(() => -1) // actual j -> expected i
  const assign = (i: number, seen: boolean[]): boolean => {
    for (let j = 0; j < actual.length; j++) {
      if (!fits[i][j] || seen[j]) continue
      seen[j] = true
      if (owner[j] < 0 || assign(owner[j], seen)) {
        owner[j] = i
        return true
      }
    }
    return false
  }
  const unmatched: number[] = []
  expected.forEach((_, i) => {
    if (!assign(i, actual.map(() => false))) unmatched.push(i)
  })
  for (const i of unmatched) {
    const free = actual.map((_, j) => j).filter((j) => owner[j] < 0)
    out.push({ path, message: `no element matches the expected [${i}] ${showJSON(expected[i])}` })
    // The closest free element shows what differs.
    let best: Mismatch[] | null = null
    let bestJ = -1
    for (const j of free) {
      const d = subMatch(actual[j], expected[i], opts, childPath(path, j), literal)
      if (best === null || d.length < best.length) {
        best = d
        bestJ = j
      }
    }
    if (best && bestJ >= 0 && (isObject(expected[i]) || Array.isArray(expected[i]))) {
      for (const d of best.slice(0, 5)) out.push({ path: d.path, message: `${d.message} (the closest element to the expected [${i}])` })
    }
  }
  // Exactly as many elements: the free ones are those the closest-element
  // lines already show; with more, each free one is unexpected.
  if (!opts.contains && actual.length > expected.length) {
    actual.forEach((a, j) => {
      if (owner[j] < 0) out.push({ path: childPath(path, j), message: `not expected, received ${showJSON(a)}` })
    })
  }
}

function subMatch(actual: unknown, expected: unknown, opts: MatchOptions, path: string, literal: boolean): Mismatch[] {
  const out: Mismatch[] = []
  matchValue(true, actual, expected, opts, path, out, literal)
  return out
}
