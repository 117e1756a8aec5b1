// The network: mocking, blocking and delaying requests the page makes, and
// recording them to check what was requested. URL patterns are Playwright's
// globs: "**/api/todos" (any origin), "/api/todos*" (relative to [browser]
// baseURL), "https://cdn.example.com/**"; * does not cross a /, ** does,
// {a,b} is either. Mocks apply to every tab of the scenario's context.
import { When, Then } from '@cucumber/cucumber'
import type { Request, Route } from '@playwright/test'
import { interpolateString, remember } from './values'
import { fixturePath } from './scenario'
import { step } from './step'
import { eventually, parseValidation, sleep, type Validation } from './validation'
import { onNewContext, stateOf, type StepWorld } from './world'

async function mock(world: StepWorld, url: string, fulfill: Parameters<Route['fulfill']>[0]): Promise<void> {
  await world.context.route(url, (route: Route) => route.fulfill(fulfill))
}

function json(world: StepWorld, doc: string): unknown {
  const text = interpolateString(world, doc)
  try {
    return JSON.parse(text)
  } catch (e: any) {
    throw new Error(`the doc string is not JSON: ${e.message}\n${text}`)
  }
}

When('I mock {text} with the status {int}', { description: 'Answers requests to a URL pattern with a status and an empty body, without reaching the server.', example: 'When I mock "**/api/todos" with the status 500' }, step(async function (url: string, status: number) {
  await mock(this, url, { status, body: '' })
}))

When(
  'I mock {text} with the status {int} and the body {text}',
  { description: 'Answers requests to a URL pattern with a status and a text body.', example: 'When I mock "**/api/health" with the status 503 and the body "down"' },
  step(async function (url: string, status: number, body: string) {
    await mock(this, url, { status, body })
  }),
)

When('I mock {text} with the JSON:', { description: 'Answers requests to a URL pattern with status 200 and the JSON of the doc string ($name works inside).', example: 'When I mock "**/api/todos" with the JSON:' }, step(async function (url: string, doc: string) {
  await mock(this, url, { status: 200, json: json(this, doc) })
}))

When(
  'I mock {text} with the status {int} and the JSON:',
  { description: 'Answers requests to a URL pattern with a status and the JSON of the doc string.', example: 'When I mock "**/api/todos" with the status 201 and the JSON:' },
  step(async function (url: string, status: number, doc: string) {
    await mock(this, url, { status, json: json(this, doc) })
  }),
)

When('I mock {text} with the JSON {text}', { description: 'Answers requests to a URL pattern with status 200 and a JSON value written inline.', example: `When I mock "**/api/health" with the JSON '{"status": "mocked"}'` }, step(async function (url: string, text: string) {
  await mock(this, url, { status: 200, json: json(this, text) })
}))

When(
  'I mock {text} with the file {text}',
  { description: 'Answers requests to a URL pattern with a fixture file (relative to the feature file; its type from its extension).', example: 'When I mock "**/api/todos" with the file "fixtures/todos.json"' },
  step(async function (url: string, path: string) {
    await mock(this, url, { status: 200, path: fixturePath(this, path) })
  }),
)

When(
  'I mock {text} with the status {int} and the file {text}',
  { description: 'Answers requests to a URL pattern with a status and a fixture file.', example: 'When I mock "**/api/todos" with the status 404 and the file "fixtures/not-found.json"' },
  step(async function (url: string, status: number, path: string) {
    await mock(this, url, { status, path: fixturePath(this, path) })
  }),
)

When('I block {text}', { description: 'Makes requests to a URL pattern fail (as a network error).', example: 'When I block "**/analytics/**"' }, step(async function (url: string) {
  await this.context.route(url, (route: Route) => route.abort())
}))

When(
  'I block the {text} requests',
  { description: 'Makes every request of a resource type fail: image, stylesheet, font, script, media, fetch, xhr, document...', example: 'When I block the "image" requests' },
  step(async function (type: string) {
    await this.context.route('**/*', (route: Route) => (route.request().resourceType() === type ? route.abort() : route.fallback()))
  }),
)

When(
  'I delay {text} by {int} milliseconds',
  { description: 'Holds requests to a URL pattern for a while before they go on (to see a spinner, a timeout).', example: 'When I delay "**/api/todos" by 2000 milliseconds' },
  step(async function (url: string, ms: number) {
    await this.context.route(url, async (route: Route) => {
      await sleep(ms)
      await route.fallback()
    })
  }),
)

When('I stop mocking {text}', { description: 'Removes the mocks, blocks and delays of a URL pattern.', example: 'When I stop mocking "**/api/todos"' }, step(async function (url: string) {
  await this.context.unroute(url)
}))

When('I go offline', { description: 'Cuts the network of the scenario\'s browser context.', example: 'When I go offline' }, step(async function () {
  await this.context.setOffline(true)
}))

When('I go back online', { description: 'Gives the network back after I go offline.', example: 'When I go back online' }, step(async function () {
  await this.context.setOffline(false)
}))

const headers = new WeakMap<object, Record<string, string>>()

When('I set the HTTP header {text} to {text}', { description: 'Sends a header with every request of the context from now on.', example: 'When I set the HTTP header "X-Test-Run" to "$uuid"' }, step(async function (name: string, value: string) {
  const h = stateOf(headers, this, (): Record<string, string> => ({}))
  h[name] = value
  await this.context.setExtraHTTPHeaders({ ...h })
}))

// ---- Recording ----

const recordings = new WeakMap<object, Request[]>()

When(
  'I record the network requests',
  { description: 'Starts recording the requests of every tab, for the steps that check what was requested.', example: 'When I record the network requests' },
  step(async function () {
    if (recordings.has(this)) return
    const log: Request[] = []
    recordings.set(this, log)
    this.context.on('request', (r: Request) => log.push(r))
  }),
)

onNewContext(async (world) => {
  const log = recordings.get(world)
  if (log) world.context.on('request', (r: Request) => log.push(r))
  const h = headers.get(world)
  if (h) await world.context.setExtraHTTPHeaders({ ...h })
})

function recorded(world: object): Request[] {
  const log = recordings.get(world)
  if (!log) throw new Error('no requests are recorded: start with "When I record the network requests" before the requests are made')
  return log
}

/**
 * A URL glob as Playwright reads it: * any characters but /, ** any,
 * {a,b} either; a pattern that does not start with * or a scheme is
 * relative to baseURL.
 */
export function globMatcher(world: StepWorld, glob: string): (url: string) => boolean {
  let g = glob
  if (!g.startsWith('*') && !/^[a-z][a-z\d+.-]*:/i.test(g) && world.baseURL) {
    const base = world.baseURL.replace(/\/$/, '')
    const origin = /^[a-z][a-z\d+.-]*:\/\/[^/]*/i.exec(base)?.[0] ?? base
    g = g.startsWith('/') ? origin + g : base + '/' + g
  }
  let re = ''
  let inGroup = false
  for (let i = 0; i < g.length; i++) {
    const c = g[i]
    if (c === '*') {
      const deep = g[i + 1] === '*'
      if (deep) i++
      re += deep ? '.*' : '[^/]*'
    } else if (c === '{') {
      inGroup = true
      re += '(?:'
    } else if (c === '}' && inGroup) {
      inGroup = false
      re += ')'
    } else if (c === ',' && inGroup) {
      re += '|'
    } else {
      re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
    }
  }
  const r = new RegExp('^' + re + '$')
  return (url) => r.test(url)
}

/**
 * What the request steps read: the recorded requests to a URL pattern (the
 * matcher built once, not at every retry) and how the failures name them.
 */
function requestsTo(world: StepWorld, url: string): { subject: string; matching: () => Request[] } {
  const m = globMatcher(world, url)
  return { subject: `the number of requests to ${JSON.stringify(url)}`, matching: () => recorded(world).filter((r) => m(r.url())) }
}

const madeAtLeastOnce = parseValidation('to be greater than')

Then(
  'I expect a request to {text} {to} have been made',
  { description: 'Checks that the page requested a URL pattern (waiting for it), or with "not to", that it did not.', example: ['Then I expect a request to "**/api/todos" to have been made', 'Then I expect a request to "**/analytics/**" not to have been made'] },
  step(async function (url: string, negate: boolean) {
    const { subject, matching } = requestsTo(this, url)
    await eventually(this, subject, async () => matching().length, negate ? parseValidation('not to be greater than') : madeAtLeastOnce, 0)
  }),
)

Then(
  'I expect the number of requests to {text} {validation} {expected}',
  { description: 'Checks how many requests the page made to a URL pattern.', example: ['Then I expect the number of requests to "**/api/todos" to equal 1', 'Then I expect the number of requests to "**/api/*" to be at most 3'] },
  step(async function (url: string, v: Validation, expected: unknown) {
    const { subject, matching } = requestsTo(this, url)
    await eventually(this, subject, async () => matching().length, v, expected)
  }),
)

When(
  'I remember the last request to {text} as {text}',
  {
    description: 'Remembers the last request to a URL pattern (waiting for one): $name.method, .url, .headers, .body, .json (the body parsed), .status (of its response).',
    example: 'When I remember the last request to "**/api/todos" as "created"',
  },
  step(async function (url: string, name: string) {
    let found: Request | undefined
    const { subject, matching } = requestsTo(this, url)
    await eventually(this, subject, async () => {
      const all = matching()
      found = all[all.length - 1]
      return all.length
    }, madeAtLeastOnce, 0)
    const r = found!
    let body: unknown = r.postData()
    let parsed: unknown = null
    try {
      parsed = body === null ? null : JSON.parse(String(body))
    } catch {
      parsed = null
    }
    const response = await r.response()
    remember(this, name, { url: r.url(), method: r.method(), headers: r.headers(), body, json: parsed, status: response ? response.status() : null })
  }),
)
