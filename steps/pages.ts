// Page objects: business names for locators, kept in files the project
// owns. ferridriver reads YAML/TOML/JSON files ([steps] pages, by default
// pages/**) and hands them to the library parsed (project.ts); TypeScript
// code adds pages with definePage. A page is named after its file
// (pages/login.yaml is "login"); a step names an element by its name when
// that is unique across pages, or as "login > User".
//
// A parameterised element (qavajs' templates) has {placeholders} in its
// name and locator, "Product ({name})": a step names it with the values in
// place, "Product (Milk)", wherever a target goes.
import type { FrameLocator, Locator, Page } from '@playwright/test'
import { pageFiles } from './project'

/** One method call of a locator expression, as steps/pages parses it. */
export interface LocatorCall {
  method: string
  args: unknown[]
}

/** A page-object file as ferridriver parsed it. */
export interface PageFile {
  name: string
  /** The file, relative to the project. */
  file: string
  elements: Array<{
    name: string
    line: number
    /** The locator as written. */
    source: string
    /** Set when the locator is a Playwright selector string. */
    selector?: string
    /** Set when the locator is an expression such as getByLabel('User'). */
    chain?: LocatorCall[]
    /** The {placeholders} of a parameterised element's name. */
    params?: string[]
  }>
}

/** Where locators are looked up: the page, or the frame a step switched to. */
export type Root = Page | FrameLocator

/** A page element: how to find it from a root. */
export interface PageElement {
  page: string
  name: string
  /** "pages/login.yaml:3", or "definePage('login')". */
  where: string
  /** The locator as written, for messages. */
  source: string
  build(root: Root): Locator | FrameLocator
}

/** A parameterised page element: its name is a pattern, "Product ({name})". */
interface Template {
  page: string
  name: string
  where: string
  source: string
  params: string[]
  /** Matches the names it stands for; the groups are the values, in params order. */
  pattern: RegExp
  build(root: Root, values: Record<string, string>): Locator | FrameLocator
}

const pages = new Map<string, { name: string; where: string; elements: Map<string, PageElement>; templates: Template[] }>()
const byName = new Map<string, PageElement[]>()
const templates: Template[] = []

const placeholder = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g
const escapeRE = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

/** The placeholders of a name, in order. */
function paramsOf(name: string): string[] {
  return [...name.matchAll(placeholder)].map((m) => m[1])
}

/** The pattern of the names a parameterised name stands for. */
function templatePattern(name: string): RegExp {
  let re = ''
  let at = 0
  for (const m of name.matchAll(placeholder)) {
    re += escapeRE(name.slice(at, m.index)) + '(.+?)'
    at = m.index! + m[0].length
  }
  return new RegExp('^' + re + escapeRE(name.slice(at)) + '$')
}

/** A text with {placeholders} replaced by values (escaped for a regular expression when re). */
function fill(text: string, values: Record<string, string>, re = false): string {
  return text.replace(placeholder, (m, p: string) => (Object.prototype.hasOwnProperty.call(values, p) ? (re ? escapeRE(values[p]) : values[p]) : m))
}

function pageOf(page: string, where: string) {
  const key = page.toLowerCase()
  let p = pages.get(key)
  if (!p) {
    p = { name: page, where, elements: new Map(), templates: [] }
    pages.set(key, p)
  }
  return p
}

function addTemplate(t: Template): void {
  const p = pageOf(t.page, t.where)
  const prev = p.templates.find((x) => x.name === t.name) ?? p.elements.get(t.name)
  if (prev) throw new Error(`page object "${t.page} > ${t.name}" is defined twice: ${prev.where} and ${t.where}`)
  p.templates.push(t)
  templates.push(t)
}

function add(page: string, where: string, el: PageElement): void {
  const p = pageOf(page, where)
  const prev = p.elements.get(el.name)
  if (prev) throw new Error(`page object "${page} > ${el.name}" is defined twice: ${prev.where} and ${el.where}`)
  p.elements.set(el.name, el)
  const list = byName.get(el.name) ?? []
  list.push(el)
  byName.set(el.name, list)
}

function buildChain(root: Root, chain: LocatorCall[], values: Record<string, string> = {}): Locator | FrameLocator {
  let cur: any = root
  for (const c of chain) {
    if (typeof cur[c.method] !== 'function') throw new Error(`${c.method}() cannot follow ${String(cur)}`)
    cur = cur[c.method](...c.args.map((a) => argument(root, a, values)))
  }
  return cur
}

function argument(root: Root, a: any, values: Record<string, string>): unknown {
  if (typeof a === 'string') return fill(a, values)
  if (a === null || typeof a !== 'object') return a
  if ('$regex' in a) return new RegExp(fill(a.$regex, values, true), a.flags)
  if ('$locator' in a) return buildChain(root, a.$locator, values)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(a)) out[k] = argument(root, v, values)
  return out
}

for (const f of pageFiles) {
  for (const e of f.elements) {
    const chain = e.chain
    const selector = e.selector
    if (e.params && e.params.length) {
      addTemplate({
        page: f.name,
        name: e.name,
        where: `${f.file}:${e.line}`,
        source: e.source,
        params: e.params,
        pattern: templatePattern(e.name),
        build: chain ? (root, values) => buildChain(root, chain, values) : (root, values) => root.locator(fill(selector!, values)),
      })
      continue
    }
    add(f.name, `${f.file}:${e.line}`, {
      page: f.name,
      name: e.name,
      where: `${f.file}:${e.line}`,
      source: e.source,
      build: chain ? (root) => buildChain(root, chain) : (root) => root.locator(selector!),
    })
  }
}

/**
 * Adds a page of named locators from TypeScript: a value is a Playwright
 * selector string or a function of the page (or of the frame a step
 * switched to) returning a locator. A name with {placeholders} is
 * parameterised: the string gets the values in place, the function gets
 * them as its second argument.
 *
 *   definePage('cart', {
 *     'Total': '[data-testid=total]',
 *     'Checkout': (page) => page.getByRole('button', { name: 'Checkout' }),
 *     'Line ({product})': (page, { product }) => page.getByRole('row').filter({ hasText: product }),
 *   })
 */
export function definePage(name: string, elements: Record<string, string | ((root: Root, values: Record<string, string>) => Locator | FrameLocator)>): void {
  const where = `definePage(${JSON.stringify(name)})`
  for (const [el, v] of Object.entries(elements)) {
    if (typeof v !== 'string' && typeof v !== 'function') throw new TypeError(`${where}: "${el}" must be a selector string or a function returning a locator`)
    const params = paramsOf(el)
    if (params.length) {
      addTemplate({
        page: name,
        name: el,
        where,
        source: typeof v === 'string' ? v : String(v),
        params,
        pattern: templatePattern(el),
        build: typeof v === 'string' ? (root, values) => root.locator(fill(v, values)) : (root, values) => v(root, values),
      })
      continue
    }
    add(name, where, {
      page: name,
      name: el,
      where,
      source: typeof v === 'string' ? v : String(v),
      build: typeof v === 'string' ? (root) => root.locator(v) : (root) => v(root, {}),
    })
  }
}

/**
 * The page element a step's target names: "Page > Name", or a Name defined
 * by one page only; undefined when the text names no page object (it is
 * then a selector). A name defined by several pages, or a page without
 * that name, is an error that lists the choices.
 */
export function pageElement(text: string): PageElement | undefined {
  const sep = text.indexOf(' > ')
  if (sep > 0) {
    const p = pages.get(text.slice(0, sep).trim().toLowerCase())
    if (p) {
      const name = text.slice(sep + 3).trim()
      const el = p.elements.get(name) ?? instance(p.templates, name)
      if (el) return el
      const names = [...p.elements.keys(), ...p.templates.map((t) => t.name)]
      throw new Error(`the page "${p.name}" (${p.where.replace(/:\d+$/, '')}) has no element "${name}"; it has: ${names.map((k) => JSON.stringify(k)).join(', ')}`)
    }
  }
  const found = byName.get(text)
  if (!found) {
    const inst = instance(templates, text)
    if (inst) return inst
    mixedTarget(text)
    return undefined
  }
  if (found.length > 1) {
    throw new Error(`"${text}" is defined by several pages (${found.map((e) => e.where).join(', ')}): write ${found.map((e) => JSON.stringify(e.page + ' > ' + text)).join(' or ')}`)
  }
  return found[0]
}

/**
 * The element a name such as "Product (Milk)" stands for among
 * parameterised elements ("Product ({name})"), with its values in place;
 * undefined when none matches, an error when several pages' do.
 */
function instance(among: Template[], text: string): PageElement | undefined {
  const hits: Array<{ t: Template; values: Record<string, string> }> = []
  for (const t of among) {
    const m = t.pattern.exec(text)
    if (!m) continue
    const values: Record<string, string> = {}
    t.params.forEach((p, i) => (values[p] = m[i + 1]))
    hits.push({ t, values })
  }
  if (hits.length === 0) return undefined
  if (hits.length > 1) {
    throw new Error(`"${text}" matches several parameterised page objects (${hits.map((h) => `"${h.t.page} > ${h.t.name}" at ${h.t.where}`).join(', ')}): write ${hits.map((h) => JSON.stringify(h.t.page + ' > ' + text)).join(' or ')}`)
  }
  const { t, values } = hits[0]
  return { page: t.page, name: text, where: t.where, source: fill(t.source, values), build: (root) => t.build(root, values) }
}

/**
 * Throws when text starts a selector chain with a page-object name
 * ("Items >> text=Buy milk"): that is neither a page-object name nor a
 * selector (as CSS, "Items" is a tag, so the action would only time out).
 */
function mixedTarget(text: string): void {
  const chain = text.split('>>')
  if (chain.length < 2) return
  const first = chain[0].trim()
  let el: PageElement | undefined
  try {
    el = byName.get(first)?.length === 1 ? byName.get(first)![0] : first.includes(' > ') ? pageElement(first) : undefined
  } catch {
    return
  }
  if (!el) return
  const rest = chain.slice(1).join('>>').trim()
  const whole = el.source.trim() && !/^(page\.)?(getBy|locator\(|frameLocator\()/.test(el.source.trim()) ? ` ('${el.source.trim()} >> ${rest}')` : ''
  throw new Error(
    `"${text}" is neither a page-object name nor a selector: "${first}" is a page object (${el.where}), and a target is one or the other. ` +
      `Write the whole selector${whole}, or name the element in ${el.where.replace(/:\d+$/, '')}.`,
  )
}

/** Every page-object name, "page > name", for messages. */
export function pageObjectNames(): string[] {
  const out: string[] = []
  for (const p of pages.values()) {
    for (const n of p.elements.keys()) out.push(`${p.name} > ${n}`)
    for (const t of p.templates) out.push(`${p.name} > ${t.name}`)
  }
  return out
}
