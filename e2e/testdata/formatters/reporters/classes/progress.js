// Subclasses of the formatter classes @cucumber/cucumber exports, each a
// little changed, as teams extend them.
const { ProgressFormatter } = require('@cucumber/cucumber')

module.exports = class DottedProgress extends ProgressFormatter {
  logProgress(testStepFinished) {
    if (testStepFinished.testStepResult.status !== 'PASSED') super.logProgress(testStepFinished)
  }
}
