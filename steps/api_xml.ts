// API testing: XML responses. XPath picks values out of a response
// (Karate's `match response/user/name == 'Ada'`), and a whole response is
// matched against an expected document whose texts and attribute values
// may be markers ("#string", "#ignore", "#regex ...", "#? _ > 0"). XML is
// parsed and XPath evaluated in Go (module ferridriver/xml).
import { Then, When, defineParameterType } from '@cucumber/cucumber'
import { parse, xpath } from 'ferridriver/xml'
import { interpolate, interpolateString, remember } from './memory'
import { check, type Validation } from './validation'
import { apiState, exchangeOf, failure, located, send, StepError, type Exchange, type ResponseRef } from './api_client'
import { matchJSON, showJSON, type Mismatch } from './api_match'

/** An element of a parsed document (steps/xmldoc). */
interface XMLElement {
  name: string
  attributes: Record<string, string>
  text: string
  children: XMLElement[]
  line: number
}

/** How a document is matched: {xmlMatch}. */
interface XMLMatch {
  negate: boolean
  contains: boolean
  anyOrder: boolean
  text: string
}

defineParameterType({
  name: 'xmlMatch',
  regexp: /(?:not )?to (?:match in any order|match|contain)/,
  transformer: (s: string): XMLMatch => ({ negate: s.startsWith('not '), contains: s.endsWith('contain'), anyOrder: s.endsWith('any order'), text: s }),
  useForSnippets: false,
})

/** A response's XML, or a failure that says why it is not XML. */
function responseXML(world: object, r: ResponseRef, subject: string): { ex: Exchange; text: string } {
  const ex = exchangeOf(world, r)
  if (!/[/+]xml\b/i.test(ex.contentType) && !/^\s*</.test(ex.text)) {
    throw failure(world, [`Expected an XML response to read ${subject} from, but it is ${ex.contentType || 'not XML'}${ex.text.trim() ? `: ${JSON.stringify(ex.text.trim().slice(0, 60))}` : ' and empty'}`], ex)
  }
  return { ex, text: ex.text }
}

/** What an XPath selects as a value: a node's text, a list of texts, or a number, string or boolean. */
function select(world: object, r: ResponseRef, expr: string, subject: string): { ex: Exchange; found: boolean; value: unknown; reason?: string } {
  const { ex, text } = responseXML(world, r, subject)
  let res: { isNodeSet: boolean; nodes?: Array<{ text: string }> | null; value?: unknown }
  try {
    res = xpath(text, expr)
  } catch (e: any) {
    if (/XPath .* is not valid/.test(e.message)) throw new StepError(e.message)
    throw failure(world, [`Expected ${subject}, but the response is ${e.message}`], ex)
  }
  if (!res.isNodeSet) return { ex, found: true, value: res.value }
  const nodes = res.nodes ?? []
  if (nodes.length === 0) return { ex, found: false, value: undefined, reason: 'it selects nothing' }
  return { ex, found: true, value: nodes.length === 1 ? nodes[0].text : nodes.map((n) => n.text) }
}

const subjectOf = (r: ResponseRef, expr: string) => `${r.text} XPath ${JSON.stringify(expr)}`

Then(
  'I expect {response} XPath {string} {validation} {value}',
  {
    description: 'Checks what an XPath selects in an XML response: one node\'s text, the list of texts of several, or the value of count(), string(), boolean()...',
    example: ['Then I expect the response XPath "/user/name" to equal "Ada Lovelace"', 'Then I expect the response XPath "/users/user/@id" to contain "2"', 'Then I expect the response XPath "count(/users/user)" to equal 3', 'Then I expect the response XPath "/user/roles/role" not to contain "viewer"'],
  },
  located(function (r: ResponseRef, path: string, v: Validation, expected: unknown) {
    const expr = interpolateString(this, path)
    const subject = subjectOf(r, expr)
    const s = select(this, r, expr, subject)
    const want = typeof expected === 'string' ? interpolate(this, expected) : expected
    if (!s.found) throw failure(this, [`Expected ${subject} ${v.text} ${showJSON(want)}, but ${s.reason}`], s.ex)
    const msg = check(subject, s.value, v, want)
    if (msg) throw failure(this, [msg], s.ex)
  }),
)

Then(
  'I expect {response} XPath {string} {to} exist',
  { description: 'Checks that an XPath selects something (or, with "not to", nothing) in an XML response.', example: ['Then I expect the response XPath "/user/address/city" to exist', 'Then I expect the response XPath "/user/password" not to exist'] },
  located(function (r: ResponseRef, path: string, negate: boolean) {
    const expr = interpolateString(this, path)
    const subject = subjectOf(r, expr)
    const s = select(this, r, expr, subject)
    const exists = s.found && s.value !== false
    if (exists === negate) throw failure(this, [`Expected ${subject} ${negate ? 'not ' : ''}to exist`, negate ? `Received: ${showJSON(s.value, 200)}` : `But: ${s.reason ?? 'it is false'}`], s.ex)
  }),
)

Then(
  'I remember {response} XPath {string} as {string}',
  { description: 'Remembers what an XPath selects in an XML response (a text, a list of texts, a number...) for $name in later steps.', example: 'Then I remember the response XPath "/users/user[1]/@id" as "firstId"' },
  located(function (r: ResponseRef, path: string, name: string) {
    const expr = interpolateString(this, path)
    const subject = subjectOf(r, expr)
    const s = select(this, r, expr, subject)
    if (!s.found) throw failure(this, [`Expected to remember ${subject}, but ${s.reason}`], s.ex)
    remember(this, interpolateString(this, name), s.value)
  }),
)

/** Matches an element against an expected one, adding differences with their XPath-like path. */
function matchElement(actual: XMLElement, expected: XMLElement, how: XMLMatch, path: string, out: Mismatch[], resolve: (s: string) => { value: unknown } | undefined): void {
  if (actual.name !== expected.name) {
    out.push({ path, message: `expected the element <${expected.name}>, received <${actual.name}>` })
    return
  }
  for (const m of matchJSON(actual.attributes, expected.attributes, { contains: how.contains, resolve })) {
    const key = m.path.replace(/^\$\.?/, '').replace(/^\['(.*)'\]$/, '$1')
    out.push({ path: key ? `${path}/@${key}` : path, message: m.message.replace(/^not expected, received/, 'an attribute not expected, received') })
  }
  const kids = actual.children
  if (expected.children.length === 0 && expected.text.startsWith('#') && !expected.text.startsWith('#regex') && kids.length > 0) {
    // A marker for an element with children: only "anything" markers hold.
    if (!/^##?(ignore|present|notnull)$/.test(expected.text)) out.push({ path, message: `expected ${expected.text}, received an element with ${kids.length} child element(s)` })
    return
  }
  if (expected.children.length === 0 && (expected.text !== '' || !how.contains)) {
    for (const m of matchJSON(actual.text, expected.text, { resolve })) out.push({ path: `${path}/text()`, message: m.message })
    if (expected.text.startsWith('#') || how.contains) return
  }
  const want = expected.children
  const at = (e: XMLElement, i: number, list: XMLElement[]) => {
    const same = list.filter((c) => c.name === e.name)
    return same.length > 1 ? `${path}/${e.name}[${same.indexOf(e) + 1}]` : `${path}/${e.name}`
  }
  const names = (list: XMLElement[]) => list.map((c) => c.name).join(', ')
  if (!how.contains && !how.anyOrder) {
    if (names(kids) !== names(want)) out.push({ path, message: `expected the child elements (${names(want)}), received (${names(kids)})` })
    // Each expected child is compared with the next actual child of its name.
    let next = 0
    for (const w of want) {
      let k = next
      while (k < kids.length && kids[k].name !== w.name) k++
      if (k === kids.length) continue // said by the line above
      matchElement(kids[k], w, how, at(kids[k], k, kids), out, resolve)
      next = k + 1
    }
    return
  }
  if (!how.contains && kids.length !== want.length) out.push({ path, message: `expected ${want.length} child element(s) (${names(want)}), received ${kids.length} (${names(kids)})` })
  const used = new Set<number>()
  want.forEach((w) => {
    let best: Mismatch[] | null = null
    let bestJ = -1
    for (let j = 0; j < kids.length; j++) {
      if (used.has(j) || kids[j].name !== w.name) continue
      const d: Mismatch[] = []
      matchElement(kids[j], w, how, at(kids[j], j, kids), d, resolve)
      if (d.length === 0) {
        best = d
        bestJ = j
        break
      }
      if (best === null || d.length < best.length) {
        best = d
        bestJ = j
      }
    }
    if (bestJ >= 0 && best && best.length === 0) {
      used.add(bestJ)
      return
    }
    out.push({ path, message: `no child element matches the expected <${w.name}>${best ? ' (the closest one differs below)' : ''}` })
    if (best) out.push(...best.slice(0, 5))
  })
}

function parseExpected(doc: string, what: string): XMLElement {
  try {
    return parse(doc)
  } catch (e: any) {
    throw new StepError(`${what} is ${e.message}`)
  }
}

Then(
  'I expect {response} XML {xmlMatch}:',
  {
    description: 'Matches an XML response against a document whose texts and attribute values may be markers ("#string", "#ignore", "#regex ..."): "to match" is exact (children in order), "to match in any order" lets children come in any order, "to contain" is a subset. Whitespace between elements does not count.',
    example: [
      'Then I expect the response XML to match:\n  """xml\n  <user id="#string" active="true"><name>Ada Lovelace</name><email>#regex .+@example\\.com</email><roles><role>admin</role><role>editor</role></roles><address>#ignore</address><createdAt>#datetime</createdAt></user>\n  """',
      'Then I expect the response XML to contain:\n  """xml\n  <users><user id="2"><name>Grace Hopper</name></user></users>\n  """',
    ],
  },
  located(function (r: ResponseRef, how: XMLMatch, doc: string) {
    const subject = `${r.text} XML`
    const { ex, text } = responseXML(this, r, subject)
    let actual: XMLElement
    try {
      actual = parse(text)
    } catch (e: any) {
      throw failure(this, [`Expected ${subject} ${how.text} the step's XML, but the response is ${e.message}`], ex)
    }
    const expected = parseExpected(interpolateString(this, doc), "the step's XML")
    const out: Mismatch[] = []
    const resolve = (s: string) => (s.includes('$') ? { value: interpolate(this, s) } : undefined)
    matchElement(actual, expected, how, `/${actual.name}`, out, resolve)
    if (how.negate) {
      if (out.length === 0) throw failure(this, [`Expected ${subject} ${how.text} the step's XML, but it does`], ex)
      return
    }
    if (out.length) {
      const lines = out.slice(0, 25).map((m) => `  ${m.path}: ${m.message}`)
      if (out.length > 25) lines.push(`  ... and ${out.length - 25} more`)
      throw failure(this, [`Expected ${subject} ${how.text} (${out.length} difference${out.length === 1 ? '' : 's'}):`, ...lines], ex)
    }
  }),
)

When(
  'I send a {httpMethod} request to {string} with the XML:',
  { description: 'Sends a request with the doc string as an XML body (Content-Type application/xml unless a header says otherwise; $name works inside).', example: 'When I send a POST request to "/api/xml/echo" with the XML:\n  """xml\n  <order><sku>F-1</sku><quantity>2</quantity></order>\n  """' },
  located(async function (method: string, url: string, doc: string) {
    if (typeof doc !== 'string') throw new StepError('"I send a request with the XML:" takes the XML as a doc string under the step')
    const text = interpolateString(this, doc)
    try {
      parse(text)
    } catch (e: any) {
      throw new StepError(`the step's XML is ${e.message}`)
    }
    const st = apiState(this)
    if (!st.next.headers.some(([n]) => n.toLowerCase() === 'content-type')) st.next.headers.push(['Content-Type', 'application/xml'])
    st.next.body = { kind: 'text', text }
    await send(this, method, interpolateString(this, url))
  }),
)
