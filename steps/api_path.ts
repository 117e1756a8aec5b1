// JSON paths: how API steps name a field of a response.
//
//   items[0].id  items.0.id  $.items[0].id   the same field; "$" alone is the whole document
//   ['content-type']  ["a.b"]               a key with dots, spaces or brackets in it
//   items[-1]                                the last element
//   items[*].id  items.*.id                  every element's id (a list)
//   $..id                                    every "id" at any depth (a list)
//   items[?(@.active == true)].name          the elements whose field compares so (a list)
//   items.length                             the number of elements (of an array or a string)
//
// A filter compares a field of each element (@.field, @ for the element
// itself) with ==, !=, <, <=, >, >= to a JSON value or a quoted string;
// [?(@.field)] keeps the elements where the field is present and not null,
// false or "". A path with *, .. or a filter is a list of what it found,
// which may be empty; any other path names one field, which may be missing.

/** One step of a parsed path. */
export type Segment =
  | { kind: 'key'; key: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'descendants'; key: string | null } // ..key, or ..* for every value
  | { kind: 'filter'; field: Segment[]; op: string | null; value: unknown }

/** A path that does not parse. */
export class PathError extends Error {
  constructor(path: string, column: number, what: string) {
    super(`invalid JSON path ${JSON.stringify(path)}: ${what} at column ${column}`)
    this.name = 'PathError'
  }
}

const parsed = new Map<string, Segment[]>()

/** Parses a path (cached: steps read the same paths again and again). */
export function parsePath(path: string): Segment[] {
  let segs = parsed.get(path)
  if (!segs) {
    segs = new PathParser(path).parse()
    parsed.set(path, segs)
  }
  return segs
}

class PathParser {
  private i = 0
  constructor(private readonly src: string) {}

  private fail(what: string, at = this.i): never {
    throw new PathError(this.src, at + 1, what)
  }

  parse(): Segment[] {
    const s = this.src
    const out: Segment[] = []
    if (s.startsWith('$')) this.i = 1
    if (this.i < s.length && s[this.i] !== '.' && s[this.i] !== '[') {
      if (this.i > 0) this.fail('expected "." or "[" after "$"')
      out.push(this.name()) // a path may start with a bare name: items[0]
    }
    while (this.i < s.length) {
      const c = s[this.i]
      if (c === '.') {
        if (s[this.i + 1] === '.') {
          this.i += 2
          if (s[this.i] === '*') {
            this.i++
            out.push({ kind: 'descendants', key: null })
          } else {
            const n = this.name()
            out.push({ kind: 'descendants', key: n.kind === 'key' ? n.key : String((n as any).index) })
          }
          continue
        }
        this.i++
        if (s[this.i] === '*') {
          this.i++
          out.push({ kind: 'wildcard' })
          continue
        }
        out.push(this.name())
      } else if (c === '[') {
        out.push(this.bracket())
      } else {
        this.fail(`unexpected ${JSON.stringify(c)}`)
      }
    }
    return out
  }

  /** A bare name up to the next "." or "["; digits on their own are an index. */
  private name(): Segment {
    const start = this.i
    while (this.i < this.src.length && this.src[this.i] !== '.' && this.src[this.i] !== '[') {
      if (this.src[this.i] === ']') this.fail('unexpected "]"')
      this.i++
    }
    const key = this.src.slice(start, this.i)
    if (key === '') this.fail('expected a field name', start)
    if (/^(0|[1-9]\d*)$/.test(key)) return { kind: 'index', index: Number(key) }
    return { kind: 'key', key }
  }

  private bracket(): Segment {
    const s = this.src
    const open = this.i
    this.i++ // [
    let seg: Segment
    if (s[this.i] === '*') {
      this.i++
      seg = { kind: 'wildcard' }
    } else if (s[this.i] === "'" || s[this.i] === '"') {
      seg = { kind: 'key', key: this.quoted() }
    } else if (s[this.i] === '?') {
      seg = this.filter()
    } else {
      const m = /^-?\d+/.exec(s.slice(this.i))
      if (!m) this.fail('expected an index, "*", a quoted key or a filter in "[...]"')
      this.i += m[0].length
      seg = { kind: 'index', index: Number(m[0]) }
    }
    if (s[this.i] !== ']') this.fail(this.i >= s.length ? `unclosed "[" (opened at column ${open + 1})` : 'expected "]"')
    this.i++
    return seg
  }

  /** A quoted string at i, in single or double quotes, with \ escapes. */
  private quoted(): string {
    const s = this.src
    const q = s[this.i]
    const start = this.i
    let out = ''
    this.i++
    while (this.i < s.length && s[this.i] !== q) {
      if (s[this.i] === '\\' && this.i + 1 < s.length) this.i++
      out += s[this.i++]
    }
    if (this.i >= s.length) this.fail('unclosed quote', start)
    this.i++
    return out
  }

  /** ?(@.field op value) or ?(@.field) */
  private filter(): Segment {
    const s = this.src
    this.i++ // ?
    if (s[this.i] !== '(') this.fail('expected "(" after "?"')
    this.i++
    this.space()
    if (s[this.i] !== '@') this.fail('a filter starts with "@", the element, e.g. [?(@.active == true)]')
    this.i++
    const fieldStart = this.i
    while (this.i < s.length && !/[\s=!<>)]/.test(s[this.i])) {
      if (s[this.i] === "'" || s[this.i] === '"') this.quoted()
      else this.i++
    }
    const fieldSrc = s.slice(fieldStart, this.i)
    let field: Segment[] = []
    if (fieldSrc !== '') {
      try {
        field = parsePath('$' + fieldSrc)
      } catch (e: any) {
        this.fail(`bad field in filter (${e.message})`, fieldStart)
      }
    }
    this.space()
    let op: string | null = null
    let value: unknown = undefined
    const m = /^(==|!=|<=|>=|<|>)/.exec(s.slice(this.i))
    if (m) {
      op = m[1]
      this.i += op.length
      this.space()
      value = this.literal()
      this.space()
    }
    if (s[this.i] !== ')') this.fail('expected ")" to close the filter')
    this.i++
    return { kind: 'filter', field, op, value }
  }

  /** A JSON value or a single-quoted string, in a filter. */
  private literal(): unknown {
    const s = this.src
    if (s[this.i] === "'" || s[this.i] === '"') return this.quoted()
    const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(s.slice(this.i))
    if (!m) this.fail('expected a number, true, false, null or a quoted string')
    this.i += m[0].length
    return JSON.parse(m[0])
  }

  private space(): void {
    while (this.i < this.src.length && /\s/.test(this.src[this.i])) this.i++
  }
}

/** Whether a path names a list of matches (wildcard, descendants, filter) rather than one field. */
export function isListPath(path: string): boolean {
  return parsePath(path).some((s) => s.kind === 'wildcard' || s.kind === 'descendants' || s.kind === 'filter')
}

/** What reading a path found. */
export type PathResult =
  | { found: true; value: unknown }
  | { found: false; /** Why, e.g. `"items" has 3 elements, no [5]`. */ reason: string }

/** The canonical form of segments: $.items[0]['a b'] */
export function formatPath(segs: Segment[]): string {
  let out = '$'
  for (const s of segs) out += formatSegment(s)
  return out
}

function formatSegment(s: Segment): string {
  switch (s.kind) {
    case 'key':
      return /^[A-Za-z_$][\w$-]*$/.test(s.key) ? '.' + s.key : '[' + JSON.stringify(s.key) + ']'
    case 'index':
      return `[${s.index}]`
    case 'wildcard':
      return '[*]'
    case 'descendants':
      return s.key === null ? '..*' : '..' + s.key
    case 'filter':
      return `[?(@${formatPath(s.field).slice(1)}${s.op ? ` ${s.op} ${JSON.stringify(s.value)}` : ''})]`
  }
}

/** A path to a child: key of an object or index of an array, in canonical form. */
export function childPath(parent: string, key: string | number): string {
  return parent + formatSegment(typeof key === 'number' ? { kind: 'index', index: key } : { kind: 'key', key })
}

function typeName(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'object') return 'an object'
  return `a ${typeof v}`
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k)

/**
 * Reads path in value. A list path (*, .., filter) is always found: its
 * value is the list of what matched. Any other path is found when every
 * step exists; else reason says where it stopped.
 */
export function readPath(value: unknown, path: string): PathResult {
  const segs = parsePath(path)
  if (segs.some((s) => s.kind === 'wildcard' || s.kind === 'descendants' || s.kind === 'filter')) {
    let cur: unknown[] = [value]
    for (const s of segs) cur = cur.flatMap((v) => step(v, s))
    return { found: true, value: cur }
  }
  let cur: unknown = value
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]
    const where = i === 0 ? 'the document' : JSON.stringify(formatPath(segs.slice(0, i)))
    if (s.kind === 'key') {
      if (s.key === 'length' && (Array.isArray(cur) || typeof cur === 'string')) {
        cur = cur.length
        continue
      }
      if (!isObject(cur)) return { found: false, reason: `${where} is ${typeName(cur)}, not an object with "${s.key}"` }
      if (!has(cur, s.key)) {
        const keys = Object.keys(cur)
        return { found: false, reason: `${where} has no "${s.key}"` + (keys.length ? ` (it has ${keys.slice(0, 10).map((k) => JSON.stringify(k)).join(', ')}${keys.length > 10 ? ', ...' : ''})` : ' (it is empty)') }
      }
      cur = cur[s.key]
    } else if (s.kind === 'index') {
      if (!Array.isArray(cur)) return { found: false, reason: `${where} is ${typeName(cur)}, not an array` }
      const idx = s.index < 0 ? cur.length + s.index : s.index
      if (idx < 0 || idx >= cur.length) return { found: false, reason: `${where} has ${cur.length} element${cur.length === 1 ? '' : 's'}, no [${s.index}]` }
      cur = cur[idx]
    }
  }
  return { found: true, value: cur }
}

/** The values one segment leads to from v (for list paths). */
function step(v: unknown, s: Segment): unknown[] {
  switch (s.kind) {
    case 'key':
      if (s.key === 'length' && (Array.isArray(v) || typeof v === 'string')) return [v.length]
      return isObject(v) && has(v, s.key) ? [v[s.key]] : []
    case 'index': {
      if (!Array.isArray(v)) return []
      const idx = s.index < 0 ? v.length + s.index : s.index
      return idx >= 0 && idx < v.length ? [v[idx]] : []
    }
    case 'wildcard':
      return Array.isArray(v) ? v.slice() : isObject(v) ? Object.values(v) : []
    case 'descendants': {
      const out: unknown[] = []
      const walk = (x: unknown) => {
        if (Array.isArray(x)) {
          for (const e of x) {
            if (s.key === null) out.push(e)
            walk(e)
          }
        } else if (isObject(x)) {
          for (const k of Object.keys(x)) {
            if (s.key === null || k === s.key) out.push(x[k])
            walk(x[k])
          }
        }
      }
      walk(v)
      return out
    }
    case 'filter': {
      const items = Array.isArray(v) ? v : isObject(v) ? Object.values(v) : []
      return items.filter((e) => keep(e, s))
    }
  }
}

function keep(e: unknown, f: Extract<Segment, { kind: 'filter' }>): boolean {
  const r = readPath(e, formatPath(f.field))
  if (f.op === null) return r.found && r.value !== null && r.value !== false && r.value !== ''
  if (!r.found) return f.op === '!='
  const a = r.value as any
  const b = f.value as any
  switch (f.op) {
    case '==':
      return sameJSON(a, b)
    case '!=':
      return !sameJSON(a, b)
    case '<':
      return typeof a === typeof b && a < b
    case '<=':
      return typeof a === typeof b && a <= b
    case '>':
      return typeof a === typeof b && a > b
    case '>=':
      return typeof a === typeof b && a >= b
  }
  return false
}

/** Deep equality of JSON values (key order does not matter). */
export function sameJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJSON(x, b[i]))
  if (isObject(a)) {
    if (!isObject(b)) return false
    const ka = Object.keys(a)
    return ka.length === Object.keys(b).length && ka.every((k) => has(b, k) && sameJSON(a[k], b[k]))
  }
  return false
}

/**
 * Sets path in root to value, creating objects (and arrays, for an index)
 * on the way: builds a JSON request body from a table of paths. Returns
 * the new root. Only keys and indexes are allowed.
 */
export function setPath(root: unknown, path: string, value: unknown): unknown {
  const segs = parsePath(path)
  for (const s of segs) {
    if (s.kind !== 'key' && s.kind !== 'index') throw new PathError(path, 1, 'a field to set is made of names and indexes only')
  }
  if (segs.length === 0) return value
  const container = (s: Segment) => (s.kind === 'index' ? [] : {})
  if (root === undefined || root === null || typeof root !== 'object') root = container(segs[0])
  let cur: any = root
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i] as { kind: 'key'; key: string } | { kind: 'index'; index: number }
    const k = s.kind === 'key' ? s.key : s.index
    if (s.kind === 'index' && !Array.isArray(cur)) throw new PathError(path, 1, `${formatPath(segs.slice(0, i))} is an object, not an array`)
    if (s.kind === 'key' && Array.isArray(cur)) throw new PathError(path, 1, `${formatPath(segs.slice(0, i))} is an array, not an object`)
    if (i === segs.length - 1) {
      cur[k] = value
    } else {
      if (cur[k] !== undefined && cur[k] !== null && typeof cur[k] !== 'object') {
        throw new PathError(path, 1, `${formatPath(segs.slice(0, i + 1))} is already ${JSON.stringify(cur[k])}`)
      }
      if (cur[k] === undefined || cur[k] === null) cur[k] = container(segs[i + 1])
      cur = cur[k]
    }
  }
  return root
}
