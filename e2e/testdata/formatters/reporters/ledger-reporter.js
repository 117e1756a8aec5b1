// A custom formatter as teams write them: a Formatter subclass that logs
// one block per test case to its --format file and writes a second file
// of its own when the run ends.
const fs = require('fs')
const path = require('path')
const { Formatter, formatterHelpers, Status } = require('@cucumber/cucumber')

const { parseTestCaseAttempt, PickleParser, formatLocation, getUsage, isIssue } = formatterHelpers

class LedgerReporter extends Formatter {
  static documentation = 'One block per test case, and the step usage as JSON'

  constructor(options) {
    super(options)
    this.issues = 0
    options.eventBroadcaster.on('envelope', (envelope) => {
      if (envelope.testCaseFinished) this.onTestCaseFinished(envelope.testCaseFinished)
      if (envelope.testRunFinished) this.onTestRunFinished(envelope.testRunFinished)
    })
  }

  onTestCaseFinished({ testCaseStartedId, willBeRetried }) {
    const attempt = this.eventDataCollector.getTestCaseAttempt(testCaseStartedId)
    const parsed = parseTestCaseAttempt({
      testCaseAttempt: attempt,
      snippetBuilder: this.snippetBuilder,
      supportCodeLibrary: this.supportCodeLibrary,
    })
    const location = PickleParser.getPickleLocation(attempt)
    if (isIssue(attempt.worstTestStepResult)) this.issues++
    this.log(`${attempt.pickle.name} (${formatLocation({ uri: attempt.pickle.uri, line: location.line })}): ${attempt.worstTestStepResult.status}${willBeRetried ? ' retried' : ''}\n`)
    for (const step of parsed.testSteps) {
      const where = step.actionLocation ? ' # ' + formatLocation(step.actionLocation) : ''
      const name = step.name ? ` (${step.name})` : ''
      this.log(`  ${step.keyword}${step.text || ''}${name}: ${step.result.status}${where}\n`)
      for (const a of step.attachments) this.log(`    attachment ${a.mediaType}: ${a.body}\n`)
      if (step.result.status === Status.UNDEFINED) this.log(step.snippet.replace(/^/gm, '    ') + '\n')
    }
  }

  onTestRunFinished({ success }) {
    const usage = getUsage({ stepDefinitions: this.supportCodeLibrary.stepDefinitions, eventDataCollector: this.eventDataCollector })
    const summary = usage.map((u) => ({
      pattern: u.pattern,
      patternType: u.patternType,
      location: formatLocation(u),
      matches: u.matches.map((m) => `${m.text} @ ${formatLocation(m)}`).sort(),
    })).sort((a, b) => (a.location < b.location ? -1 : 1))
    fs.mkdirSync(path.join(this.cwd, 'reports'), { recursive: true })
    fs.writeFileSync(path.join(this.cwd, 'reports', 'usage-by-reporter.json'), JSON.stringify(summary, null, 2) + '\n')
    this.log(`${this.issues} issues; success ${success}\n`)
  }
}

module.exports = LedgerReporter
