// The mouse at page coordinates (CSS pixels from the top left of the
// viewport), for canvases, maps and drawing areas that have no elements to
// name.
import { When } from '@cucumber/cucumber'
import { step } from './step'

When('I click at {int}, {int}', { description: 'Clicks at a point of the page.', example: 'When I click at 100, 200' }, step(async function (x: number, y: number) {
  await this.page.mouse.click(x, y)
}))

When('I double click at {int}, {int}', { description: 'Double-clicks at a point of the page.', example: 'When I double click at 100, 200' }, step(async function (x: number, y: number) {
  await this.page.mouse.dblclick(x, y)
}))

When('I move the mouse to {int}, {int}', { description: 'Moves the mouse to a point of the page.', example: 'When I move the mouse to 100, 200' }, step(async function (x: number, y: number) {
  await this.page.mouse.move(x, y)
}))

When('I press the mouse button', { description: 'Presses the left mouse button where the mouse is (and holds it).', example: 'When I press the mouse button' }, step(async function () {
  await this.page.mouse.down()
}))

When('I release the mouse button', { description: 'Releases the left mouse button.', example: 'When I release the mouse button' }, step(async function () {
  await this.page.mouse.up()
}))

When('I drag the mouse from {int}, {int} to {int}, {int}', { description: 'Presses the mouse at one point, moves it to another in steps and releases it there.', example: 'When I drag the mouse from 10, 10 to 200, 50' }, step(async function (x1: number, y1: number, x2: number, y2: number) {
  const m = this.page.mouse
  await m.move(x1, y1)
  await m.down()
  await m.move(x2, y2, { steps: 10 })
  await m.up()
}))

When('I scroll the mouse wheel by {int}, {int}', { description: 'Turns the mouse wheel (horizontal and vertical pixels) where the mouse is.', example: 'When I scroll the mouse wheel by 0, 300' }, step(async function (dx: number, dy: number) {
  await this.page.mouse.wheel(dx, dy)
}))
