import { Given, When } from '@cucumber/cucumber'

Given('I open {string}', { description: 'Opens a URL, relative to [browser] baseURL.', example: 'Given I open "/login"' }, async function (url: string) {
  await this.page.goto(url)
})

When('I go back', { description: 'Goes back in the browser history.', example: 'When I go back' }, async function () {
  await this.page.goBack()
})
