// Waits, and `within N seconds, <step>`, which gives any assertion (a
// built-in one or the project's) N seconds to hold.
import { When, Then } from '@cucumber/cucumber'
import { runStep } from 'ferridriver'
import { Target } from './params'
import { step } from './step'
import { locate, rootOf } from './targets'
import { now, sleep, withAssertionTimeout } from './validation'

When('I wait {int} millisecond(s)', { timeout: -1, description: 'Pauses for a while (prefer waiting for what the page shows).', example: 'When I wait 500 milliseconds' }, step(async function (ms: number) {
  await sleep(ms)
}))

When('I wait {float} second(s)', { timeout: -1, description: 'Pauses for a while (prefer waiting for what the page shows).', example: ['When I wait 2 seconds', 'When I wait 0.5 seconds'] }, step(async function (s: number) {
  await sleep(s * 1000)
}))

When('I wait for the text {text}', { description: 'Waits until a visible element shows the text.', example: 'When I wait for the text "Saved"' }, step(async function (text: string) {
  await rootOf(this).getByText(text).filter({ visible: true }).first().waitFor({ state: 'visible' })
}, (text) => `the text ${JSON.stringify(text)}, to be visible`))

When('I wait for the text {text} to disappear', { description: 'Waits until no visible element shows the text.', example: 'When I wait for the text "Loading…" to disappear' }, step(async function (text: string) {
  await rootOf(this).getByText(text).filter({ visible: true }).first().waitFor({ state: 'hidden' })
}, (text) => `the text ${JSON.stringify(text)}, to disappear`))

for (const state of ['visible', 'hidden', 'attached', 'detached'] as const) {
  const what = {
    visible: 'is visible',
    hidden: 'is hidden or gone',
    attached: 'is in the page, visible or not',
    detached: 'is no longer in the page',
  }[state]
  When(
    `I wait for {target} to be ${state}`,
    { description: `Waits until an element ${what}.`, example: `When I wait for "#spinner" to be ${state}` },
    step(
      async function (t: Target) {
        await locate(this, t).waitFor({ state })
      },
      (t) => `${t}, to be ${state}`,
    ),
  )
}

When('I wait for the page to load', { description: 'Waits for the load event of the page.', example: 'When I wait for the page to load' }, step(async function () {
  await this.page.waitForLoadState('load')
}, () => 'the page to load'))

When('I wait for the network to be idle', { description: 'Waits until the page has made no request for 500 ms.', example: 'When I wait for the network to be idle' }, step(async function () {
  await this.page.waitForLoadState('networkidle')
}, () => 'the network to be idle'))

/** Extra time the step itself has beyond N seconds, to report the failure. */
const grace = 1000

Then(
  'within {float} second(s), {}',
  {
    timeout: -1,
    description: 'Runs another step (any assertion, built-in or the project\'s) until it passes, for up to N seconds: built-in assertions retry for N seconds instead of 5.',
    example: ['Then within 10 seconds, I expect the text of "#status" to equal "Done"', 'Then within 2 seconds, I expect "#toast" not to be visible'],
  },
  step(async function (seconds: number, inner: string) {
    const ms = seconds * 1000
    const deadline = now() + ms
    let last: unknown
    for (let attempt = 0; ; attempt++) {
      const left = deadline - now()
      let timer: any
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the step "${inner}" did not finish within ${seconds} second${seconds === 1 ? '' : 's'}`)), Math.max(left, 0) + grace)
      })
      const run = withAssertionTimeout(this, Math.max(left, 1), () => runStep(inner))
      run.catch(() => {}) // a run that outlives the deadline must not fail a later step
      try {
        await Promise.race([run, late])
        return
      } catch (e) {
        last = e
      } finally {
        clearTimeout(timer)
      }
      if (now() + 100 >= deadline) break
      await sleep(Math.min(250, deadline - now()))
    }
    if (last instanceof Error) {
      last.message = `within ${seconds} second${seconds === 1 ? '' : 's'}: ${last.message}`
      throw last
    }
    throw last
  }),
)
