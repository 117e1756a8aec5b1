// JavaScript dialogs (alert, confirm, prompt, beforeunload). A dialog
// blocks the page until it is answered, so the answer is given ahead: a
// step arms it before the action that opens the dialog. Unarmed dialogs
// are dismissed (as Playwright does), or accepted after "I accept every
// dialog". Every dialog's type and message are kept for the checks.
import { When, Then } from '@cucumber/cucumber'
import type { Dialog } from '@playwright/test'
import { step } from './step'
import { eventually, type Validation } from './validation'
import { onNewContext, stateOf, type StepWorld } from './world'

type Answer = { accept: boolean; text?: string }

interface DialogState {
  /** Answers armed for the next dialogs, in order. */
  next: Answer[]
  /** The answer to a dialog nothing was armed for. */
  otherwise: Answer
  /** The dialogs seen, oldest first. */
  seen: Array<{ type: string; message: string }>
}

const states = new WeakMap<object, DialogState>()

/** The World's dialog state: made, with its context's listener, on first use. */
function dialogs(world: StepWorld): DialogState {
  return stateOf(states, world, () => {
    const st: DialogState = { next: [], otherwise: { accept: false }, seen: [] }
    listen(world, st)
    return st
  })
}

function listen(world: StepWorld, st: DialogState): void {
  world.context.on('dialog', async (d: Dialog) => {
    st.seen.push({ type: d.type(), message: d.message() })
    const a = st.next.shift() ?? (d.type() === 'beforeunload' ? { accept: true } : st.otherwise)
    if (a.accept) await d.accept(a.text)
    else await d.dismiss()
  })
}

onNewContext((world) => {
  const st = states.get(world)
  if (st) listen(world, st)
})

When('I accept the next dialog', { description: 'Accepts the next alert, confirm or prompt (arm it before the action that opens it).', example: 'When I accept the next dialog' }, step(async function () {
  dialogs(this).next.push({ accept: true })
}))

When('I dismiss the next dialog', { description: 'Dismisses (cancels) the next dialog (arm it before the action that opens it).', example: 'When I dismiss the next dialog' }, step(async function () {
  dialogs(this).next.push({ accept: false })
}))

When('I accept the next prompt with {text}', { description: 'Answers the next prompt with a text (arm it before the action that opens it).', example: 'When I accept the next prompt with "Ada"' }, step(async function (text: string) {
  dialogs(this).next.push({ accept: true, text })
}))

When('I accept every dialog', { description: 'Accepts every dialog that no step armed an answer for (they are dismissed otherwise).', example: 'When I accept every dialog' }, step(async function () {
  dialogs(this).otherwise = { accept: true }
}))

When('I dismiss every dialog', { description: 'Dismisses every dialog that no step armed an answer for (the default).', example: 'When I dismiss every dialog' }, step(async function () {
  dialogs(this).otherwise = { accept: false }
}))

function last(world: StepWorld): { type: string; message: string } {
  const st = states.get(world)
  if (!st) throw new Error('no dialog step ran in this scenario: arm an answer ("When I accept the next dialog") before the action that opens the dialog')
  const d = st.seen[st.seen.length - 1]
  if (!d) throw new Error('no dialog was shown yet')
  return d
}

Then(
  'I expect the message of the last dialog {validation} {expected}',
  { description: 'Checks the message of the last dialog the page showed (waiting for one).', example: ['Then I expect the message of the last dialog to equal "Are you sure?"', 'Then I expect the message of the last dialog to contain "sure"'] },
  step(async function (v: Validation, expected: unknown) {
    await eventually(this, 'the message of the last dialog', async () => last(this).message, v, expected)
  }),
)

Then(
  'I expect the type of the last dialog {validation} {expected}',
  { description: 'Checks the type of the last dialog: alert, confirm, prompt or beforeunload.', example: 'Then I expect the type of the last dialog to equal "confirm"' },
  step(async function (v: Validation, expected: unknown) {
    await eventually(this, 'the type of the last dialog', async () => last(this).type, v, expected)
  }),
)

Then(
  'I expect the number of dialogs {validation} {expected}',
  { description: 'Checks how many dialogs the page showed since the first dialog step.', example: 'Then I expect the number of dialogs to equal 2' },
  step(async function (v: Validation, expected: unknown) {
    await eventually(this, 'the number of dialogs', async () => (states.get(this)?.seen.length ?? 0), v, expected)
  }),
)
