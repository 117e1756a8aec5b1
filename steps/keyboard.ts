// The keyboard: keys and text sent to the focused element (or to an
// element). Keys are Playwright's names: Enter, Tab, ArrowDown, Escape,
// a, A, Control+a, Shift+Tab, ControlOrMeta+c...
import { When } from '@cucumber/cucumber'
import { Target } from './params'
import { step } from './step'
import { locate } from './targets'

When('I press {text}', { description: 'Presses a key (or a combination such as Control+a) on the focused element.', example: ['When I press "Enter"', 'When I press "Control+a"'] }, step(async function (key: string) {
  await this.page.keyboard.press(key)
}))

When('I press {text} on {target}', { description: 'Focuses an element and presses a key on it.', example: ['When I press "Enter" on "#search"', `When I press "Tab" on 'role=textbox[name="User"]'`] }, step(async function (key: string, t: Target) {
  await locate(this, t).press(key)
}))

When('I press {text} {int} times', { description: 'Presses a key several times.', example: 'When I press "ArrowDown" 3 times' }, step(async function (key: string, n: number) {
  for (let i = 0; i < n; i++) await this.page.keyboard.press(key)
}))

When('I type {text}', { description: 'Types text key by key into the focused element.', example: 'When I type "hello"' }, step(async function (text: string) {
  await this.page.keyboard.type(text)
}))

When('I hold down {text}', { description: 'Holds a key down (until I release it): Shift for a range selection, for instance.', example: 'When I hold down "Shift"' }, step(async function (key: string) {
  await this.page.keyboard.down(key)
}))

When('I release {text}', { description: 'Releases a key held down.', example: 'When I release "Shift"' }, step(async function (key: string) {
  await this.page.keyboard.up(key)
}))
