// ferridriver's entry to the Playwright driver (playwright-core's cli.js,
// whose directory is written into REAL below when this file is installed).
//
// When a call fails, Playwright's server sends its call log ("waiting for
// locator(...)", "element is not visible", "retrying click action") next
// to the error; Playwright's own client appends it to the error's message
// under "Call log:", but playwright-go, which ferridriver speaks to the
// driver with, drops it. This entry folds the log into the message before
// the reply is written, then runs the driver unchanged. Should the
// driver's insides differ (another version), the driver runs as it is.
'use strict'
const path = require('path')
const REAL = __REAL__

try {
  const { DispatcherConnection } = require(path.join(REAL, 'lib', 'server', 'dispatchers', 'dispatcher.js'))
  const withLog = (send) => (message) => {
    const error = message && message.error && message.error.error
    if (error && typeof error.message === 'string' && Array.isArray(message.log) && message.log.some((l) => !!l)) {
      error.message += '\nCall log:\n' + message.log.join('\n') + '\n'
    }
    return send(message)
  }
  Object.defineProperty(DispatcherConnection.prototype, 'onmessage', {
    configurable: true,
    get() {
      return this.__ferridriverOnmessage
    },
    set(send) {
      this.__ferridriverOnmessage = typeof send === 'function' ? withLog(send) : send
    },
  })
} catch (e) {
  // Another driver layout: run it without the call log.
}

require(path.join(REAL, 'cli.js'))
