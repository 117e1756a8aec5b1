// The World: `this` in every step and hook. ferridriver gives each test
// case a fresh browser context and page: this.page, this.context,
// this.request (HTTP calls honouring baseURL) and this.baseURL. Add here
// what your steps share within a scenario.
import { World, setDefaultTimeout, setWorldConstructor } from '@cucumber/cucumber'
import type { IWorldOptions } from '@cucumber/cucumber'

export class CustomWorld extends World {
  /** The todos added in this scenario. */
  todos: string[] = []

  constructor(options: IWorldOptions) {
    super(options)
  }
}

setWorldConstructor(CustomWorld)

// Browser steps wait for the page (navigations, auto-waiting assertions up
// to 5 s each); cucumber-js's default step timeout of 5 s is tight for that.
setDefaultTimeout(30_000)
