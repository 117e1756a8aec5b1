// API testing: WebSockets (qavajs' and Karate's send/expect). A scenario
// connects (to one socket, or to several by name), sends text or JSON, and
// expects messages: each expectation waits (for the assertion timeout) for
// a message not yet taken by an earlier one that passes, and takes it.
//
//   When I connect to the WebSocket "/ws"
//   And I send to the WebSocket:
//     """json
//     { "type": "ping", "id": 7 }
//     """
//   Then I expect the WebSocket to receive a JSON message to contain:
//     """json
//     { "type": "pong", "id": 7 }
//     """
//
// The client is the WebSocket global (jsbridge/websocket.go), under the
// same network checks as fetch. Sockets close when the scenario's World is
// done with (at the next scenario's first step) or the run ends.
import { BeforeStep, Then, When, defineParameterType } from '@cucumber/cucumber'
import { interpolate, interpolateString, remember } from './memory'
import { assertionBudget, check, now, sleep, type Validation } from './validation'
import { located, StepError } from './api_client'
import { matchJSON, showJSON, type MatchOptions } from './api_match'
import { parseJSON } from './api_json'
import { stateOf } from './world'

/** A received message: its text (binary data as base64) and whether a step took it. */
interface Received {
  data: string
  binary: boolean
  at: number
  taken: boolean
}

/** One connection of a scenario. */
interface Socket {
  name: string
  url: string
  ws: any
  received: Received[]
  sent: string[]
  opened: boolean
  closed?: { code: number; reason: string; clean: boolean }
  error?: string
}

/** Which socket a step means: `the WebSocket` or `the "name" WebSocket`. */
interface SocketRef {
  name: string
  text: string
}

const unnamed = ''

defineParameterType({
  name: 'webSocket',
  regexp: /the WebSocket|the "([^"\\]*(?:\\.[^"\\]*)*)" WebSocket/,
  transformer(this: object, name?: string): SocketRef {
    if (name === undefined || name === null) return { name: unnamed, text: 'the WebSocket' }
    const n = interpolateString(this, name.replace(/\\"/g, '"'))
    return { name: n, text: `the ${JSON.stringify(n)} WebSocket` }
  },
  useForSnippets: false,
})

const sockets = new WeakMap<object, Map<string, Socket>>()
/** Every World with open sockets, to close them when the next scenario starts. */
const open = new Set<object>()

function socketsOf(world: object): Map<string, Socket> {
  return stateOf(sockets, world, () => new Map())
}

function closeAll(world: object): void {
  for (const s of sockets.get(world)?.values() ?? []) {
    if (!s.closed) {
      try {
        s.ws.close()
      } catch {
        // already closing
      }
    }
  }
  open.delete(world)
}

BeforeStep(function (this: object) {
  for (const w of open) if (w !== this) closeAll(w)
})

/** The URL to connect to: relative ones resolve against [browser] baseURL, with ws(s) for http(s). */
function socketURL(world: any, url: string): string {
  if (/^wss?:\/\//i.test(url)) return url
  let abs = url
  if (!/^https?:\/\//i.test(url)) {
    if (!world.baseURL) throw new StepError(`the WebSocket URL ${JSON.stringify(url)} is relative and there is no [browser] baseURL to resolve it against: set baseURL in ferridriver.toml or write a ws:// URL`)
    abs = new URL(url, world.baseURL).href
  }
  return abs.replace(/^http/i, 'ws')
}

function socketOf(world: object, r: SocketRef): Socket {
  const s = socketsOf(world).get(r.name)
  if (s) return s
  const names = [...socketsOf(world).keys()].filter((n) => n !== unnamed)
  throw new StepError(
    `${r.text} is not connected in this scenario` +
      (names.length ? ` (connected: ${names.map((n) => JSON.stringify(n)).join(', ')})` : '') +
      `: connect first, e.g. When I connect to the WebSocket "/ws"${r.name ? ` as ${JSON.stringify(r.name)}` : ''}`,
  )
}

/** What was sent and received, for failures and the report. */
function transcript(s: Socket, max = 20): string[] {
  const lines: string[] = [`WebSocket: ${s.url}${s.closed ? ` (closed: ${s.closed.code}${s.closed.reason ? ' ' + s.closed.reason : ''})` : ''}`]
  lines.push(`Sent (${s.sent.length}):${s.sent.length ? '' : ' nothing'}`)
  for (const m of s.sent.slice(-max)) lines.push(`  > ${m.length > 200 ? m.slice(0, 197) + '...' : m}`)
  lines.push(`Received (${s.received.length}):${s.received.length ? '' : ' nothing'}`)
  for (const m of s.received.slice(-max)) lines.push(`  < ${m.data.length > 200 ? m.data.slice(0, 197) + '...' : m.data}${m.taken ? '  (taken by an earlier step)' : ''}`)
  return lines
}

/** A failed WebSocket check: what was expected, then the transcript, attached to the report too. */
function socketFailure(world: any, s: Socket, lines: string[]): Error {
  const t = transcript(s)
  if (typeof world.attach === 'function') void world.attach(new TextEncoder().encode(t.join('\n')), { mediaType: 'text/plain', fileName: `WebSocket ${s.url.replace(/^wss?:\/\/[^/]+/i, '')}.txt` })
  const e = new Error([...lines, '', ...t].join('\n'))
  e.name = 'AssertionError'
  return e
}

function base64(buf: ArrayBuffer): string {
  return (globalThis as any).Buffer.from(new Uint8Array(buf)).toString('base64')
}

async function connect(world: any, url: string, name: string): Promise<void> {
  const target = socketURL(world, interpolateString(world, url))
  const all = socketsOf(world)
  const prev = all.get(name)
  if (prev && !prev.closed) prev.ws.close()
  const s: Socket = { name, url: target, ws: null, received: [], sent: [], opened: false }
  s.ws = new WebSocket(target)
  s.ws.binaryType = 'arraybuffer'
  s.ws.addEventListener('open', () => (s.opened = true))
  s.ws.addEventListener('message', (e: any) => {
    const binary = typeof e.data !== 'string'
    s.received.push({ data: binary ? base64(e.data) : e.data, binary, at: Date.now(), taken: false })
  })
  s.ws.addEventListener('error', (e: any) => (s.error = e.message))
  s.ws.addEventListener('close', (e: any) => (s.closed = { code: e.code, reason: e.reason, clean: e.wasClean }))
  all.set(name, s)
  open.add(world)
  const timeout = assertionBudget(world)
  const deadline = now() + timeout
  while (!s.opened && !s.closed && now() < deadline) await sleep(10)
  if (!s.opened) {
    throw new StepError(`could not connect to the WebSocket ${target}: ${s.error ?? (s.closed ? `closed with ${s.closed.code}` : `no answer within ${timeout}ms`)}`)
  }
}

When(
  'I connect to the WebSocket {string}',
  { description: 'Opens a WebSocket (a relative URL resolves against [browser] baseURL, http becoming ws) and waits until it is open.', example: ['When I connect to the WebSocket "/ws"', 'When I connect to the WebSocket "wss://echo.example.com/socket"'] },
  located(async function (url: string) {
    await connect(this, url, unnamed)
  }),
)

When(
  'I connect to the WebSocket {string} as {string}',
  { description: 'Opens a WebSocket under a name, for scenarios with several (`the "alice" WebSocket`).', example: 'When I connect to the WebSocket "/ws?user=alice" as "alice"' },
  located(async function (url: string, name: string) {
    await connect(this, url, interpolateString(this, name))
  }),
)

function sendText(world: object, r: SocketRef, text: string): void {
  const s = socketOf(world, r)
  if (s.closed) throw socketFailure(world, s, [`Expected to send to ${r.text}, but it is closed`])
  s.ws.send(text)
  s.sent.push(text)
}

When(
  'I send {string} to {webSocket}',
  { description: 'Sends a text message ($name works inside).', example: ['When I send "hello" to the WebSocket', 'When I send "hi, it is $user" to the "alice" WebSocket'] },
  located(function (text: string, r: SocketRef) {
    sendText(this, r, interpolateString(this, text))
  }),
)

When(
  'I send to {webSocket}:',
  {
    description: 'Sends the doc string as a message: JSON (checked, with "$name" strings typed as in request bodies) when it is a JSON object or array, else text.',
    example: 'When I send to the WebSocket:\n  """json\n  { "type": "subscribe", "topic": "orders" }\n  """',
  },
  located(function (r: SocketRef, doc: string) {
    if (typeof doc !== 'string') throw new StepError('"I send to the WebSocket:" takes the message as a doc string under the step')
    let text = interpolateString(this, doc)
    if (/^\s*[[{]/.test(doc)) {
      const value = parseJSON(doc, "the step's JSON")
      text = JSON.stringify(typed(this, value))
    }
    sendText(this, r, text)
  }),
)

/** A JSON value with its "$name" strings replaced by the remembered values. */
function typed(world: object, v: unknown): unknown {
  if (typeof v === 'string') return v.includes('$') ? interpolate(world, v) : v
  if (Array.isArray(v)) return v.map((e) => typed(world, e))
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, typed(world, e)]))
  return v
}

/**
 * Waits until a message not yet taken passes test, takes it and returns it;
 * else fails with what was expected and the transcript.
 */
async function expectMessage(world: object, r: SocketRef, what: string, test: (m: Received) => boolean): Promise<Received> {
  const s = socketOf(world, r)
  const timeout = assertionBudget(world)
  const deadline = now() + timeout
  for (;;) {
    const m = s.received.find((x) => !x.taken && test(x))
    if (m) {
      m.taken = true
      return m
    }
    if (now() >= deadline || (s.closed && Date.now() > (s.received[s.received.length - 1]?.at ?? 0) + 50)) break
    await sleep(Math.min(25, Math.max(1, deadline - now())))
  }
  const waited = s.closed ? `before it closed (${s.closed.code})` : `within ${timeout}ms`
  throw socketFailure(world, s, [`Expected ${r.text} to receive a message ${what} ${waited}, but none of the ${s.received.filter((x) => !x.taken).length} message(s) not taken yet does`])
}

Then(
  'I expect {webSocket} to receive a message {validation} {value}',
  {
    description: 'Waits for a message (one earlier steps did not take) whose text passes {validation}, and takes it.',
    example: ['Then I expect the WebSocket to receive a message to contain "pong"', 'Then I expect the WebSocket to receive a message to equal "echo: hello"', 'Then I expect the "alice" WebSocket to receive a message not to contain "error"'],
  },
  located(async function (r: SocketRef, v: Validation, expected: unknown) {
    const want = typeof expected === 'string' ? interpolate(this, expected) : expected
    await expectMessage(this, r, `${v.text} ${showJSON(want)}`, (m) => check('the message', m.data, v, want) === null)
  }),
)

/** {jsonMatch} as the API steps define it: "to match", "to contain"... */
interface JSONMatch extends MatchOptions {
  negate: boolean
  text: string
}

Then(
  'I expect {webSocket} to receive a JSON message {jsonMatch}:',
  {
    description: 'Waits for a JSON message (one earlier steps did not take) that matches the doc string, with the markers of the JSON steps ("#string", "#? _ > 0"...), and takes it.',
    example: 'Then I expect the WebSocket to receive a JSON message to contain:\n  """json\n  { "type": "pong", "id": 7 }\n  """',
  },
  located(async function (r: SocketRef, how: JSONMatch, doc: string) {
    const expected = parseJSON(doc, "the step's JSON")
    const opts: MatchOptions = { contains: how.contains, containsAny: how.containsAny, anyOrder: how.anyOrder, resolve: (s: string) => (s.includes('$') ? { value: interpolate(this, s) } : undefined) }
    await expectMessage(this, r, `${how.text} ${showJSON(expected, 120)}`, (m) => {
      let v: unknown
      try {
        v = JSON.parse(m.data)
      } catch {
        return false
      }
      return (matchJSON(v, expected, opts).length === 0) !== how.negate
    })
  }),
)

When(
  'I remember the next message of {webSocket} as {string}',
  { description: 'Waits for the next message earlier steps did not take, takes it and remembers it as $name (its JSON, or its text).', example: 'When I remember the next message of the WebSocket as "welcome"' },
  located(async function (r: SocketRef, name: string) {
    const m = await expectMessage(this, r, 'at all', () => true)
    let value: unknown = m.data
    if (!m.binary) {
      try {
        value = JSON.parse(m.data)
      } catch {
        // text
      }
    }
    remember(this, interpolateString(this, name), value)
  }),
)

When(
  'I close {webSocket}',
  { description: 'Closes a WebSocket (normal closure) and waits until it is closed.', example: ['When I close the WebSocket', 'When I close the "alice" WebSocket'] },
  located(async function (r: SocketRef) {
    const s = socketOf(this, r)
    if (!s.closed) s.ws.close(1000)
    const deadline = now() + assertionBudget(this)
    while (!s.closed && now() < deadline) await sleep(10)
    if (!s.closed) throw socketFailure(this, s, [`Expected ${r.text} to close, but it is still open`])
  }),
)

Then(
  'I expect {webSocket} {toBe} closed',
  { description: 'Checks (waiting for it) that the server closed a WebSocket, or with "not to be", that it is still open.', example: ['Then I expect the WebSocket to be closed', 'Then I expect the WebSocket not to be closed'] },
  located(async function (r: SocketRef, negate: boolean) {
    const s = socketOf(this, r)
    if (!negate) {
      const deadline = now() + assertionBudget(this)
      while (!s.closed && now() < deadline) await sleep(10)
    }
    if (!!s.closed === negate) throw socketFailure(this, s, [`Expected ${r.text} ${negate ? 'not ' : ''}to be closed`])
  }),
)

Then(
  'I attach {webSocket} messages to the report',
  { description: 'Attaches what was sent to and received from a WebSocket to the report.', example: ['Then I attach the WebSocket messages to the report', 'Then I attach the "alice" WebSocket messages to the report'] },
  located(function (r: SocketRef) {
    const s = socketOf(this, r)
    if (typeof this.attach === 'function') void this.attach(new TextEncoder().encode(transcript(s, 1000).join('\n')), { mediaType: 'text/plain', fileName: `WebSocket ${s.url.replace(/^wss?:\/\/[^/]+/i, '')}.txt` })
  }),
)

