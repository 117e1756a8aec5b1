import { Given, Then } from '@cucumber/cucumber'
import { expect } from '@playwright/test'
import type { Dialog } from '@playwright/test'
import type { DemoWorld } from './world'

Given('I open the dialogs page', async function (this: DemoWorld) {
  await this.page.goto('/dialogs.html')
})

// A dialog blocks the page until it is answered, so the handler is
// registered before the click that opens it.
function answerNextDialog(world: DemoWorld, answer: (dialog: Dialog) => Promise<void>) {
  world.page.once('dialog', async (dialog) => {
    world.dialogs.push(`${dialog.type()}: ${dialog.message()}`)
    await answer(dialog)
  })
}

Given('I will accept the next dialog', function (this: DemoWorld) {
  answerNextDialog(this, (dialog) => dialog.accept())
})

Given('I will dismiss the next dialog', function (this: DemoWorld) {
  answerNextDialog(this, (dialog) => dialog.dismiss())
})

Given('I will answer {string} to the next prompt', function (this: DemoWorld, answer: string) {
  answerNextDialog(this, (dialog) => dialog.accept(answer))
})

Then('a {string} dialog said {string}', function (this: DemoWorld, type: string, message: string) {
  expect(this.dialogs).toContain(`${type}: ${message}`)
})

Then('the dialog result reads {string}', async function (this: DemoWorld, result: string) {
  await expect(this.page.getByTestId('dialog-result')).toHaveText(result)
})
