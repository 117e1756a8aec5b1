// Repeating an action until a condition holds (qavajs' "refresh page
// until", "click until"): the action, then the condition (any assertion
// step, built-in or the project's, run by its text), again and again until
// the condition passes or the assertion timeout (5 s, or the N of `within N
// seconds, ...`) is spent:
//
//   When I reload the page until I expect the text of "#status" to equal "Ready"
//   When I click "Check again" until the text of "#stock" to equal "In stock"
//
// The condition may leave out "I expect " (qavajs writes it so).
import { When } from '@cucumber/cucumber'
import { runStep } from 'ferridriver'
import { Target } from './params'
import { step } from './step'
import { locate } from './targets'
import { assertionBudget, AssertionError, now, withAssertionTimeout } from './validation'
import type { StepWorld } from './world'

/** The longest a condition is given to hold after each action. */
const checkMs = 1000

/** The least time left for another action and check. */
const minRound = 250

/** The step text of a condition: "I expect ..." as written, or with "I expect " put in front. */
export function conditionStep(text: string): string {
  const t = text.trim()
  return /^I\s/.test(t) ? t : 'I expect ' + t
}

/**
 * Runs act, then the condition, until the condition passes or the world's
 * assertion time is spent; the failure is the condition's last one, with
 * how many times the action ran.
 */
export async function repeatUntil(world: StepWorld, doing: string, act: () => Promise<void>, condition: string, arg?: unknown): Promise<void> {
  const inner = conditionStep(condition)
  const budget = assertionBudget(world)
  const deadline = now() + budget
  let times = 0
  let last: unknown
  let actionFailed = ''
  for (;;) {
    try {
      await act()
    } catch (e) {
      // The first action's failure is the step's; a later one (out of
      // time, say) ends the repeats with the condition's failure.
      if (times === 0) throw e
      actionFailed = `\n(the next action failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)})`
      break
    }
    times++
    const left = deadline - now()
    try {
      await withAssertionTimeout(world, Math.max(1, Math.min(checkMs, left)), () => (arg === undefined ? runStep(inner) : runStep(inner, arg as any)))
      return
    } catch (e) {
      last = e
    }
    if (deadline - now() < minRound) break
  }
  const why = last instanceof Error ? last.message : String(last)
  throw new AssertionError(`${doing} ${times} time${times === 1 ? '' : 's'} in ${budget}ms did not make "${inner}" pass; its last failure:\n${why}${actionFailed}`)
}

When(
  'I reload the page until {}',
  {
    description: 'Reloads the page until a condition holds: any assertion step ("I expect ..." may be shortened to what follows it), checked after each reload, for the assertion timeout (5 s; `within N seconds, ...` gives more).',
    example: ['When I reload the page until I expect the text of "#report-status" to equal "The report is ready"', 'When I reload the page until the text of "#report-status" to contain "ready"'],
  },
  step(async function (condition: string, arg?: unknown) {
    await repeatUntil(this, 'Reloading the page', async () => {
      await this.page.reload()
    }, condition, arg)
  }),
)

When(
  'I click {target} until {}',
  {
    description: 'Clicks an element until a condition holds: any assertion step ("I expect ..." may be shortened to what follows it), checked after each click, for the assertion timeout.',
    example: ['When I click "#check-stock" until I expect the text of "#stock" to equal "In stock"', 'When I click "#check-stock" until the text of "#stock" to equal "In stock"'],
  },
  step(async function (t: Target, condition: string, arg?: unknown) {
    const l = locate(this, t)
    await repeatUntil(this, `Clicking ${t}`, () => l.click(), condition, arg)
  }),
)
