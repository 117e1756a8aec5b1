// A formatter plugin (cucumber-js 11+): counts the step results and the
// envelopes, with its own options under "counts".
module.exports = {
  type: 'formatter',
  optionsKey: 'counts',
  formatter({ on, write, options }) {
    const statuses = {}
    let envelopes = 0
    on('message', (envelope) => {
      envelopes++
      if (envelope.testStepFinished) {
        const status = envelope.testStepFinished.testStepResult.status
        statuses[status] = (statuses[status] || 0) + 1
      }
      if (envelope.testRunFinished) {
        for (const status of Object.keys(statuses).sort()) write(`${options.prefix}${status} ${statuses[status]}\n`)
      }
    })
    return async () => {
      write(`${options.prefix}done\n`)
    }
  },
}
