// The memory: values a scenario remembers (`I remember the text of "..." as
// "user"`) and later steps use as `$user` in their arguments, DataTables and
// doc strings. Each World has its own memory, so scenarios never share one.

/** Where a `$name` is looked up after the scenario's memory. */
export interface ValueSource {
  /** A short name for error messages, e.g. "[steps.values]". */
  name: string
  get(name: string): unknown
}

const memories = new WeakMap<object, Map<string, unknown>>()
const sources: ValueSource[] = []

/** The memory of a World (created on first use). */
export function memoryOf(world: object): Map<string, unknown> {
  let m = memories.get(world)
  if (!m) {
    m = new Map()
    memories.set(world, m)
  }
  return m
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
      (known.length ? ` (remembered: ${known.map((k) => '$' + k).join(', ')})` : ' (nothing is remembered in this scenario)'),
  )
}

function lookup(world: object, name: string): { ok: boolean; value?: unknown } {
  const mem = memoryOf(world)
  if (mem.has(name)) return { ok: true, value: mem.get(name) }
  for (const s of sources) {
    const v = s.get(name)
    if (v !== undefined) return { ok: true, value: v }
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
      if (v !== undefined) return { ok: true, value: v }
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
    if (found.ok) return found.value
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
