// Waiting for a response of the page while acting (qavajs' interception):
// a step arms a wait for the first response to a URL pattern, the steps
// after it act, and a later step waits for that response and names it, so
// every API response check applies to it:
//
//   When I intercept "**/api/basket" as "basket"
//   And I click "Add Milk to the basket"
//   And I wait for the "basket" response
//   Then I expect the "basket" response status to equal 201
//   And I expect the "basket" response JSON to contain: ...
//
// or, in one step, `When I click "Add Milk to the basket" and wait for the
// response to "**/api/basket"`, which makes it `the response`.
import { When } from '@cucumber/cucumber'
import type { Response } from '@playwright/test'
import { apiState, nameExchange, parseJSONBody, type Exchange } from './api_client'
import { exchangeMemory } from './api_response'
import { globMatcher } from './network'
import { Target } from './params'
import { stepLocation } from './scenario'
import { step } from './step'
import { locate } from './targets'
import { remember } from './values'
import { assertionBudget, now, sleep } from './validation'
import { stateOf, type StepWorld } from './world'

/** A wait armed for the first response to a URL pattern. */
interface Interception {
  pattern: string
  /** Where it was armed, "features/x.feature:12". */
  where: string
  response?: Response
  /** The URLs of the other responses seen meanwhile (the last 10), for the failure. */
  seen: string[]
  stop: () => void
}

const interceptions = new WeakMap<object, Map<string, Interception>>()

/** Starts listening for the first response of the scenario's context to pattern. */
function arm(world: StepWorld, pattern: string): Interception {
  const matches = globMatcher(world, pattern)
  const context = world.context
  const it: Interception = { pattern, where: stepLocation(world), seen: [], stop: () => context.off('response', listener) }
  const listener = (r: Response) => {
    if (it.response) return
    if (matches(r.url())) {
      it.response = r
      it.stop()
      return
    }
    it.seen.push(`${r.status()} ${r.request().method()} ${r.url()}`)
    if (it.seen.length > 10) it.seen.shift()
  }
  context.on('response', listener)
  return it
}

/** Waits for an armed interception's response, for the assertion timeout. */
async function await_(world: StepWorld, it: Interception, what: string): Promise<Response> {
  const timeout = assertionBudget(world)
  const deadline = now() + timeout
  while (!it.response && now() < deadline) await sleep(Math.min(50, Math.max(1, deadline - now())))
  if (it.response) return it.response
  it.stop()
  const seen = it.seen.length ? `the page's other responses: \n  ${it.seen.join('\n  ')}` : 'the page had no other response'
  throw new Error(`${what}: no response to ${JSON.stringify(it.pattern)} came within ${timeout}ms (waiting since ${it.where || 'the step'}); ${seen}`)
}

/** A page's response as the API steps check it. */
export async function exchangeFromPage(r: Response): Promise<Exchange> {
  const req = r.request()
  let text = ''
  try {
    text = await r.text()
  } catch {
    // a redirect or a response without a body
  }
  const headers: Record<string, string> = {}
  for (const [k, v] of Object.entries(r.headers())) headers[k.toLowerCase()] = v
  const contentType = headers['content-type'] ?? ''
  const timing = req.timing()
  return {
    method: req.method(),
    url: r.url(),
    requestHeaders: Object.entries(req.headers()),
    requestBody: req.postData() ?? undefined,
    status: r.status(),
    statusText: r.statusText(),
    headers,
    text,
    contentType,
    json: parseJSONBody(text, contentType),
    ms: timing && timing.responseEnd >= 0 ? Math.round(timing.responseEnd) : 0,
  }
}

When(
  'I intercept {text} as {text}',
  {
    description: "Starts waiting for the page's first response to a URL pattern, to name it with \"I wait for the \\\"name\\\" response\" once the steps between have acted.",
    example: ['When I intercept "**/api/basket" as "basket"', 'When I intercept "/api/export.csv" as "export"'],
  },
  step(function (pattern: string, name: string) {
    const all = stateOf(interceptions, this, () => new Map<string, Interception>())
    all.get(name)?.stop()
    all.set(name, arm(this, pattern))
  }),
)

When(
  'I wait for the {text} response',
  {
    description: 'Waits for the response an "I intercept" step armed (for the assertion timeout) and names it: later steps check `the "name" response` (status, headers, JSON...), and $name is its .status, .headers, .body, .url and .method.',
    example: 'When I wait for the "basket" response',
  },
  step(async function (name: string) {
    const it = interceptions.get(this)?.get(name)
    if (!it) {
      const armed = [...(interceptions.get(this)?.keys() ?? [])]
      throw new Error(`nothing is intercepted as ${JSON.stringify(name)}${armed.length ? ` (intercepted: ${armed.map((n) => JSON.stringify(n)).join(', ')})` : ''}: arm it first, e.g. When I intercept "**/api/orders" as ${JSON.stringify(name)}`)
    }
    const ex = await exchangeFromPage(await await_(this, it, `the ${JSON.stringify(name)} response`))
    nameExchange(this, name, ex)
    remember(this, name, exchangeMemory(ex))
  }),
)

When(
  'I click {target} and wait for the response to {text}',
  {
    description: 'Clicks an element and waits for the page\'s first response to a URL pattern after the click; it becomes `the response` of the API checks (and $response its body).',
    example: ['When I click "Add Milk to the basket" and wait for the response to "**/api/basket"', 'When I click "#save" and wait for the response to "/api/todos"'],
  },
  step(async function (t: Target, pattern: string) {
    const it = arm(this, pattern)
    try {
      await locate(this, t).click()
    } catch (e) {
      it.stop()
      throw e
    }
    const ex = await exchangeFromPage(await await_(this, it, `clicking ${t}`))
    apiState(this).last = ex
    remember(this, 'response', ex.json.ok ? ex.json.value : ex.text)
    remember(this, 'responseStatus', ex.status)
    remember(this, 'responseHeaders', ex.headers)
  }),
)
