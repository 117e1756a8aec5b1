// The values `$name` gives. First the memory: values a scenario remembers
// (`I remember the text of "..." as "user"`) and later steps use as `$user`
// in their arguments, DataTables and doc strings. Each World has its own
// memory, so scenarios never share one. (memory.ts re-exports this module
// with the memory's steps.)
//
// A `$name` the scenario has not remembered is looked up, in order, in the
// Examples row of a Scenario Outline (`$user` is the column <user>), in
// [steps.values] of ferridriver.toml, in the environment (only the names
// [scripting] allowEnv lets process.env show), and among the computed values
// $uuid, $timestamp, $now and $today.
import { examplesRow } from './scenario'
import { stateOf } from './world'
import { values as configValues } from './project'
import { randomUUID } from 'node:crypto'

/** Where a `$name` is looked up after the scenario's memory. */
export interface ValueSource {
  /** A short name for error messages, e.g. "[steps.values]". */
  name: string
  /** The value of name (undefined when this source has none); world is the scenario's World. */
  get(name: string, world: object): unknown
  /** Values from this source are not shown in reports (the environment may hold secrets). */
  secret?: boolean
}

/** A `$name` a step used, as the report shows it. */
const used = new WeakMap<object, Map<string, string>>()

/**
 * The `$name`s the running step used, each with its value as the report
 * shows it, and forgets them: the step wrapper logs them after the step, so
 * that `Given I open "$todoApp"` shows the URL it opened.
 */
export function takeUsedValues(world: object): Map<string, string> {
  const m = used.get(world) ?? new Map<string, string>()
  used.delete(world)
  return m
}

function noteUse(world: object, name: string, found: { value?: unknown; secret?: boolean }): void {
  const shown = found.secret ? '(from the environment, not shown)' : typeof found.value === 'string' ? JSON.stringify(found.value) : show(found.value)
  stateOf(used, world, () => new Map()).set(name, shown)
}

function show(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return String(v)
  }
}

const memories = new WeakMap<object, Map<string, unknown>>()
const sources: ValueSource[] = []

/** The memory of a World (created on first use). */
export function memoryOf(world: object): Map<string, unknown> {
  return stateOf(memories, world, () => new Map())
}

/** Stores value under name in the World's memory. */
export function remember(world: object, name: string, value: unknown): void {
  memoryOf(world).set(name, value)
}

/** Adds a place `$name` is looked up in when the memory lacks it. */
export function addValueSource(source: ValueSource): void {
  sources.push(source)
}

/**
 * The value of name: the World's memory first, then each value source. A
 * name with dots (`$user.name`, `$response.items.0.id`) reads a property
 * path of the value stored under its first part.
 */
export function recall(world: object, name: string): unknown {
  const found = lookup(world, name)
  if (found.ok) return found.value
  const known = [...memoryOf(world).keys()].sort()
  throw new Error(
    `nothing is remembered as "${name}"` +
      (known.length ? ` (remembered: ${known.map((k) => '$' + k).join(', ')})` : ' (nothing is remembered in this scenario)') +
      `; $name is also looked up in ${sources.map((s) => s.name).join(', ')}`,
  )
}

function lookup(world: object, name: string): { ok: boolean; value?: unknown; secret?: boolean } {
  const mem = memoryOf(world)
  if (mem.has(name)) return { ok: true, value: mem.get(name) }
  for (const s of sources) {
    const v = s.get(name, world)
    if (v !== undefined) return { ok: true, value: v, secret: s.secret }
  }
  const dot = name.indexOf('.')
  if (dot > 0) {
    const head = lookup(world, name.slice(0, dot))
    if (head.ok) {
      let v: any = head.value
      for (const part of name.slice(dot + 1).split('.')) {
        if (v === null || v === undefined || typeof v !== 'object') return { ok: false }
        v = v[part]
      }
      if (v !== undefined) return { ok: true, value: v, secret: head.secret }
    }
  }
  return { ok: false }
}

const reference = /\$\$|\$\{([^}]+)\}|\$([A-Za-z_][\w]*(?:\.[\w-]+)*)/g

/**
 * Replaces `$name` and `${name}` in text by remembered values; `$$` is a
 * literal `$`. A `$name` nothing is remembered as is left as it is (so
 * "$5" in a price stays), except in the braced form, which must resolve.
 * When text is exactly one reference, the value keeps its type (a number, an
 * object...).
 */
export function interpolate(world: object, text: string): any {
  const whole = /^\$\{([^}]+)\}$|^\$([A-Za-z_][\w]*(?:\.[\w-]+)*)$/.exec(text)
  if (whole) {
    const name = whole[1] ?? whole[2]
    const found = lookup(world, name)
    if (found.ok) {
      noteUse(world, name, found)
      return found.value
    }
    if (whole[1] !== undefined) recall(world, name) // throws, naming what is known
    return text
  }
  return text.replace(reference, (m: string, braced?: string, bare?: string) => {
    if (m === '$$') return '$'
    const name = braced ?? bare!
    const found = lookup(world, name)
    if (!found.ok) {
      if (braced !== undefined) recall(world, name) // throws
      return m
    }
    noteUse(world, name, found)
    return typeof found.value === 'string' ? found.value : JSON.stringify(found.value)
  })
}

/** interpolate, always as a string. */
export function interpolateString(world: object, text: string): string {
  const v = interpolate(world, text)
  return typeof v === 'string' ? v : JSON.stringify(v)
}

/** The rows of a DataTable with every cell interpolated. */
export function interpolateRows(world: object, rows: string[][]): string[][] {
  return rows.map((r) => r.map((c) => interpolateString(world, c)))
}

const own = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k)

addValueSource({ name: 'the Examples row', get: (name, world) => {
  const row = examplesRow(world)
  return row && own(row, name) ? row[name] : undefined
} })
addValueSource({ name: '[steps.values]', get: (name) => (own(configValues, name) ? configValues[name] : undefined) })
addValueSource({ name: 'the environment ([scripting] allowEnv)', get: (name) => process.env[name], secret: true })

const pad = (n: number) => String(n).padStart(2, '0')
const computed: Record<string, () => unknown> = {
  uuid: () => randomUUID(),
  timestamp: () => Date.now(),
  now: () => new Date().toISOString(),
  today: () => {
    const d = new Date()
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
  },
}
addValueSource({ name: 'the computed values ($uuid, $timestamp, $now, $today)', get: (name) => (own(computed, name) ? computed[name]() : undefined) })
