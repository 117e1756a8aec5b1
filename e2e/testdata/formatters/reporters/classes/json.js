const { JsonFormatter } = require('@cucumber/cucumber')

// Post-processes the JSON report, as cucumber-html-reporter users do.
module.exports = class ScenarioNames extends JsonFormatter {
  constructor(options) {
    super(options)
    const log = this.log
    this.log = (json) => {
      const features = JSON.parse(json)
      log(JSON.stringify(features.flatMap((f) => f.elements.map((e) => `${e.name}: ${e.steps.map((s) => s.result.status).join(' ')}`)), null, 1))
    }
  }
}
