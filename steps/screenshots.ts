// Screenshots, attached to the step in the report (image/png).
import { When } from '@cucumber/cucumber'
import { Target } from './params'
import { step } from './step'
import { locate } from './targets'

When('I take a screenshot', { description: 'Attaches a PNG of the viewport to the report.', example: 'When I take a screenshot' }, step(async function () {
  await this.attach(await this.page.screenshot(), { mediaType: 'image/png', fileName: 'screenshot.png' })
}))

When('I take a screenshot named {text}', { description: 'Attaches a PNG of the viewport to the report under a name.', example: 'When I take a screenshot named "cart"' }, step(async function (name: string) {
  await this.attach(await this.page.screenshot(), { mediaType: 'image/png', fileName: name.endsWith('.png') ? name : name + '.png' })
}))

When('I take a full page screenshot', { description: 'Attaches a PNG of the whole page, beyond the viewport.', example: 'When I take a full page screenshot' }, step(async function () {
  await this.attach(await this.page.screenshot({ fullPage: true }), { mediaType: 'image/png', fileName: 'full-page.png' })
}))

When('I take a screenshot of {target}', { description: 'Attaches a PNG of one element.', example: 'When I take a screenshot of "#chart"' }, step(async function (t: Target) {
  await this.attach(await locate(this, t).screenshot(), { mediaType: 'image/png', fileName: 'element.png' })
}))
