const { UsageFormatter } = require('@cucumber/cucumber')

module.exports = class Usage extends UsageFormatter {
  logUsage() {
    this.log('step usage:\n')
    super.logUsage()
  }
}
