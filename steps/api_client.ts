// The API steps' client: what a scenario has set up for its requests, the
// request being prepared, sending it through this.request (Playwright's
// APIRequestContext: no browser is started), the last exchange, and
// failure messages that show the request and the step's line.
import { currentStep } from 'ferridriver'
import { readFileSync, existsSync } from 'node:fs'
import { remember } from './memory'
import { AssertionError, now } from './validation'
import { showJSON } from './api_match'
import { jsonSyntaxError } from './api_json'

/** A request body being prepared. */
export type Body =
  | { kind: 'json'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'form'; fields: Array<[string, string]> }
  | { kind: 'multipart'; fields: Record<string, string | { name: string; mimeType: string; buffer: Uint8Array }> }
  | { kind: 'file'; path: string; data: Uint8Array; contentType: string }

/** The parts of the next request; sending it clears them. */
export interface NextRequest {
  headers: Array<[string, string]>
  query: Array<[string, string]>
  body?: Body
}

/** A request sent and its response. */
export interface Exchange {
  method: string
  url: string
  requestHeaders: Array<[string, string]>
  requestBody?: string
  status: number
  statusText: string
  /** Lower-case names. */
  headers: Record<string, string>
  text: string
  contentType: string
  /** The body parsed as JSON, when it is JSON. */
  json: { ok: true; value: unknown } | { ok: false; error: string }
  /** Milliseconds from sending to the whole body read. */
  ms: number
}

/** A scenario's API state. */
export interface ApiState {
  /** "the API base URL is": relative URLs are under it. */
  baseURL?: string
  /** Headers of every request ("every request has the header"). */
  headers: Array<[string, string]>
  followRedirects: boolean
  timeoutMs?: number
  /** How long "... until ..." requests are repeated (10 s by default). */
  pollMs: number
  next: NextRequest
  last?: Exchange
  /** Responses named by "I remember the response as" or intercepted from the page. */
  named: Map<string, Exchange>
}

const states = new WeakMap<object, ApiState>()

/** The API state of a World (created on first use). */
export function apiState(world: object): ApiState {
  let s = states.get(world)
  if (!s) {
    s = { headers: [], followRedirects: true, pollMs: 10_000, next: { headers: [], query: [] }, named: new Map() }
    states.set(world, s)
  }
  return s
}

/** Sets a header in a list, replacing one of the same name (case-insensitive). */
export function setHeader(list: Array<[string, string]>, name: string, value: string): void {
  const i = list.findIndex(([n]) => n.toLowerCase() === name.toLowerCase())
  if (i >= 0) list[i] = [name, value]
  else list.push([name, value])
}

/** Where the current step is, "features/x.feature:12", or "" outside a step. */
export function stepLocation(): string {
  const s = currentStep()
  return s && s.line ? `${s.uri}:${s.line}` : ''
}

/**
 * Resolves a fixture file against the feature file's directory (an
 * absolute path stays), for fs calls that are relative to the project.
 */
export function fixturePath(p: string): string {
  if (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)) return p
  const s = currentStep()
  const dir = s ? s.uri.replace(/[^/]*$/, '') : ''
  const parts: string[] = []
  for (const part of (dir + p).split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..' && parts.length && parts[parts.length - 1] !== '..') parts.pop()
    else parts.push(part)
  }
  return parts.join('/')
}

/** Reads a fixture file (see fixturePath), failing clearly when it is not there. */
export function readFixture(p: string): { path: string; data: Uint8Array & { toString(encoding?: string): string } } {
  const path = fixturePath(p)
  if (!existsSync(path)) {
    throw new StepError(`the file ${JSON.stringify(p)} does not exist (looked for ${path}: a fixture path is relative to the feature file's directory)`)
  }
  return { path, data: readFileSync(path) }
}

const mediaTypes: Record<string, string> = {
  json: 'application/json',
  xml: 'application/xml',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  htm: 'text/html',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
}

/** The media type of a file, from its extension. */
export function mediaTypeOf(path: string): string {
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? ''
  return mediaTypes[ext] ?? 'application/octet-stream'
}

const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//

/**
 * Resolves a relative reference against an absolute URL (RFC 3986 §5.2:
 * "users" goes under the base's directory, "/x" to its root, "../x" up).
 */
export function resolveURL(base: string, ref: string): string {
  if (absolute.test(ref)) return ref
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:)\/\/([^/?#]*)([^?#]*)/.exec(base)
  if (!m) throw new StepError(`cannot resolve ${JSON.stringify(ref)} against ${JSON.stringify(base)}: not an absolute URL`)
  const [, scheme, host, basePath] = m
  if (ref.startsWith('//')) return scheme + ref
  const cut = ref.search(/[?#]/)
  const refPath = cut >= 0 ? ref.slice(0, cut) : ref
  const rest = cut >= 0 ? ref.slice(cut) : ''
  let path: string
  if (refPath.startsWith('/')) path = refPath
  else if (refPath === '') path = basePath || '/'
  else path = basePath.replace(/[^/]*$/, '') + refPath
  if (!path.startsWith('/')) path = '/' + path
  const out: string[] = []
  const parts = path.split('/').slice(1)
  parts.forEach((seg, i) => {
    const last = i === parts.length - 1
    if (seg === '.' || seg === '..') {
      if (seg === '..' && out.length) out.pop()
      if (last) out.push('')
    } else out.push(seg)
  })
  return scheme + '//' + host + '/' + out.join('/') + rest
}

/**
 * The URL a step's URL sends to. With an API base URL, a URL resolves
 * against it as a link against its page: "users/1" goes under the base,
 * "/health" to its server's root. Without one, Playwright resolves a
 * relative URL against [browser] baseURL.
 */
export function requestURL(world: any, url: string): string {
  const st = apiState(world)
  if (absolute.test(url)) return url
  if (st.baseURL !== undefined) {
    let base = st.baseURL
    if (!absolute.test(base)) {
      if (!world.baseURL) throw new StepError(`the API base URL ${JSON.stringify(base)} is relative and there is no [browser] baseURL to resolve it against: set baseURL in ferridriver.toml or make the API base URL absolute`)
      base = resolveURL(world.baseURL, base)
    }
    if (!base.endsWith('/')) base += '/'
    return resolveURL(base, url)
  }
  if (!world.baseURL) {
    throw new StepError(`the URL ${JSON.stringify(url)} is relative and there is no [browser] baseURL to resolve it against: set baseURL in ferridriver.toml or write an absolute URL`)
  }
  return url
}

function withQuery(url: string, query: Array<[string, string]>): string {
  if (query.length === 0) return url
  const hash = url.indexOf('#')
  const frag = hash >= 0 ? url.slice(hash) : ''
  const base = hash >= 0 ? url.slice(0, hash) : url
  const q = query.map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v)).join('&')
  return base + (base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?') + q + frag
}

/** The body as JSON: when the Content-Type says JSON, or when it has none but looks like it. */
export function parseJSONBody(text: string, contentType: string): Exchange['json'] {
  const declared = /[/+]json\b/i.test(contentType)
  if (!declared && !((contentType === '' || /^text\/plain\b/i.test(contentType)) && /^\s*[[{]/.test(text))) {
    return { ok: false, error: `it is ${contentType || 'not JSON'}${text.trim() ? `: ${JSON.stringify(text.trim().slice(0, 60))}` : ' and empty'}` }
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (e: any) {
    const at = jsonSyntaxError(text)
    return { ok: false, error: `its body is not valid JSON: ${at ? `${at.problem} (line ${at.line}, column ${at.column})` : e?.message}` }
  }
}

/**
 * Sends a request with the scenario's defaults and the prepared parts,
 * clears the prepared parts, remembers the response as $response (its JSON,
 * or its text), $responseStatus and $responseHeaders, and returns it.
 */
export async function send(world: any, method: string, url: string): Promise<Exchange> {
  const st = apiState(world)
  const next = st.next
  st.next = { headers: [], query: [] }
  const target = withQuery(requestURL(world, url), next.query)
  const headers: Array<[string, string]> = st.headers.slice()
  for (const [n, v] of next.headers) setHeader(headers, n, v)
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name)
  const options: any = { method, failOnStatusCode: false }
  let requestBody: string | undefined
  const b = next.body
  if (b) {
    switch (b.kind) {
      case 'json':
        if (!has('content-type')) headers.push(['Content-Type', 'application/json'])
        options.data = b.text
        requestBody = b.text
        break
      case 'text':
        if (!has('content-type')) headers.push(['Content-Type', 'text/plain; charset=utf-8'])
        options.data = b.text
        requestBody = b.text
        break
      case 'form': {
        // Encoded here rather than with `form`, so a field may repeat.
        if (!has('content-type')) headers.push(['Content-Type', 'application/x-www-form-urlencoded'])
        requestBody = b.fields.map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v)).join('&')
        options.data = requestBody
        break
      }
      case 'multipart':
        options.multipart = b.fields
        requestBody = Object.entries(b.fields)
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : `<file ${v.name}, ${v.mimeType}, ${v.buffer.length} bytes>`}`)
          .join('\n')
        break
      case 'file':
        if (!has('content-type')) headers.push(['Content-Type', b.contentType])
        options.data = b.data
        requestBody = `<file ${b.path}, ${b.data.length} bytes>`
        break
    }
  }
  options.headers = Object.fromEntries(headers)
  if (!st.followRedirects) options.maxRedirects = 0
  if (st.timeoutMs !== undefined) options.timeout = st.timeoutMs
  // The request context is made (the driver started) before the clock
  // starts: the response time is the request's.
  const request = world.request
  const started = now()
  let res
  try {
    res = await request.fetch(target, options)
  } catch (e: any) {
    throw new StepError(`${method} ${displayURL(world, target)} failed: ${e?.message ?? e}`)
  }
  const text = await res.text()
  const ms = now() - started
  const resHeaders: Record<string, string> = res.headers()
  const contentType = resHeaders['content-type'] ?? ''
  const ex: Exchange = {
    method,
    url: res.url(),
    requestHeaders: headers,
    requestBody,
    status: res.status(),
    statusText: res.statusText(),
    headers: resHeaders,
    text,
    contentType,
    json: parseJSONBody(text, contentType),
    ms,
  }
  st.last = ex
  remember(world, 'response', ex.json.ok ? ex.json.value : text)
  remember(world, 'responseStatus', ex.status)
  remember(world, 'responseHeaders', resHeaders)
  return ex
}

function displayURL(world: any, url: string): string {
  if (absolute.test(url) || !world.baseURL) return url
  try {
    return resolveURL(world.baseURL, url)
  } catch {
    return url
  }
}

/** The last response, or a clear error when no request was sent. */
export function lastExchange(world: object): Exchange {
  const ex = apiState(world).last
  if (!ex) throw new StepError('no request was sent in this scenario yet: send one first, e.g. When I send a GET request to "/api/health"')
  return ex
}

/**
 * Which response a step checks, as {response} writes it: `the response`
 * (the last one) or `the "name" response` (one remembered or intercepted
 * under that name).
 */
export interface ResponseRef {
  /** undefined for the last response. */
  name?: string
  /** As a failure names it: `the response`, `the "created" response`. */
  text: string
}

/** The last response. */
export const theResponse: ResponseRef = { text: 'the response' }

/** Keeps an exchange under a name, for `the "name" response`. */
export function nameExchange(world: object, name: string, ex: Exchange): void {
  apiState(world).named.set(name, ex)
}

/** The exchange a {response} names, or a clear error when there is none. */
export function exchangeOf(world: object, r: ResponseRef = theResponse): Exchange {
  if (r.name === undefined) return lastExchange(world)
  const ex = apiState(world).named.get(r.name)
  if (ex) return ex
  const names = [...apiState(world).named.keys()]
  throw new StepError(
    `no response is named ${JSON.stringify(r.name)} in this scenario` +
      (names.length ? ` (named: ${names.map((n) => JSON.stringify(n)).join(', ')})` : '') +
      `: name one with Then I remember the response as ${JSON.stringify(r.name)}, or wait for an intercepted one with When I wait for the ${JSON.stringify(r.name)} response`,
  )
}

/** A response's JSON, or a failure saying why it is not JSON. */
export function responseJSON(world: object, subject: string, r: ResponseRef = theResponse): unknown {
  const ex = exchangeOf(world, r)
  if (!ex.json.ok) throw failure(world, [`Expected a JSON response to read ${subject} from, but ${ex.json.error}`], ex)
  return ex.json.value
}

/** The body as a failure message shows it: JSON compact, text cut. */
export function bodyExcerpt(ex: Exchange, max = 400): string {
  if (ex.text.trim() === '') return '(empty)'
  let text = ex.text.trim()
  const lines = text.split('\n')
  if (lines.length > 8) text = lines.slice(0, 8).join('\n') + '\n...'
  const s = ex.json.ok ? showJSON(ex.json.value, max) : text.length > max ? text.slice(0, max - 3) + '...' : text
  return s.replace(/\n/g, '\n          ')
}

/** The request lines of a failure message. */
export function describeExchange(ex: Exchange): string[] {
  return [
    `Request:  ${ex.method} ${ex.url}`,
    `Response: ${ex.status} ${ex.statusText}${ex.contentType ? ` (${ex.contentType}, ${ex.text.length} characters)` : ''}`,
    `Body:     ${bodyExcerpt(ex)}`,
  ]
}

/** A mistake in a feature or its files (a bad URL, a missing fixture...), not a failed check. */
export class StepError extends Error {}

/** Errors that are the feature's to fix, shown at its line rather than in the library. */
const featureErrors = new Set(['AssertionError', 'MarkerError', 'PathError'])

/**
 * Wraps a step function so that a failed check or a mistake in the feature
 * ends at the feature step's line instead of the library's frames, as
 * Playwright ends a failure at the test's line. Other errors (the
 * library's own bugs) keep their stack.
 */
export function located<A extends any[]>(fn: (this: any, ...args: A) => unknown): (this: any, ...args: A) => Promise<unknown> {
  return async function (this: any, ...args: A) {
    try {
      return await fn.apply(this, args)
    } catch (e: any) {
      const at = stepLocation()
      if (at && e instanceof Error && (e instanceof StepError || featureErrors.has(e.name))) {
        e.stack = `${e.name}: ${e.message}\n    at ${at}`
      }
      throw e
    }
  }
}

/**
 * A failed assertion on a response (the last one unless ex is given): the
 * lines say what was expected and found; the request and response follow.
 * The whole exchange is attached to the report.
 */
export function failure(world: any, lines: string[], ex: Exchange | undefined = apiState(world).last): Error {
  const msg = ex ? [...lines, '', ...describeExchange(ex)] : lines
  if (ex) attachExchange(world, ex)
  return new AssertionError(msg.join('\n'))
}

/** The whole exchange as text, for the report. */
export function exchangeText(ex: Exchange): string {
  const lines = [`${ex.method} ${ex.url}`]
  for (const [n, v] of ex.requestHeaders) lines.push(`${n}: ${v}`)
  if (ex.requestBody !== undefined) lines.push('', ex.requestBody)
  lines.push('', `${ex.status} ${ex.statusText} (${ex.ms} ms)`)
  for (const n of Object.keys(ex.headers).sort()) lines.push(`${n}: ${ex.headers[n]}`)
  lines.push('', ex.json.ok ? JSON.stringify(ex.json.value, null, 2) : ex.text)
  return lines.join('\n')
}

/** Attaches the exchange to the current step in the report. */
export function attachExchange(world: any, ex: Exchange): void {
  if (typeof world.attach === 'function') {
    // As bytes, so consoles show one "Embedding ..." line, not the whole exchange.
    const name = `${ex.method} ${ex.url.replace(/^[a-z]+:\/\/[^/]+/i, '')}.txt`
    void world.attach(new TextEncoder().encode(exchangeText(ex)), { mediaType: 'text/plain', fileName: name })
  }
}
