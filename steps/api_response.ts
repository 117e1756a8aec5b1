// API testing: checking the last response (status, headers, body, JSON
// fields, whole documents with markers) and remembering parts of it.
import { Then, defineParameterType } from '@cucumber/cucumber'
import { interpolate, interpolateString, remember } from './memory'
import { check, type Validation } from './validation'
import { attachExchange, failure, lastExchange, located, readFixture, responseJSON, StepError } from './api_client'
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
  regexp: /(?:not )?to (?:match in any order|match|contain)/,
  transformer: (s: string): JSONMatch => ({ negate: s.startsWith('not '), contains: s.endsWith('contain'), anyOrder: s.endsWith('any order'), text: s }),
  useForSnippets: false,
})

/** A step's expected {value}, with $name references resolved (keeping their type). */
function expectedValue(world: object, v: unknown): unknown {
  return typeof v === 'string' ? interpolate(world, v) : v
}

function checkOrFail(world: object, subject: string, actual: unknown, v: Validation, expected: unknown): void {
  const msg = check(subject, actual, v, expectedValue(world, expected))
  if (msg) throw failure(world, [msg])
}

/** A field of the response JSON; fails when the path leads nowhere. */
function field(world: object, path: string, subject: string): { found: boolean; value: unknown; reason?: string } {
  const json = responseJSON(world, subject)
  const r = readPath(json, path)
  return r.found ? { found: true, value: r.value } : { found: false, value: undefined, reason: r.reason }
}

function fieldSubject(path: string): string {
  return `the response field ${JSON.stringify(path)}`
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
    anyOrder: how.anyOrder,
    resolve: (s: string) => (s.includes('$') ? { value: interpolate(world, s) } : undefined),
  }
}

/** Matches actual against a document and fails as the step says. */
function matchDocument(world: object, subject: string, actual: unknown, expected: unknown, how: JSONMatch, base = '$'): void {
  const ms = matchJSON(actual, expected, matchOptions(world, how), base)
  if (how.negate) {
    if (ms.length === 0) throw failure(world, [`Expected ${subject} ${how.text} the step's JSON, but it does`, `Received: ${showJSON(actual, 500)}`])
    return
  }
  if (ms.length > 0) {
    throw failure(world, [`Expected ${subject} ${how.text} (${ms.length} difference${ms.length === 1 ? '' : 's'}):`, ...mismatchLines(ms)])
  }
}

// ---- Status, headers, body, time ----

Then(
  'I expect the response status {validation} {value}',
  { description: "Checks the last response's HTTP status.", example: ['Then I expect the response status to equal 201', 'Then I expect the response status not to equal 500', 'Then I expect the response status to be at least 400'] },
  located(function (v: Validation, expected: unknown) {
    checkOrFail(this, 'the response status', lastExchange(this).status, v, expected)
  }),
)

Then(
  'I expect the response {toBe} successful',
  { description: 'Checks that the last response status is (or is not) 2xx.', example: ['Then I expect the response to be successful', 'Then I expect the response not to be successful'] },
  located(function (negate: boolean) {
    const ex = lastExchange(this)
    const ok = ex.status >= 200 && ex.status < 300
    if (ok === negate) {
      throw failure(this, [`Expected the response ${negate ? 'not ' : ''}to be successful (2xx)`, `Received: ${ex.status} ${ex.statusText}`])
    }
  }),
)

/** The value of a response header (undefined when absent) and the names there are. */
function header(world: object, name: string): { value: string | undefined; names: string[] } {
  const h = lastExchange(world).headers
  return { value: h[interpolateString(world, name).toLowerCase()], names: Object.keys(h).sort() }
}

Then(
  'I expect the response header {string} {validation} {value}',
  { description: 'Checks a header of the last response (names are case-insensitive).', example: ['Then I expect the response header "Content-Type" to contain "application/json"', 'Then I expect the response header "Cache-Control" not to contain "no-store"'] },
  located(function (name: string, v: Validation, expected: unknown) {
    const h = header(this, name)
    const subject = `the response header ${JSON.stringify(name)}`
    if (h.value === undefined) {
      if (v.negate) return
      throw failure(this, [`Expected ${subject} ${v.text} ${showJSON(expectedValue(this, expected))}, but the response has no such header (it has: ${h.names.join(', ')})`])
    }
    checkOrFail(this, subject, h.value, v, expected)
  }),
)

Then(
  'I expect the response header {string} {toBe} present',
  { description: 'Checks that the last response has (or has not) a header.', example: ['Then I expect the response header "X-Request-Id" to be present', 'Then I expect the response header "Set-Cookie" not to be present'] },
  located(function (name: string, negate: boolean) {
    const h = header(this, name)
    if ((h.value !== undefined) === negate) {
      throw failure(this, [
        `Expected the response header ${JSON.stringify(name)} ${negate ? 'not ' : ''}to be present`,
        negate ? `Received: ${JSON.stringify(h.value)}` : `Received headers: ${h.names.join(', ')}`,
      ])
    }
  }),
)

Then(
  'I expect the response body {validation} {value}',
  { description: 'Checks the text of the last response body.', example: ['Then I expect the response body to contain "Ada Lovelace"', 'Then I expect the response body not to contain "password"'] },
  located(function (v: Validation, expected: unknown) {
    checkOrFail(this, 'the response body', lastExchange(this).text, v, expected)
  }),
)

Then(
  'I expect the response body {validation}:',
  { description: 'Checks the text of the last response body against a doc string.', example: 'Then I expect the response body to equal:\n  """\n  Hello, Ada!\n  """' },
  located(function (v: Validation, doc: string) {
    checkOrFail(this, 'the response body', lastExchange(this).text, v, interpolateString(this, doc))
  }),
)

Then(
  'I expect the response time {validation} {value}',
  { description: 'Checks how long the last request took, in milliseconds (sending to the whole body read).', example: 'Then I expect the response time to be less than 2000' },
  located(function (v: Validation, expected: unknown) {
    checkOrFail(this, 'the response time (ms)', lastExchange(this).ms, v, expected)
  }),
)

// ---- JSON fields ----

Then(
  'I expect the response field {string} {validation} {value}',
  {
    description: 'Checks a field of the last JSON response, named by a path such as "items[0].id" or "$.address.city" (a path with * or a filter is the list of what it finds).',
    example: ['Then I expect the response field "address.city" to equal "London"', 'Then I expect the response field "items" to have length 3', 'Then I expect the response field "items[*].name" to contain "Ada Lovelace"', 'Then I expect the response field "total" to be greater than 1'],
  },
  located(function (path: string, v: Validation, expected: unknown) {
    const p = interpolateString(this, path)
    const subject = fieldSubject(p)
    const f = field(this, p, subject)
    if (!f.found) throw failure(this, [`Expected ${subject} ${v.text} ${showJSON(expectedValue(this, expected))}, but the response has no such field: ${f.reason}`])
    checkOrFail(this, subject, f.value, v, expected)
  }),
)

Then(
  'I expect the response field {string} {toBe} {jsonKind}',
  {
    description: 'Checks the type of a field of the last JSON response: a string, a number, an integer, a boolean, an array, an object, a uuid, a date, a datetime (ISO 8601), null, present or empty.',
    example: ['Then I expect the response field "uuid" to be a uuid', 'Then I expect the response field "managerId" to be null', 'Then I expect the response field "password" not to be present', 'Then I expect the response field "tags" not to be empty'],
  },
  located(function (path: string, negate: boolean, kind: string) {
    const p = interpolateString(this, path)
    const subject = fieldSubject(p)
    const f = field(this, p, subject)
    const want = `${negate ? 'not ' : ''}to be ${kind}`
    if (kind === 'present') {
      if (f.found === negate) throw failure(this, [`Expected ${subject} ${want}`, negate ? `Received: ${showJSON(f.value)}` : `But: ${f.reason}`])
      return
    }
    if (!f.found) throw failure(this, [`Expected ${subject} ${want}, but the response has no such field: ${f.reason}`])
    let holds: boolean
    if (kind === 'empty') {
      const v: any = f.value
      holds = v === '' || (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && Object.keys(v).length === 0)
    } else {
      holds = matchJSON(f.value, kinds[kind]).length === 0
    }
    if (holds === negate) throw failure(this, [`Expected ${subject} ${want}`, `Received: ${showJSON(f.value, 200)}`])
  }),
)

// ---- Whole documents ----

Then(
  'I expect the response JSON {jsonMatch}:',
  {
    description: 'Matches the last JSON response against a document with markers ("#string", "#uuid", "#ignore"...): "to match" is exact, "to match in any order" lets arrays be in any order, "to contain" is a subset.',
    example: [
      'Then I expect the response JSON to match:\n  """json\n  { "id": 1, "uuid": "#uuid", "name": "#string", "roles": "#[] #string", "createdAt": "#datetime", "address": "#ignore" }\n  """',
      'Then I expect the response JSON to contain:\n  """json\n  { "items": [{ "name": "Grace Hopper" }] }\n  """',
      'Then I expect the response JSON not to contain:\n  """json\n  { "password": "#present" }\n  """',
    ],
  },
  located(function (how: JSONMatch, doc: string) {
    matchDocument(this, 'the response JSON', responseJSON(this, 'the response JSON'), expectedDocument(doc, "the step's JSON"), how)
  }),
)

Then(
  'I expect the response JSON {jsonMatch} the file {string}',
  { description: "Matches the last JSON response against a JSON file with markers (relative to the feature file's directory).", example: 'Then I expect the response JSON to match the file "expected/user.json"' },
  located(function (how: JSONMatch, file: string) {
    const f = readFixture(interpolateString(this, file))
    matchDocument(this, 'the response JSON', responseJSON(this, 'the response JSON'), expectedDocument(f.data.toString('utf8'), f.path), how)
  }),
)

Then(
  'I expect the response field {string} {jsonMatch}:',
  {
    description: 'Matches a field of the last JSON response against a document with markers.',
    example: ['Then I expect the response field "address" to match:\n  """json\n  { "street": "#string", "city": "London", "country": "UK" }\n  """', 'Then I expect the response field "roles" to match in any order:\n  """json\n  ["editor", "admin"]\n  """'],
  },
  located(function (path: string, how: JSONMatch, doc: string) {
    const p = interpolateString(this, path)
    const subject = fieldSubject(p)
    const f = field(this, p, subject)
    if (!f.found) throw failure(this, [`Expected ${subject} ${how.text} the step's JSON, but the response has no such field: ${f.reason}`])
    const base = isListPath(p) ? '$' : normalisedPath(p)
    matchDocument(this, subject, f.value, expectedDocument(doc, "the step's JSON"), how, base)
  }),
)

Then(
  'I expect each element of the response field {string} {jsonMatch}:',
  {
    description: 'Matches every element of an array field of the last JSON response against a document with markers (an empty array fails).',
    example: 'Then I expect each element of the response field "items" to contain:\n  """json\n  { "id": "#integer", "uuid": "#uuid", "roles": "#[] #string", "createdAt": "#datetime" }\n  """',
  },
  located(function (path: string, how: JSONMatch, doc: string) {
    const p = interpolateString(this, path)
    const subject = `each element of ${fieldSubject(p)}`
    const f = field(this, p, subject)
    if (!f.found) throw failure(this, [`Expected ${subject} ${how.text} the step's JSON, but the response has no such field: ${f.reason}`])
    if (!Array.isArray(f.value)) throw failure(this, [`Expected ${fieldSubject(p)} to be an array, received ${showJSON(f.value)}`])
    if (f.value.length === 0) throw failure(this, [`Expected ${subject} ${how.text} the step's JSON, but the array is empty`])
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
      throw failure(this, [`Expected ${subject} ${how.text} (${all.length} difference${all.length === 1 ? '' : 's'}):`, ...mismatchLines(all)])
    }
  }),
)

/** A definite path in canonical form ("$.a[0]"), for the paths of mismatches. */
function normalisedPath(p: string): string {
  return formatPath(parsePath(p))
}

// ---- Memory ----

Then(
  'I remember the response field {string} as {string}',
  { description: 'Remembers a field of the last JSON response (typed: a number stays a number) for $name in later steps.', example: ['Then I remember the response field "id" as "userId"', 'Then I remember the response field "items[?(@.name == \'Ada Lovelace\')].id" as "adaIds"'] },
  located(function (path: string, name: string) {
    const p = interpolateString(this, path)
    const f = field(this, p, fieldSubject(p))
    if (!f.found) throw failure(this, [`Expected to remember ${fieldSubject(p)}, but the response has no such field: ${f.reason}`])
    remember(this, interpolateString(this, name), f.value)
  }),
)

Then(
  'I remember the response header {string} as {string}',
  { description: 'Remembers a header of the last response for $name in later steps.', example: 'Then I remember the response header "Location" as "userURL"' },
  located(function (name: string, as: string) {
    const h = header(this, name)
    if (h.value === undefined) throw failure(this, [`Expected to remember the response header ${JSON.stringify(name)}, but the response has no such header (it has: ${h.names.join(', ')})`])
    remember(this, interpolateString(this, as), h.value)
  }),
)

Then(
  'I remember the response status as {string}',
  { description: 'Remembers the status of the last response (a number) for $name in later steps.', example: 'Then I remember the response status as "status"' },
  located(function (name: string) {
    remember(this, interpolateString(this, name), lastExchange(this).status)
  }),
)

Then(
  'I remember the response body as {string}',
  { description: 'Remembers the body of the last response (its JSON, or its text) for $name in later steps.', example: 'Then I remember the response body as "createdUser"' },
  located(function (name: string) {
    const ex = lastExchange(this)
    remember(this, interpolateString(this, name), ex.json.ok ? ex.json.value : ex.text)
  }),
)

Then(
  'I attach the response to the report',
  { description: 'Attaches the last request and response (headers and bodies) to the report, to see what an API returned.', example: 'Then I attach the response to the report' },
  located(function () {
    attachExchange(this, lastExchange(this))
  }),
)
