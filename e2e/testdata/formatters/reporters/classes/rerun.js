const { RerunFormatter } = require('@cucumber/cucumber')

module.exports = class FailuresFile extends RerunFormatter {
  logFailedTestCases() {
    this.log(`# failures\n${this.formatFailedTestCases()}\n`)
  }
}
