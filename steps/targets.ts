// Targets: how a step's element argument becomes a locator. A target is a
// page-object name (pages.ts), else a Playwright selector string: css,
// role=button[name="Log in"], text=..., xpath, chains with >> (nth=N...).
// Locators start from the frame a step switched to, or the page.
import type { FrameLocator, Locator } from '@playwright/test'
import { Target } from './params'
import { pageElement, pageObjectNames, type Root } from './pages'
import { onNewContext, stateOf, type StepWorld } from './world'

/** Whitespace collapsed and trimmed, as Playwright compares texts. */
export const normalize = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim()

/** The texts of every element l matches, each normalized. */
export const textsOf = async (l: Locator) => (await l.allTextContents()).map(normalize)

const frames = new WeakMap<object, FrameLocator[]>()

onNewContext((world) => {
  frames.delete(world)
})

/** The frames a step switched into, outermost first. */
export function frameStack(world: object): FrameLocator[] {
  return stateOf(frames, world, () => [])
}

/** Where the World's locators start: the innermost frame switched to, or the page. */
export function rootOf(world: StepWorld): Root {
  const stack = frameStack(world)
  return stack.length ? stack[stack.length - 1] : world.page
}

function resolve(world: StepWorld, text: string): Locator | FrameLocator {
  const root = rootOf(world)
  const el = pageElement(text)
  return el ? el.build(root) : root.locator(text)
}

function isFrameLocator(l: Locator | FrameLocator): l is FrameLocator {
  return typeof (l as FrameLocator).owner === 'function' && typeof (l as Locator).click !== 'function'
}

/** The locator of a target (a Target of a step, or a page-object name or selector). */
export function locate(world: StepWorld, target: Target | string): Locator {
  const t = typeof target === 'string' ? new Target(target) : target
  let l = resolve(world, t.text)
  if (isFrameLocator(l)) l = l.owner()
  return nthOf(l, t.nth)
}

function nthOf<L extends Locator | FrameLocator>(l: L, nth: number | undefined): L {
  if (nth === undefined) return l
  return (nth === -1 ? l.last() : nth === 0 ? l.first() : l.nth(nth)) as L
}

/** The frame a target names: a frame page object, or the frame of an <iframe> element. */
export function locateFrame(world: StepWorld, target: Target | string): FrameLocator {
  const t = typeof target === 'string' ? new Target(target) : target
  const l = resolve(world, t.text)
  if (isFrameLocator(l)) return nthOf(l, t.nth)
  return locate(world, t).contentFrame()
}

/** Whether a target's text names a page object. */
function isPageObject(text: string): boolean {
  try {
    return pageElement(text) !== undefined
  } catch {
    return true
  }
}

// A name such as "Log in" or "Submit order", as opposed to a selector: no
// selector punctuation, and a capital or a space in it (lower-case single
// words are tag names: "li", "button").
const selectorLike = /[#.[\]=:>()*"'/@~+,|^$]/
const nameLike = (s: string) => !selectorLike.test(s) && /[A-Z\s]/.test(s)

/**
 * A hint for a failed step whose target looks like a business name but is
 * not a page object, so it was used as a CSS selector and matched nothing.
 */
export function targetHint(t: Target): string | undefined {
  if (isPageObject(t.text) || !nameLike(t.text)) return undefined
  const known = pageObjectNames()
  const list = known.length ? ` (page objects: ${known.slice(0, 12).join(', ')}${known.length > 12 ? ', …' : ''})` : ' (no page objects are defined: see [steps] pages)'
  return `Note: "${t.text}" is not a page-object name${list}, so it was used as a CSS selector. Name the element in a page-object file, or write a selector such as 'role=button[name="${t.text}"]' or 'text=${t.text}'.`
}
