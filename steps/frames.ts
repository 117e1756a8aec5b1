// Frames: after `I switch to the frame "..."`, every target is looked up
// inside that iframe (nested switches go deeper) until I switch back.
import { When } from '@cucumber/cucumber'
import { Target } from './params'
import { step } from './step'
import { frameStack, locateFrame } from './targets'

When(
  'I switch to the frame {target}',
  { description: 'Looks up the next steps\' targets inside an iframe (a page-object name or a selector of the <iframe>).', example: ['When I switch to the frame "#editor"', `When I switch to the frame 'iframe[title="Payment"]'`] },
  step(async function (t: Target) {
    const frame = locateFrame(this, t)
    await frame.owner().waitFor({ state: 'attached' })
    frameStack(this).push(frame)
  }),
)

When('I switch to the parent frame', { description: 'Goes back out of the innermost frame switched to.', example: 'When I switch to the parent frame' }, step(async function () {
  if (frameStack(this).pop() === undefined) throw new Error('no frame was switched to')
}))

When('I switch to the main frame', { description: 'Looks up targets in the page again, out of every frame.', example: 'When I switch to the main frame' }, step(async function () {
  frameStack(this).length = 0
}))
