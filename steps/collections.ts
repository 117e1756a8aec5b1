// Collections: a condition or a property of every element a target
// matches, or of any of them (qavajs' "every element in collection"):
//
//   Then I expect every element of "#products li" to be visible
//   Then I expect any element of ".error" to be visible
//   Then I expect every attribute "data-sku" of "#products li" to match "^F-"
//   Then I expect any value of "input.qty" to equal "0"
//
// "every" fails on an empty collection (nothing to check is not a pass),
// "any" holds when one element passes. Like every assertion they are
// web-first: the elements are read again until the check holds or the
// assertion timeout passes; the failure lists each element that failed.
import { Then, defineParameterType } from '@cucumber/cucumber'
import type { Locator } from '@playwright/test'
import { Target } from './params'
import { step } from './step'
import { locate, textsOf } from './targets'
import { assertionBudget, AssertionError, check, now, show, sleep, type Validation } from './validation'

/** "every" or "any": how many elements of a collection must pass. */
export type Quantifier = 'every' | 'any'

defineParameterType({
  name: 'quantifier',
  regexp: /every|any/,
  transformer: (s: string) => s as Quantifier,
  useForSnippets: false,
})

/** A state an element is in, and how it is read in the page. */
interface ElementState {
  /** As written: "be visible". */
  phrase: string
  /** The state's name in a failure: "visible". */
  name: string
  /** Its opposite, for what an element that fails is: "hidden". */
  opposite: string
  read: (l: Locator) => Promise<boolean>
}

const inViewport = (el: Element) => {
  const r = el.getBoundingClientRect()
  return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < window.innerHeight && r.left < window.innerWidth
}

const isEmpty = (el: any) => ('value' in el && typeof el.value === 'string' && el.tagName !== 'BUTTON' ? el.value === '' : (el.textContent ?? '').trim() === '')

const elementStates: ElementState[] = [
  { phrase: 'be visible', name: 'visible', opposite: 'hidden', read: (l) => l.isVisible() },
  { phrase: 'be hidden', name: 'hidden', opposite: 'visible', read: (l) => l.isHidden() },
  { phrase: 'be enabled', name: 'enabled', opposite: 'disabled', read: (l) => l.isEnabled({ timeout: 1000 }) },
  { phrase: 'be disabled', name: 'disabled', opposite: 'enabled', read: (l) => l.isDisabled({ timeout: 1000 }) },
  { phrase: 'be checked', name: 'checked', opposite: 'unchecked', read: (l) => l.isChecked({ timeout: 1000 }) },
  { phrase: 'be editable', name: 'editable', opposite: 'not editable', read: (l) => l.isEditable({ timeout: 1000 }) },
  { phrase: 'be in the viewport', name: 'in the viewport', opposite: 'outside the viewport', read: (l) => l.evaluate(inViewport, undefined, { timeout: 1000 }) },
  { phrase: 'be empty', name: 'empty', opposite: 'not empty', read: (l) => l.evaluate(isEmpty, undefined, { timeout: 1000 }) },
]

defineParameterType({
  name: 'elementState',
  regexp: new RegExp(elementStates.map((s) => s.phrase).join('|')),
  transformer: (s: string) => elementStates.find((e) => e.phrase === s)!,
  useForSnippets: false,
})

/** One element's result: null when it passes, else what it is instead. */
type Verdict = string | null

/**
 * Checks the elements of a collection until the quantifier holds or the
 * assertion timeout passes. judge reads every element (an array of
 * verdicts, one per element, in document order); the failure names the
 * elements that failed.
 */
export async function checkCollection(world: object, q: Quantifier, subject: string, l: Locator, judge: () => Promise<Verdict[]>): Promise<void> {
  const timeout = assertionBudget(world)
  const deadline = now() + timeout
  const intervals = [0, 100, 250, 500, 1000]
  let tries = 0
  let last: string[] = []
  for (;;) {
    try {
      const verdicts = await judge()
      const failed = verdicts.map((v, i) => [i, v] as const).filter(([, v]) => v !== null)
      if (verdicts.length > 0 && (q === 'every' ? failed.length === 0 : failed.length < verdicts.length)) return
      if (verdicts.length === 0) last = ['but the target matches no element']
      else {
        const n = verdicts.length
        const head = q === 'every' ? `but ${failed.length} of ${n} ${failed.length === 1 ? 'does' : 'do'} not:` : `but none of the ${n} does:`
        last = [head, ...failed.slice(0, 10).map(([i, v]) => `  [${i + 1}] ${v}`), ...(failed.length > 10 ? [`  ... and ${failed.length - 10} more`] : [])]
      }
    } catch (e: any) {
      last = [`but it could not be read: ${e.message}`]
    }
    tries++
    const wait = intervals[Math.min(tries, intervals.length - 1)]
    if (now() + wait > deadline) break
    await sleep(wait)
  }
  throw new AssertionError([`Expected ${subject}`, ...last, `Locator: ${l}`, `Timeout: ${timeout}ms (checked ${tries} time${tries === 1 ? '' : 's'})`].join('\n'))
}

/** The locator of each element a collection matches now. */
async function each(l: Locator): Promise<Locator[]> {
  const n = await l.count()
  return Array.from({ length: n }, (_, i) => l.nth(i))
}

Then(
  'I expect {quantifier} element of {target} {to} {elementState}',
  {
    description: 'Checks a state of every element a target matches (or, with "any", of one of them): visible, hidden, enabled, disabled, checked, editable, in the viewport, empty. "every" fails when nothing matches.',
    example: ['Then I expect every element of "#products li" to be visible', 'Then I expect every element of "#products button" not to be disabled', 'Then I expect any element of "#products button" to be disabled'],
  },
  step(async function (q: Quantifier, t: Target, negate: boolean, state: ElementState) {
    const l = locate(this, t)
    const want = `${negate ? 'not ' : ''}to ${state.phrase}`
    await checkCollection(this, q, `${q} element of ${l} ${want}`, l, async () => {
      const out: Verdict[] = []
      for (const el of await each(l)) out.push((await state.read(el)) !== negate ? null : negate ? state.name : state.opposite)
      return out
    })
  }),
)

/** Defines `I expect {quantifier} <what> of {target} {validation} {expected}`. */
function property(what: string, description: string, example: string[], read: (l: Locator, name: string) => Promise<unknown[]>, named: boolean): void {
  const expr = named ? `I expect {quantifier} ${what} {text} of {target} {validation} {expected}` : `I expect {quantifier} ${what} of {target} {validation} {expected}`
  const fn = async function (this: any, q: Quantifier, ...rest: any[]) {
    const [name, t, v, expected] = (named ? rest : [undefined, ...rest]) as [string | undefined, Target, Validation, unknown]
    const l = locate(this, t)
    const label = name === undefined ? what : `${what} ${JSON.stringify(name)}`
    await checkCollection(this, q, `${q} ${label} of ${l} ${v.text} ${show(expected)}`, l, async () =>
      (await read(l, name ?? '')).map((value) => {
        const msg = check('it', value, v, expected)
        return msg === null ? null : show(value)
      }),
    )
  }
  Then(expr, { description, example }, step(fn as any))
}

property(
  'text',
  'Checks the text of every element a target matches (or, with "any", of one of them) with {validation}, whitespace collapsed as Playwright compares texts. (The texts as one list: "I expect the texts of ...".)',
  ['Then I expect every text of "#todo-list li" to match "^(Buy|Sell) "', 'Then I expect any text of "#todo-list li" to start with "Buy"', 'Then I expect every text of "#todo-list li" not to contain "error"'],
  (l) => textsOf(l),
  false,
)

property(
  'value',
  'Checks the value of every field a target matches (or, with "any", of one of them) with {validation}.',
  ['Then I expect every value of "#products input.qty" to be at least 0', 'Then I expect any value of "#products input.qty" to equal "2"', 'Then I expect every value of "#products input.qty" not to equal "5"'],
  (l) => l.evaluateAll((els: any[]) => els.map((el) => el.value)),
  false,
)

property(
  'attribute',
  'Checks an attribute of every element a target matches (or, with "any", of one of them); an element without it has null.',
  ['Then I expect every attribute "data-sku" of "#products li" to match "^F-\\d$"', 'Then I expect any attribute "class" of "#products li" to contain "sold-out"', 'Then I expect every attribute "data-sku" of "#products li" not to equal "X-1"'],
  (l, name) => l.evaluateAll((els: Element[], n: string) => els.map((el) => el.getAttribute(n)), name),
  true,
)

property(
  'CSS property',
  'Checks the computed value of a CSS property of every element a target matches (or, with "any", of one of them).',
  ['Then I expect every CSS property "display" of "#products li" to equal "list-item"', 'Then I expect any CSS property "color" of "#products li" not to equal "rgb(0, 0, 0)"'],
  (l, name) => l.evaluateAll((els: Element[], n: string) => els.map((el) => getComputedStyle(el).getPropertyValue(n)), name),
  true,
)

property(
  'property',
  'Checks a JavaScript property (value, checked, dataset.sku...) of every element a target matches (or, with "any", of one of them).',
  ['Then I expect every property "dataset.sku" of "#products li" to start with "F-"', 'Then I expect any property "disabled" of "#products button" to equal true'],
  (l, path) => l.evaluateAll((els: any[], p: string) => els.map((el) => p.split('.').reduce((o: any, k: string) => (o === null || o === undefined ? o : o[k]), el)), path),
  true,
)
