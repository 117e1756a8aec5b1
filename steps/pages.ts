// Page objects: business names for locators, kept in files the project
// owns. ferridriver reads YAML/TOML/JSON files ([steps] pages, by default
// pages/**) and hands them to the library parsed (project.ts); TypeScript
// code adds pages with definePage. A page is named after its file
// (pages/login.yaml is "login"); a step names an element by its name when
// that is unique across pages, or as "login > User".
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

const pages = new Map<string, { name: string; where: string; elements: Map<string, PageElement> }>()
const byName = new Map<string, PageElement[]>()

function add(page: string, where: string, el: PageElement): void {
  const key = page.toLowerCase()
  let p = pages.get(key)
  if (!p) {
    p = { name: page, where, elements: new Map() }
    pages.set(key, p)
  }
  const prev = p.elements.get(el.name)
  if (prev) throw new Error(`page object "${page} > ${el.name}" is defined twice: ${prev.where} and ${el.where}`)
  p.elements.set(el.name, el)
  const list = byName.get(el.name) ?? []
  list.push(el)
  byName.set(el.name, list)
}

function buildChain(root: Root, chain: LocatorCall[]): Locator | FrameLocator {
  let cur: any = root
  for (const c of chain) {
    if (typeof cur[c.method] !== 'function') throw new Error(`${c.method}() cannot follow ${String(cur)}`)
    cur = cur[c.method](...c.args.map((a) => argument(root, a)))
  }
  return cur
}

function argument(root: Root, a: any): unknown {
  if (a === null || typeof a !== 'object') return a
  if ('$regex' in a) return new RegExp(a.$regex, a.flags)
  if ('$locator' in a) return buildChain(root, a.$locator)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(a)) out[k] = argument(root, v)
  return out
}

for (const f of pageFiles) {
  for (const e of f.elements) {
    const chain = e.chain
    const selector = e.selector
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
 * switched to) returning a locator.
 *
 *   definePage('cart', {
 *     'Total': '[data-testid=total]',
 *     'Checkout': (page) => page.getByRole('button', { name: 'Checkout' }),
 *   })
 */
export function definePage(name: string, elements: Record<string, string | ((root: Root) => Locator | FrameLocator)>): void {
  const where = `definePage(${JSON.stringify(name)})`
  for (const [el, v] of Object.entries(elements)) {
    if (typeof v !== 'string' && typeof v !== 'function') throw new TypeError(`${where}: "${el}" must be a selector string or a function returning a locator`)
    add(name, where, {
      page: name,
      name: el,
      where,
      source: typeof v === 'string' ? v : String(v),
      build: typeof v === 'string' ? (root) => root.locator(v) : (root) => v(root),
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
      const el = p.elements.get(name)
      if (el) return el
      throw new Error(`the page "${p.name}" (${p.where.replace(/:\d+$/, '')}) has no element "${name}"; it has: ${[...p.elements.keys()].map((k) => JSON.stringify(k)).join(', ')}`)
    }
  }
  const found = byName.get(text)
  if (!found) return undefined
  if (found.length > 1) {
    throw new Error(`"${text}" is defined by several pages (${found.map((e) => e.where).join(', ')}): write ${found.map((e) => JSON.stringify(e.page + ' > ' + text)).join(' or ')}`)
  }
  return found[0]
}

/** Every page-object name, "page > name", for messages. */
export function pageObjectNames(): string[] {
  const out: string[] = []
  for (const p of pages.values()) for (const n of p.elements.keys()) out.push(`${p.name} > ${n}`)
  return out
}
