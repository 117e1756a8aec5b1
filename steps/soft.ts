// Soft assertions (qavajs' "softly"): `Then I softly expect ...` runs the
// assertion `I expect ...` (any one, built-in or the project's); when it
// fails, the failure is kept, attached to the step, and the scenario goes
// on. After the scenario's last step the kept failures fail that step,
// every one listed with its line, so a scenario checks everything once and
// reports all that is wrong.
import { Then, AfterStep } from '@cucumber/cucumber'
import type { ITestStepHookParameter } from '@cucumber/cucumber'
import { runStep } from 'ferridriver'
import { relocate, stepLocation } from './scenario'
import { step } from './step'
import { AssertionError } from './validation'
import { stateOf, type StepWorld } from './world'

interface SoftFailure {
  where: string
  step: string
  message: string
}

const kept = new WeakMap<object, SoftFailure[]>()

/** The soft failures a World's scenario has kept so far. */
export function softFailures(world: object): SoftFailure[] {
  return stateOf(kept, world, () => [])
}

Then(
  'I softly expect {}',
  {
    description: 'Runs an assertion ("I expect ...") softly: when it fails, the scenario goes on, and its last step fails with every soft failure of the scenario.',
    example: ['Then I softly expect the text of "h1" to equal "Catalogue"', 'Then I softly expect the response status to equal 200', 'Then I softly expect "$total" to be greater than 3'],
  },
  step(async function (this: StepWorld, rest: string, arg?: unknown) {
    const inner = 'I expect ' + rest
    try {
      await (arg === undefined ? runStep(inner) : runStep(inner, arg as any))
    } catch (e: any) {
      const message = e instanceof Error ? e.message : String(e)
      const where = stepLocation(this)
      softFailures(this).push({ where, step: inner, message })
      const text = `Soft assertion failed at ${where}: ${inner}\n${message}`
      this.log(text)
    }
  }),
)

const indent = (s: string) => s.replace(/\n/g, '\n     ')

AfterStep(function (this: object, arg: ITestStepHookParameter) {
  const steps = arg.pickle.steps
  if (steps[steps.length - 1]?.id !== arg.pickleStep.id) return
  const list = kept.get(this)
  if (!list || list.length === 0) return
  kept.delete(this)
  if (arg.result?.status === 'FAILED') return // its own failure is reported; the soft ones are logged
  const lines = list.map((f, i) => `  ${i + 1}) ${f.step}\n     at ${f.where}\n     ${indent(f.message)}`)
  throw relocate(this, new AssertionError(`${list.length} soft assertion${list.length === 1 ? '' : 's'} failed:\n${lines.join('\n')}`))
})
