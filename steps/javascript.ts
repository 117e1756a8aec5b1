// JavaScript in the page: expressions evaluated in the page's main frame
// (a frame switched to does not change that). An expression that gives a
// function is called: "() => document.title" works too.
import { When, Then } from '@cucumber/cucumber'
import { interpolateString, remember } from './values'
import { step } from './step'
import { eventually, type Validation } from './validation'

When('I evaluate {text}', { description: 'Runs a JavaScript expression in the page (awaiting a promise it gives).', example: ['When I evaluate "localStorage.clear()"', 'When I evaluate "window.scrollTo(0, 0)"'] }, step(async function (js: string) {
  await this.page.evaluate(js)
}))

When('I evaluate:', { description: 'Runs the JavaScript of the doc string in the page ($name is replaced first).', example: 'When I evaluate:' }, step(async function (doc: string) {
  await this.page.evaluate(interpolateString(this, doc))
}))

When('I remember the result of {text} as {text}', { description: 'Evaluates a JavaScript expression in the page and remembers its value as $name.', example: 'When I remember the result of "document.title" as "title"' }, step(async function (js: string, name: string) {
  remember(this, name, await this.page.evaluate(js))
}))

Then(
  'I expect the result of {text} {validation} {expected}',
  { description: 'Evaluates a JavaScript expression in the page until its value passes the validation.', example: ['Then I expect the result of "document.querySelectorAll(\'li\').length" to equal 3', 'Then I expect the result of "navigator.language" to equal "fr-FR"'] },
  step(async function (js: string, v: Validation, expected: unknown) {
    await eventually(this, `the result of ${js}`, () => this.page.evaluate(js), v, expected)
  }),
)
