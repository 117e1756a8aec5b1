// API testing: checking the last response (status, headers, body, JSON
// fields, whole documents with markers) and remembering parts of it.
import { Then, defineParameterType } from '@cucumber/cucumber'
import { interpolate, interpolateString, recall, remember } from './memory'
import { check, type Validation } from './validation'
import { attachExchange, exchangeOf, failure, located, nameExchange, readFixture, responseJSON, StepError, type Exchange, type ResponseRef } from './api_client'
import { formatPath, isListPath, parsePath, readPath } from './api_path'
import { parseJSON } from './api_json'
import { matchJSON, showJSON, type MatchOptions, type Mismatch } from './api_match'

// {value}: what a comparison expects, quoted ("text", 'text') or bare: a
// number, true, false, null or a remembered $name.
defineParameterType({
  name: 'value',
  regexp: /"([^"\\]*(?:\\.[^"\\]*)*)"|'([^'\\]*(?:\\.[^'\\]*)*)'|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|\$\{[^}]+\}|\$[A-Za-z_]\w*(?:\.[\w-]+)*)/,
  transformer: (dq?: string, sq?: string, bare?: string) => {
    if (dq !== undefined && dq !== null) return dq.replace(/\\"/g, '"')
    if (sq !== undefined && sq !== null) return sq.replace(/\\'/g, "'")
    if (bare !== undefined && bare !== null && !bare.startsWith('$')) return JSON.parse(bare)
    return bare
  },
  useForSnippets: false,
})

// {response}: which response a step checks: `the response` (the last one)
// or `the "name" response` (remembered, or intercepted from the page).
defineParameterType({
  name: 'response',
  regexp: /the response|the "([^"\\]*(?:\\.[^"\\]*)*)" response|the '([^'\\]*(?:\\.[^'\\]*)*)' response/,
  transformer(this: object, dq?: string, sq?: string): ResponseRef {
    const raw = dq ?? sq
    if (raw === undefined || raw === null) return { text: 'the response' }
    const name = interpolateString(this, raw.replace(/\\(["'\\])/g, '$1'))
    return { name, text: `the ${JSON.stringify(name)} response` }
  },
  useForSnippets: false,
})

// {toBe}: "to be" or "not to be".
defineParameterType({ name: 'toBe', regexp: /not to be|to be/, transformer: (s: string) => s.startsWith('not'), useForSnippets: false })

/** The kinds a field may be checked to be, and the marker that checks each. */
const kinds: Record<string, string> = {
  'a string': '#string',
  'a number': '#number',
  'an integer': '#integer',
  'a boolean': '#boolean',
  'an array': '#array',
  'an object': '#object',
  'a uuid': '#uuid',
  'a date': '#date',
  'a datetime': '#datetime',
  null: '#null',
  present: '#present',
  empty: '',
}

defineParameterType({
  name: 'jsonKind',
  regexp: new RegExp(Object.keys(kinds).join('|')),
  transformer: (s: string) => s,
  useForSnippets: false,
})

/** How a document is matched: {negate, contains, anyOrder}. */
interface JSONMatch extends MatchOptions {
  negate: boolean
  text: string
}

defineParameterType({
  name: 'jsonMatch',
  regexp: /(?:not )?to (?:match in any order|match|contain any|contain)/,
  transformer: (s: string): JSONMatch => ({ negate: s.startsWith('not '), contains: s.endsWith('contain'), containsAny: s.endsWith('contain any'), anyOrder: s.endsWith('any order'), text: s }),
  useForSnippets: false,
})

/** A step's expected {value}, with $name references resolved (keeping their type). */
function expectedValue(world: object, v: unknown): unknown {
  return typeof v === 'string' ? interpolate(world, v) : v
}

function checkOrFail(world: object, subject: string, actual: unknown, v: Validation, expected: unknown, ex: Exchange): void {
  const msg = check(subject, actual, v, expectedValue(world, expected))
  if (msg) throw failure(world, [msg], ex)
}

/** A field of a response's JSON; fails when the path leads nowhere. */
function field(world: object, r: ResponseRef, path: string, subject: string): { found: boolean; value: unknown; reason?: string } {
  const json = responseJSON(world, subject, r)
  const f = readPath(json, path)
  return f.found ? { found: true, value: f.value } : { found: false, value: undefined, reason: f.reason }
}

function fieldSubject(r: ResponseRef, path: string): string {
  return `${r.text} field ${JSON.stringify(path)}`
}

/** The mismatch lines of a failure, at most 25. */
function mismatchLines(ms: Mismatch[]): string[] {
  const lines = ms.slice(0, 25).map((m) => `  ${m.path}: ${m.message}`)
  if (ms.length > 25) lines.push(`  ... and ${ms.length - 25} more`)
  return lines
}

/** Parses an expected JSON document of a step, saying where it is wrong. */
function expectedDocument(text: string, what: string): unknown {
  try {
    return parseJSON(text, what)
  } catch (e: any) {
    throw new StepError(e.message)
  }
}

/** Options of matchJSON for a step: $name references resolve from the memory. */
function matchOptions(world: object, how: JSONMatch): MatchOptions {
  return {
    contains: how.contains,
    containsAny: how.containsAny,
    anyOrder: how.anyOrder,
    resolve: (s: string) => (s.includes('$') ? { value: interpolate(world, s) } : undefined),
    lookup: (name: string) => {
      try {
        return { value: recall(world, name) }
      } catch {
        return undefined
      }
    },
  }
}

/** Matches actual against a document and fails as the step says. */
function matchDocument(world: object, ex: Exchange, subject: string, actual: unknown, expected: unknown, how: JSONMatch, base = '$'): void {
  const ms = matchJSON(actual, expected, matchOptions(world, how), base)
  if (how.negate) {
    if (ms.length === 0) throw failure(world, [`Expected ${subject} ${how.text} the step's JSON, but it does`, `Received: ${showJSON(actual, 500)}`], ex)
    return
  }
  if (ms.length > 0) {
    throw failure(world, [`Expected ${subject} ${how.text} (${ms.length} difference${ms.length === 1 ? '' : 's'}):`, ...mismatchLines(ms)], ex)
  }
}

// ---- Status, headers, body, time ----

Then(
  'I expect {response} status {validation} {value}',
  {
    description: "Checks a response's HTTP status: the last one's, or a named one's (`the \"created\" response`).",
    example: ['Then I expect the response status to equal 201', 'Then I expect the response status not to equal 500', 'Then I expect the response status to be at least 400', 'Then I expect the "created" response status to equal 201'],
  },
  located(function (r: ResponseRef, v: Validation, expected: unknown) {
    const ex = exchangeOf(this, r)
    checkOrFail(this, `${r.text} status`, ex.status, v, expected, ex)
  }),
)

Then(
  'I expect {response} {toBe} successful',
  { description: 'Checks that a response status is (or is not) 2xx.', example: ['Then I expect the response to be successful', 'Then I expect the response not to be successful', 'Then I expect the "created" response to be successful'] },
  located(function (r: ResponseRef, negate: boolean) {
    const ex = exchangeOf(this, r)
    const ok = ex.status >= 200 && ex.status < 300
    if (ok === negate) {
      throw failure(this, [`Expected ${r.text} ${negate ? 'not ' : ''}to be successful (2xx)`, `Received: ${ex.status} ${ex.statusText}`], ex)
    }
  }),
)

/** The value of a response header (undefined when absent) and the names there are. */
function header(world: object, ex: Exchange, name: string): { value: string | undefined; names: string[] } {
  const h = ex.headers
  return { value: h[interpolateString(world, name).toLowerCase()], names: Object.keys(h).sort() }
}

Then(
  'I expect {response} header {string} {validation} {value}',
  { description: 'Checks a header of a response (names are case-insensitive).', example: ['Then I expect the response header "Content-Type" to contain "application/json"', 'Then I expect the response header "Cache-Control" not to contain "no-store"'] },
  located(function (r: ResponseRef, name: string, v: Validation, expected: unknown) {
    const ex = exchangeOf(this, r)
    const h = header(this, ex, name)
    const subject = `${r.text} header ${JSON.stringify(name)}`
    if (h.value === undefined) {
      if (v.negate) return
      throw failure(this, [`Expected ${subject} ${v.text} ${showJSON(expectedValue(this, expected))}, but the response has no such header (it has: ${h.names.join(', ')})`], ex)
    }
    checkOrFail(this, subject, h.value, v, expected, ex)
  }),
)

Then(
  'I expect {response} header {string} {toBe} present',
  { description: 'Checks that a response has (or has not) a header.', example: ['Then I expect the response header "X-Request-Id" to be present', 'Then I expect the response header "Set-Cookie" not to be present'] },
  located(function (r: ResponseRef, name: string, negate: boolean) {
    const ex = exchangeOf(this, r)
    const h = header(this, ex, name)
    if ((h.value !== undefined) === negate) {
      throw failure(this, [
        `Expected ${r.text} header ${JSON.stringify(name)} ${negate ? 'not ' : ''}to be present`,
        negate ? `Received: ${JSON.stringify(h.value)}` : `Received headers: ${h.names.join(', ')}`,
      ], ex)
    }
  }),
)

Then(
  'I expect {response} body {validation} {value}',
  { description: 'Checks the text of a response body.', example: ['Then I expect the response body to contain "Ada Lovelace"', 'Then I expect the response body not to contain "password"'] },
  located(function (r: ResponseRef, v: Validation, expected: unknown) {
    const ex = exchangeOf(this, r)
    checkOrFail(this, `${r.text} body`, ex.text, v, expected, ex)
  }),
)

Then(
  'I expect {response} body {validation}:',
  { description: 'Checks the text of a response body against a doc string.', example: 'Then I expect the response body to equal:\n  """\n  Hello, Ada!\n  """' },
  located(function (r: ResponseRef, v: Validation, doc: string) {
    const ex = exchangeOf(this, r)
    checkOrFail(this, `${r.text} body`, ex.text, v, interpolateString(this, doc), ex)
  }),
)

Then(
  'I expect {response} time {validation} {value}',
  { description: 'Checks how long a request took, in milliseconds (sending to the whole body read).', example: 'Then I expect the response time to be less than 2000' },
  located(function (r: ResponseRef, v: Validation, expected: unknown) {
    const ex = exchangeOf(this, r)
    checkOrFail(this, `${r.text} time (ms)`, ex.ms, v, expected, ex)
  }),
)

// ---- JSON fields ----

Then(
  'I expect {response} field {string} {validation} {value}',
  {
    description: 'Checks a field of a JSON response, named by a path such as "items[0].id" or "$.address.city" (a path with * or a filter is the list of what it finds).',
    example: ['Then I expect the response field "address.city" to equal "London"', 'Then I expect the response field "items" to have length 3', 'Then I expect the response field "items[*].name" to contain "Ada Lovelace"', 'Then I expect the response field "total" to be greater than 1', 'Then I expect the "ada" response field "name" to equal "Ada Lovelace"'],
  },
  located(function (r: ResponseRef, path: string, v: Validation, expected: unknown) {
    const ex = exchangeOf(this, r)
    const p = interpolateString(this, path)
    const subject = fieldSubject(r, p)
    const f = field(this, r, p, subject)
    if (!f.found) throw failure(this, [`Expected ${subject} ${v.text} ${showJSON(expectedValue(this, expected))}, but the response has no such field: ${f.reason}`], ex)
    checkOrFail(this, subject, f.value, v, expected, ex)
  }),
)

Then(
  'I expect {response} field {string} {toBe} {jsonKind}',
  {
    description: 'Checks the type of a field of a JSON response: a string, a number, an integer, a boolean, an array, an object, a uuid, a date, a datetime (ISO 8601), null, present or empty.',
    example: ['Then I expect the response field "uuid" to be a uuid', 'Then I expect the response field "managerId" to be null', 'Then I expect the response field "password" not to be present', 'Then I expect the response field "tags" not to be empty'],
  },
  located(function (r: ResponseRef, path: string, negate: boolean, kind: string) {
    const ex = exchangeOf(this, r)
    const p = interpolateString(this, path)
    const subject = fieldSubject(r, p)
    const f = field(this, r, p, subject)
    const want = `${negate ? 'not ' : ''}to be ${kind}`
    if (kind === 'present') {
      if (f.found === negate) throw failure(this, [`Expected ${subject} ${want}`, negate ? `Received: ${showJSON(f.value)}` : `But: ${f.reason}`], ex)
      return
    }
    if (!f.found) throw failure(this, [`Expected ${subject} ${want}, but the response has no such field: ${f.reason}`], ex)
    let holds: boolean
    if (kind === 'empty') {
      const v: any = f.value
      holds = v === '' || (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && Object.keys(v).length === 0)
    } else {
      holds = matchJSON(f.value, kinds[kind]).length === 0
    }
    if (holds === negate) throw failure(this, [`Expected ${subject} ${want}`, `Received: ${showJSON(f.value, 200)}`], ex)
  }),
)

// ---- Whole documents ----

Then(
  'I expect {response} JSON {jsonMatch}:',
  {
    description: 'Matches a JSON response against a document with markers ("#string", "#uuid", "#ignore", "#? _ > 0"...): "to match" is exact, "to match in any order" lets arrays be in any order, "to contain" is a subset, "to contain any" needs one of the expected elements or fields.',
    example: [
      'Then I expect the response JSON to match:\n  """json\n  { "id": 1, "uuid": "#uuid", "name": "#string", "roles": "#[] #string", "createdAt": "#datetime", "address": "#ignore" }\n  """',
      'Then I expect the response JSON to contain:\n  """json\n  { "items": [{ "name": "Grace Hopper" }] }\n  """',
      'Then I expect the response JSON not to contain:\n  """json\n  { "password": "#present" }\n  """',
      'Then I expect the "ada" response JSON to match:\n  """json\n  { "id": "#? _ > 0", "name": "#string? _.length > 3" }\n  """',
    ],
  },
  located(function (r: ResponseRef, how: JSONMatch, doc: string) {
    const ex = exchangeOf(this, r)
    const subject = `${r.text} JSON`
    matchDocument(this, ex, subject, responseJSON(this, subject, r), expectedDocument(doc, "the step's JSON"), how)
  }),
)

Then(
  'I expect {response} JSON {jsonMatch} the file {string}',
  { description: "Matches a JSON response against a JSON file with markers (relative to the feature file's directory).", example: 'Then I expect the response JSON to match the file "expected/user.json"' },
  located(function (r: ResponseRef, how: JSONMatch, file: string) {
    const ex = exchangeOf(this, r)
    const f = readFixture(interpolateString(this, file))
    const subject = `${r.text} JSON`
    matchDocument(this, ex, subject, responseJSON(this, subject, r), expectedDocument(f.data.toString('utf8'), f.path), how)
  }),
)

Then(
  'I expect {response} field {string} {jsonMatch}:',
  {
    description: 'Matches a field of a JSON response against a document with markers.',
    example: ['Then I expect the response field "address" to match:\n  """json\n  { "street": "#string", "city": "London", "country": "UK" }\n  """', 'Then I expect the response field "roles" to match in any order:\n  """json\n  ["editor", "admin"]\n  """', 'Then I expect the response field "tags" to contain any:\n  """json\n  ["poetry", "music"]\n  """'],
  },
  located(function (r: ResponseRef, path: string, how: JSONMatch, doc: string) {
    const ex = exchangeOf(this, r)
    const p = interpolateString(this, path)
    const subject = fieldSubject(r, p)
    const f = field(this, r, p, subject)
    if (!f.found) throw failure(this, [`Expected ${subject} ${how.text} the step's JSON, but the response has no such field: ${f.reason}`], ex)
    const base = isListPath(p) ? '$' : normalisedPath(p)
    matchDocument(this, ex, subject, f.value, expectedDocument(doc, "the step's JSON"), how, base)
  }),
)

Then(
  'I expect each element of {response} field {string} {jsonMatch}:',
  {
    description: 'Matches every element of an array field of a JSON response against a document with markers (an empty array fails).',
    example: 'Then I expect each element of the response field "items" to contain:\n  """json\n  { "id": "#integer", "uuid": "#uuid", "roles": "#[] #string", "createdAt": "#datetime" }\n  """',
  },
  located(function (r: ResponseRef, path: string, how: JSONMatch, doc: string) {
    const ex = exchangeOf(this, r)
    const p = interpolateString(this, path)
    const subject = `each element of ${fieldSubject(r, p)}`
    const f = field(this, r, p, subject)
    if (!f.found) throw failure(this, [`Expected ${subject} ${how.text} the step's JSON, but the response has no such field: ${f.reason}`], ex)
    if (!Array.isArray(f.value)) throw failure(this, [`Expected ${fieldSubject(r, p)} to be an array, received ${showJSON(f.value)}`], ex)
    if (f.value.length === 0) throw failure(this, [`Expected ${subject} ${how.text} the step's JSON, but the array is empty`], ex)
    const expected = expectedDocument(doc, "the step's JSON")
    const base = isListPath(p) ? '$' : normalisedPath(p)
    const all: Mismatch[] = []
    const opts = matchOptions(this, how)
    f.value.forEach((e, i) => {
      const ms = matchJSON(e, expected, opts, `${base}[${i}]`)
      if (how.negate && ms.length === 0) all.push({ path: `${base}[${i}]`, message: `matches, received ${showJSON(e)}` })
      if (!how.negate) all.push(...ms)
    })
    if (all.length > 0) {
      throw failure(this, [`Expected ${subject} ${how.text} (${all.length} difference${all.length === 1 ? '' : 's'}):`, ...mismatchLines(all)], ex)
    }
  }),
)

/** A definite path in canonical form ("$.a[0]"), for the paths of mismatches. */
function normalisedPath(p: string): string {
  return formatPath(parsePath(p))
}

// ---- Memory ----

Then(
  'I remember {response} field {string} as {string}',
  { description: 'Remembers a field of a JSON response (typed: a number stays a number) for $name in later steps.', example: ['Then I remember the response field "id" as "userId"', 'Then I remember the response field "items[?(@.name == \'Ada Lovelace\')].id" as "adaIds"'] },
  located(function (r: ResponseRef, path: string, name: string) {
    const ex = exchangeOf(this, r)
    const p = interpolateString(this, path)
    const f = field(this, r, p, fieldSubject(r, p))
    if (!f.found) throw failure(this, [`Expected to remember ${fieldSubject(r, p)}, but the response has no such field: ${f.reason}`], ex)
    remember(this, interpolateString(this, name), f.value)
  }),
)

Then(
  'I remember {response} header {string} as {string}',
  { description: 'Remembers a header of a response for $name in later steps.', example: 'Then I remember the response header "Location" as "userURL"' },
  located(function (r: ResponseRef, name: string, as: string) {
    const ex = exchangeOf(this, r)
    const h = header(this, ex, name)
    if (h.value === undefined) throw failure(this, [`Expected to remember ${r.text} header ${JSON.stringify(name)}, but the response has no such header (it has: ${h.names.join(', ')})`], ex)
    remember(this, interpolateString(this, as), h.value)
  }),
)

Then(
  'I remember {response} status as {string}',
  { description: 'Remembers the status of a response (a number) for $name in later steps.', example: 'Then I remember the response status as "status"' },
  located(function (r: ResponseRef, name: string) {
    remember(this, interpolateString(this, name), exchangeOf(this, r).status)
  }),
)

Then(
  'I remember {response} body as {string}',
  { description: 'Remembers the body of a response (its JSON, or its text) for $name in later steps.', example: 'Then I remember the response body as "createdUser"' },
  located(function (r: ResponseRef, name: string) {
    const ex = exchangeOf(this, r)
    remember(this, interpolateString(this, name), ex.json.ok ? ex.json.value : ex.text)
  }),
)

/** What $name holds for a named response: its status, headers and body (JSON or text). */
export function exchangeMemory(ex: Exchange): { status: number; headers: Record<string, string>; body: unknown; url: string; method: string } {
  return { status: ex.status, headers: ex.headers, body: ex.json.ok ? ex.json.value : ex.text, url: ex.url, method: ex.method }
}

Then(
  'I remember the response as {string}',
  {
    description: 'Names the last response, so later steps check it as `the "name" response` after other requests (qavajs\' "save response as"); $name is its .status, .headers, .body, .url and .method.',
    example: ['Then I remember the response as "created"', 'Then I remember the response as "ada"'],
  },
  located(function (name: string) {
    const n = interpolateString(this, name)
    const ex = exchangeOf(this)
    nameExchange(this, n, ex)
    remember(this, n, exchangeMemory(ex))
  }),
)

Then(
  'I attach {response} to the report',
  { description: 'Attaches a request and its response (headers and bodies) to the report, to see what an API returned.', example: ['Then I attach the response to the report', 'Then I attach the "created" response to the report'] },
  located(function (r: ResponseRef) {
    attachExchange(this, exchangeOf(this, r))
  }),
)
