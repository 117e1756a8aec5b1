// API testing: preparing and sending HTTP requests.
import { Given, When, defineParameterType, type DataTable } from '@cucumber/cucumber'
import { interpolate, interpolateString } from './memory'
import { check, now, sleep } from './validation'
import { apiState, failure, located, mediaTypeOf, readFixture, send, setHeader, StepError, type Body, type Exchange } from './api_client'
import { readPath, setPath } from './api_path'
import { parseJSON } from './api_json'
import { showJSON } from './api_match'

defineParameterType({
  name: 'httpMethod',
  regexp: /GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|get|post|put|patch|delete|head|options/,
  transformer: (s: string) => s.toUpperCase(),
  useForSnippets: false,
})

/** A cell or doc string's rows: a DataTable's, or a clear error for a doc string. */
function rowsOf(arg: DataTable | string | undefined, step: string, columns = 2): string[][] {
  if (arg === undefined || typeof arg === 'string') {
    throw new StepError(`"${step}" takes a table of ${columns === 2 ? 'name | value rows' : 'rows'} under the step`)
  }
  const rows = arg.raw()
  for (const r of rows) {
    if (r.length !== columns) throw new StepError(`"${step}": every row has ${columns} cells (name | value), not ${r.length}: | ${r.join(' | ')} |`)
  }
  return rows
}

/** name | value rows with the values interpolated ($name). */
function pairs(world: object, arg: DataTable | string | undefined, step: string): Array<[string, string]> {
  return rowsOf(arg, step).map(([k, v]) => [interpolateString(world, k), interpolateString(world, v)])
}

const jsonLiteral = /^(-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?|true|false|null|"[\s\S]*"|\[[\s\S]*\]|\{[\s\S]*\})$/

/**
 * A table cell as a JSON value: a remembered `$name` as it is; a number,
 * true, false, null, "a quoted string", [an array] or {an object} as JSON;
 * anything else as a string.
 */
function cellValue(world: object, cell: string): unknown {
  const v = interpolate(world, cell)
  if (v !== cell) return v
  const t = cell.trim()
  if (jsonLiteral.test(t)) {
    try {
      return JSON.parse(t)
    } catch {
      // not JSON after all: a string
    }
  }
  return cell
}

/** Replaces `$name` references in every string of a JSON value. */
function interpolateJSON(world: object, v: unknown): unknown {
  if (typeof v === 'string') return v.includes('$') ? interpolate(world, v) : v
  if (Array.isArray(v)) return v.map((e) => interpolateJSON(world, e))
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    for (const [k, e] of Object.entries(v)) out[k] = interpolateJSON(world, e)
    return out
  }
  return v
}

/**
 * A JSON body from a doc string (a "$name" string is the remembered value,
 * typed; a bare $name works where the JSON would otherwise not parse) or
 * from a table of field path | value rows.
 */
export function jsonBody(world: object, arg: DataTable | string | undefined, step: string): string {
  if (arg === undefined) throw new StepError(`"${step}" takes the JSON as a doc string or a table of field | value rows under the step`)
  if (typeof arg !== 'string') {
    let root: unknown = undefined
    for (const [path, cell] of rowsOf(arg, step)) root = setPath(root, interpolateString(world, path), cellValue(world, cell))
    return JSON.stringify(root ?? {})
  }
  let doc: unknown
  try {
    doc = JSON.parse(arg)
  } catch {
    // Perhaps a bare $name where a value goes ({ "id": $id }): put the
    // remembered values in as JSON, then parse.
    const text = bareReferences(world, arg)
    try {
      doc = parseJSON(text, `the JSON of "${step}"` + (text !== arg ? ` (with remembered values: ${text})` : ''))
    } catch (e: any) {
      throw new StepError(e.message)
    }
  }
  return JSON.stringify(interpolateJSON(world, doc))
}

/** Replaces the $name references outside JSON strings by their values as JSON. */
function bareReferences(world: object, text: string): string {
  let out = ''
  let inString = false
  for (let i = 0; i < text.length; ) {
    const c = text[i]
    if (inString) {
      if (c === '\\') {
        out += text.slice(i, i + 2)
        i += 2
        continue
      }
      if (c === '"') inString = false
    } else if (c === '"') {
      inString = true
    } else if (c === '$') {
      const m = /^\$\{[^}]+\}|^\$[A-Za-z_]\w*(?:\.[\w-]+)*/.exec(text.slice(i))
      if (m) {
        const v = interpolate(world, m[0])
        out += v === m[0] ? m[0] : JSON.stringify(v)
        i += m[0].length
        continue
      }
    }
    out += c
    i++
  }
  return out
}

/** A text body: JSON when it parses as a JSON object or array, else text. */
function textBody(world: object, doc: string | DataTable | undefined, step: string): Body {
  if (typeof doc !== 'string') throw new StepError(`"${step}" takes the body as a doc string under the step`)
  const text = interpolateString(world, doc)
  if (/^\s*[[{]/.test(text)) {
    try {
      JSON.parse(text)
      return { kind: 'json', text }
    } catch {
      // not JSON: sent as text
    }
  }
  return { kind: 'text', text }
}

function formBody(world: object, arg: DataTable | string | undefined, step: string): Body {
  return { kind: 'form', fields: pairs(world, arg, step) }
}

/** The multipart body being prepared, started if need be. */
function multipart(world: object): Extract<Body, { kind: 'multipart' }> {
  const next = apiState(world).next
  if (next.body?.kind !== 'multipart') next.body = { kind: 'multipart', fields: {} }
  return next.body
}

// ---- The scenario's defaults ----

Given(
  'the API base URL is {string}',
  {
    description: 'Puts every later relative request URL of the scenario under this URL (itself relative to [browser] baseURL, or absolute).',
    example: ['Given the API base URL is "/api"', 'Given the API base URL is "https://api.example.com/v2"'],
  },
  located(function (url: string) {
    apiState(this).baseURL = interpolateString(this, url)
  }),
)

Given(
  'every request has the header {string} set to {string}',
  { description: "Sends this header with every later request of the scenario (a request's own header of the same name wins).", example: 'Given every request has the header "Accept-Language" set to "en"' },
  located(function (name: string, value: string) {
    setHeader(apiState(this).headers, interpolateString(this, name), interpolateString(this, value))
  }),
)

Given(
  'I authenticate requests with the bearer token {string}',
  { description: 'Sends "Authorization: Bearer <token>" with every later request of the scenario.', example: 'Given I authenticate requests with the bearer token "$token"' },
  located(function (token: string) {
    setHeader(apiState(this).headers, 'Authorization', 'Bearer ' + interpolateString(this, token))
  }),
)

Given(
  'I authenticate requests as {string} with the password {string}',
  { description: 'Sends HTTP Basic authentication with every later request of the scenario.', example: 'Given I authenticate requests as "demo" with the password "secret"' },
  located(function (user: string, password: string) {
    const raw = interpolateString(this, user) + ':' + interpolateString(this, password)
    const base64 = (globalThis as any).Buffer.from(raw, 'utf8').toString('base64')
    setHeader(apiState(this).headers, 'Authorization', 'Basic ' + base64)
  }),
)

Given(
  'requests do not follow redirects',
  { description: 'Later requests of the scenario return a redirect (3xx) response instead of following it.', example: 'Given requests do not follow redirects' },
  located(function () {
    apiState(this).followRedirects = false
  }),
)

Given(
  'polling gives up after {float} seconds',
  { description: 'How long the "... until ..." request steps repeat a request before they fail (10 seconds unless set).', example: 'Given polling gives up after 30 seconds' },
  located(function (seconds: number) {
    apiState(this).pollMs = Math.round(seconds * 1000)
  }),
)

Given(
  'requests time out after {float} seconds',
  { description: 'Later requests of the scenario fail when no response comes in this time.', example: 'Given requests time out after 2.5 seconds' },
  located(function (seconds: number) {
    apiState(this).timeoutMs = Math.round(seconds * 1000)
  }),
)

// ---- The next request ----

Given(
  'the request header {string} is {string}',
  { description: 'Sends this header with the next request.', example: 'Given the request header "X-Request-Id" is "abc-123"' },
  located(function (name: string, value: string) {
    setHeader(apiState(this).next.headers, interpolateString(this, name), interpolateString(this, value))
  }),
)

Given(
  'the request headers are:',
  { description: 'Sends these headers (name | value rows) with the next request.', example: 'Given the request headers are:\n  | Accept       | application/json |\n  | X-Request-Id | $requestId       |' },
  located(function (table: DataTable) {
    for (const [n, v] of pairs(this, table, 'the request headers are:')) setHeader(apiState(this).next.headers, n, v)
  }),
)

Given(
  'the request query parameter {string} is {string}',
  { description: 'Adds this query parameter to the next request URL (URL-encoded).', example: 'Given the request query parameter "role" is "editor"' },
  located(function (name: string, value: string) {
    apiState(this).next.query.push([interpolateString(this, name), interpolateString(this, value)])
  }),
)

Given(
  'the request query parameters are:',
  { description: 'Adds these query parameters (name | value rows; a name may repeat) to the next request URL.', example: 'Given the request query parameters are:\n  | role   | editor |\n  | active | true   |' },
  located(function (table: DataTable) {
    apiState(this).next.query.push(...pairs(this, table, 'the request query parameters are:'))
  }),
)

Given(
  'the request body is:',
  { description: 'Sends this doc string as the next request body: as JSON when it is a JSON object or array, else as text.', example: 'Given the request body is:\n  """\n  Hello from $user\n  """' },
  located(function (doc: string) {
    apiState(this).next.body = textBody(this, doc, 'the request body is:')
  }),
)

Given(
  'the request JSON is:',
  {
    description: 'Sends this JSON as the next request body: a doc string, or field | value rows (paths like address.city or tags[0]; numbers, true, false, null stay typed).',
    example: ['Given the request JSON is:\n  """json\n  { "name": "Ada", "roles": ["admin"] }\n  """', 'Given the request JSON is:\n  | name         | Ada    |\n  | address.city | London |\n  | age          | 36     |'],
  },
  located(function (arg: DataTable | string) {
    apiState(this).next.body = { kind: 'json', text: jsonBody(this, arg, 'the request JSON is:') }
  }),
)

Given(
  'the request form is:',
  { description: 'Sends these fields (name | value rows) as the next request body, URL-encoded like an HTML form.', example: 'Given the request form is:\n  | username | demo   |\n  | password | secret |' },
  located(function (table: DataTable) {
    apiState(this).next.body = formBody(this, table, 'the request form is:')
  }),
)

Given(
  'the request multipart form is:',
  { description: 'Sends these fields (name | value rows) as a multipart/form-data body with the next request; files may be added.', example: 'Given the request multipart form is:\n  | title | Quarterly report |' },
  located(function (table: DataTable) {
    const body = multipart(this)
    for (const [k, v] of pairs(this, table, 'the request multipart form is:')) body.fields[k] = v
  }),
)

Given(
  'the request multipart field {string} is the file {string}',
  { description: "Adds a file (relative to the feature file's directory) to the next request's multipart/form-data body.", example: 'Given the request multipart field "attachment" is the file "fixtures/report.csv"' },
  located(function (field: string, file: string) {
    const { path, data } = readFixture(interpolateString(this, file))
    multipart(this).fields[interpolateString(this, field)] = { name: path.replace(/^.*\//, ''), mimeType: mediaTypeOf(path), buffer: data }
  }),
)

Given(
  'the request body is the file {string}',
  { description: "Sends a file (relative to the feature file's directory) as the next request body, its Content-Type from its extension.", example: 'Given the request body is the file "fixtures/new-user.json"' },
  located(function (file: string) {
    const { path, data } = readFixture(interpolateString(this, file))
    apiState(this).next.body = { kind: 'file', path, data, contentType: mediaTypeOf(path) }
  }),
)

// ---- Sending ----

When(
  'I send a {httpMethod} request to {string}',
  {
    description: 'Sends a request with what the scenario prepared; the response is checked by the steps that follow and remembered as $response.',
    example: ['When I send a GET request to "/api/users/1"', 'When I send a DELETE request to "/api/users/$userId"'],
  },
  located(async function (method: string, url: string) {
    await send(this, method, interpolateString(this, url))
  }),
)

When(
  'I send a {httpMethod} request to {string} with the JSON:',
  {
    description: 'Sends a request with this JSON body (a doc string or field | value rows, as "the request JSON is:").',
    example: 'When I send a POST request to "/api/users" with the JSON:\n  """json\n  { "name": "Katherine Johnson", "email": "kj@example.com" }\n  """',
  },
  located(async function (method: string, url: string, arg: DataTable | string) {
    apiState(this).next.body = { kind: 'json', text: jsonBody(this, arg, 'I send a request with the JSON:') }
    await send(this, method, interpolateString(this, url))
  }),
)

When(
  'I send a {httpMethod} request to {string} with the form:',
  { description: 'Sends a request with these fields (name | value rows) URL-encoded like an HTML form.', example: 'When I send a POST request to "/api/login" with the form:\n  | username | demo   |\n  | password | secret |' },
  located(async function (method: string, url: string, table: DataTable) {
    apiState(this).next.body = formBody(this, table, 'I send a request with the form:')
    await send(this, method, interpolateString(this, url))
  }),
)

When(
  'I send a {httpMethod} request to {string} with the body:',
  { description: 'Sends a request with this doc string as its body (JSON when it is a JSON object or array, else text).', example: 'When I send a POST request to "/api/echo" with the body:\n  """\n  plain text\n  """' },
  located(async function (method: string, url: string, doc: string) {
    apiState(this).next.body = textBody(this, doc, 'I send a request with the body:')
    await send(this, method, interpolateString(this, url))
  }),
)

/**
 * Sends the same request (with the same prepared parts) until read finds
 * the expected value, waiting longer between tries (0.1 s up to 1 s), for
 * the scenario's polling time; then fails with the last response.
 */
async function sendUntil(world: any, method: string, url: string, subject: string, read: (ex: Exchange) => { found: boolean; value?: unknown; reason?: string }, want: unknown): Promise<void> {
  const st = apiState(world)
  const parts = st.next
  const expected = typeof want === 'string' ? interpolate(world, want) : want
  const equal = { negate: false, op: 'equal' as const, text: 'to equal' }
  const deadline = now() + st.pollMs
  const waits = [100, 250, 500, 1000]
  let last = ''
  for (let tries = 1; ; tries++) {
    st.next = { headers: parts.headers.slice(), query: parts.query.slice(), body: parts.body }
    const r = read(await send(world, method, url))
    if (r.found && check(subject, r.value, equal, expected) === null) return
    last = r.found ? `Received: ${showJSON(r.value, 200)}` : `But: ${r.reason}`
    const wait = waits[Math.min(tries - 1, waits.length - 1)]
    if (now() + wait > deadline) {
      throw failure(world, [`Expected ${subject} to become ${showJSON(expected)} within ${st.pollMs / 1000} s (${tries} request${tries === 1 ? '' : 's'})`, `${last} (the last response)`])
    }
    await sleep(wait)
  }
}

When(
  'I send a {httpMethod} request to {string} until the response field {string} is {value}',
  {
    description: 'Sends the request again and again (for up to 10 seconds, see "polling gives up after") until a field of the JSON response equals the value.',
    example: 'When I send a GET request to "/api/jobs/$jobId" until the response field "status" is "done"',
    timeout: -1,
  },
  located(async function (method: string, url: string, path: string, want: unknown) {
    const p = interpolateString(this, path)
    await sendUntil(this, method, interpolateString(this, url), `the response field ${JSON.stringify(p)}`, (ex) => {
      if (!ex.json.ok) return { found: false, reason: `the response is not JSON: ${ex.json.error}` }
      const r = readPath(ex.json.value, p)
      return r.found ? r : { found: false, reason: `the response has no such field: ${r.reason}` }
    }, want)
  }),
)

When(
  'I send a {httpMethod} request to {string} until the response status is {value}',
  {
    description: 'Sends the request again and again (for up to 10 seconds, see "polling gives up after") until the response has this status.',
    example: 'When I send a GET request to "/api/reports/7" until the response status is 200',
    timeout: -1,
  },
  located(async function (method: string, url: string, want: unknown) {
    await sendUntil(this, method, interpolateString(this, url), 'the response status', (ex) => ({ found: true, value: ex.status }), want)
  }),
)
