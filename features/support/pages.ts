// Page objects can also be written in TypeScript, with the library's API:
// a selector string, or a function of the page returning a locator.
import { definePage } from 'ferridriver/steps'

definePage('elements', {
  'Click me': (page) => page.getByRole('button', { name: 'Click me' }),
  Clicks: '#clicks',
})

// A parameterised element in TypeScript: the function gets the values of
// the name's placeholders ("Price (Bread)").
definePage('catalogue prices', {
  'Price ({product})': (page, { product }) => page.locator('#products li', { hasText: product }).locator('.price'),
})
