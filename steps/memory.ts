// The memory's steps: remembering what the page shows (and values written
// in the feature) as `$name`, and checking remembered values. The memory
// itself, interpolation and the other places `$name` is looked up are in
// values.ts, re-exported here.
import { When, Then, DataTable } from '@cucumber/cucumber'
import { Target } from './params'
import { step } from './step'
import { locate, normalize, textsOf } from './targets'
import { interpolateRows, interpolateString, remember } from './values'
import { show, verify, type Validation } from './validation'

export * from './values'

When('I remember {text} as {text}', { description: 'Remembers a value (text, or a $name to copy) as $name.', example: ['When I remember "demo" as "user"', 'When I remember "$uuid" as "id"'] }, step(function (value: string, name: string) {
  remember(this, name, value)
}))

When(
  'I remember the following as {text}:',
  { description: 'Remembers the doc string as $name: parsed when it is JSON (then $name.field reads into it), else as text.', example: 'When I remember the following as "todo":' },
  step(function (name: string, doc: string) {
    const text = interpolateString(this, doc)
    let value: unknown = text
    try {
      value = JSON.parse(text)
    } catch {
      // not JSON: the text itself
    }
    remember(this, name, value)
  }),
)

When('I remember the values:', { description: 'Remembers several values, one per row: name | value.', example: 'When I remember the values:' }, step(function (table: DataTable) {
  for (const [name, value] of interpolateRows(this, table.raw())) remember(this, name, value)
}))

When('I remember the text of {target} as {text}', { description: "Remembers an element's text (whitespace collapsed) as $name.", example: 'When I remember the text of "h1" as "heading"' }, step(async function (t: Target, name: string) {
  remember(this, name, normalize(await locate(this, t).textContent()))
}))

When('I remember the value of {target} as {text}', { description: 'Remembers the value of a field as $name.', example: 'When I remember the value of "User" as "user"' }, step(async function (t: Target, name: string) {
  remember(this, name, await locate(this, t).inputValue())
}))

When('I remember the attribute {text} of {target} as {text}', { description: 'Remembers an attribute of an element (null when absent) as $name.', example: 'When I remember the attribute "href" of "Docs" as "link"' }, step(async function (attr: string, t: Target, name: string) {
  remember(this, name, await locate(this, t).getAttribute(attr))
}))

When('I remember the count of {target} as {text}', { description: 'Remembers how many elements a target matches as $name.', example: 'When I remember the count of "li" as "before"' }, step(async function (t: Target, name: string) {
  remember(this, name, await locate(this, t).count())
}))

When('I remember the texts of {target} as {text}', { description: 'Remembers the texts of every element a target matches, a list, as $name ($name.0 is the first).', example: 'When I remember the texts of "li" as "items"' }, step(async function (t: Target, name: string) {
  remember(this, name, await textsOf(locate(this, t)))
}))

When('I remember the URL as {text}', { description: "Remembers the page's URL as $name.", example: 'When I remember the URL as "start"' }, step(function (name: string) {
  remember(this, name, this.page.url())
}))

When('I remember the title as {text}', { description: "Remembers the page's title as $name.", example: 'When I remember the title as "title"' }, step(async function (name: string) {
  remember(this, name, await this.page.title())
}))

Then(
  'I expect {expected} {validation} {expected}',
  { description: 'Checks a value: typically a remembered $name (with .field paths, keeping its type), compared with {validation}.', example: ['Then I expect "$user" to equal "demo"', 'Then I expect "$before" to be less than "$after"', 'Then I expect "$items" to contain "Buy milk"'] },
  step(function (value: unknown, v: Validation, expected: unknown) {
    verify(show(value), value, v, expected)
  }),
)

When('I log {text}', { description: 'Writes a line (with $name replaced) to the report, for debugging.', example: 'When I log "the user is $user"' }, step(function (text: string) {
  this.log(text)
}))

