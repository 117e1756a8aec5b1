// Support code: the World every step gets as `this`.
//
// ferridriver gives every World a fresh browser context and page (this.page,
// this.context), an API request context (this.request) and the configured
// base URL (this.baseURL); the page is created the first time a step uses
// it, so API-only scenarios start no browser. The class below only adds
// what these steps share between them.
import { World, setWorldConstructor, setDefaultTimeout } from '@cucumber/cucumber'
import type { IWorldOptions } from '@cucumber/cucumber'
import type { APIRequestContext, APIResponse, BrowserContext, Page } from '@playwright/test'

export class DemoWorld extends World {
  // Provided by ferridriver for every test case.
  declare readonly page: Page
  declare readonly context: BrowserContext
  declare readonly request: APIRequestContext
  declare readonly baseURL: string | undefined

  /** The popup or new tab opened by the last step that opened one. */
  popup?: Page
  /** Dialogs the page showed, as "type: message". */
  dialogs: string[] = []
  /** The last API response (this.request). */
  response?: APIResponse
  /** The status of the last response the page waited for. */
  apiStatus?: number
  /** The id of the todo created through the API. */
  createdTodoId?: number

  constructor(options: IWorldOptions) {
    super(options)
  }

  /** The popup, or a clear error when no step opened one. */
  openedPopup(): Page {
    if (!this.popup) throw new Error('no popup was opened in this scenario')
    return this.popup
  }

  /** The last API response, or a clear error when there is none. */
  lastResponse(): APIResponse {
    if (!this.response) throw new Error('no API request was made in this scenario')
    return this.response
  }
}

setWorldConstructor(DemoWorld)

// A step that waits on the page (auto-waiting assertions, slow responses)
// may take a few seconds; cucumber-js's default of 5 s is tight for that.
setDefaultTimeout(15_000)
