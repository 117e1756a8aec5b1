// Page objects can also be written in TypeScript, with the library's API:
// a selector string, or a function of the page returning a locator.
import { definePage } from 'ferridriver/steps'

definePage('elements', {
  'Click me': (page) => page.getByRole('button', { name: 'Click me' }),
  Clicks: '#clicks',
})
