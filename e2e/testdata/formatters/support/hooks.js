// Hooks that use formatterHelpers as real suites do: to name the scenario
// and where it is, from the hook's gherkinDocument and pickle.
const fs = require('fs')
const path = require('path')
const { Before, After, formatterHelpers } = require('@cucumber/cucumber')

const { PickleParser, GherkinDocumentParser, formatLocation, parseTestCaseAttempt, getStepKeywordType, isFailure, isWarning } = formatterHelpers
const log = path.join('reports', 'hooks.log')

function append(line) {
  fs.mkdirSync(path.dirname(log), { recursive: true })
  fs.appendFileSync(log, line + '\n')
}

Before({ name: 'name the scenario' }, function ({ gherkinDocument, pickle }) {
  const location = PickleParser.getPickleLocation({ gherkinDocument, pickle })
  const gherkinStepMap = GherkinDocumentParser.getGherkinStepMap(gherkinDocument)
  const rule = GherkinDocumentParser.getGherkinExampleRuleMap(gherkinDocument)[pickle.astNodeIds[0]]
  const scenario = GherkinDocumentParser.getGherkinScenarioMap(gherkinDocument)[pickle.astNodeIds[0]]
  let previous
  const kinds = pickle.steps.map((pickleStep) => {
    const keyword = PickleParser.getStepKeyword({ pickleStep, gherkinStepMap })
    previous = getStepKeywordType({ keyword, language: gherkinDocument.feature.language, previousKeywordType: previous })
    return keyword.trim() + ':' + previous
  })
  append(`before ${scenario.keyword} "${pickle.name}" at ${formatLocation({ uri: pickle.uri, line: location.line })}` +
    `${rule ? ` in rule "${rule.name}"` : ''}: ${kinds.join(' ')}`)
})

After(function ({ gherkinDocument, pickle, result }) {
  const pickleStepMap = PickleParser.getPickleStepMap(pickle)
  const testCaseAttempt = {
    gherkinDocument,
    pickle,
    testCase: { pickleId: pickle.id, testSteps: pickle.steps.map((s) => ({ id: s.id, pickleStepId: s.id, stepDefinitionIds: [] })) },
    attempt: 0,
    stepAttachments: {},
    stepResults: {},
    worstTestStepResult: result,
    willBeRetried: false,
  }
  const parsed = parseTestCaseAttempt({ testCaseAttempt, snippetBuilder: null, supportCodeLibrary: { stepDefinitions: [] } })
  const steps = parsed.testSteps.map((s) => `${s.keyword}${s.text}@${s.sourceLocation.line}${s.argument ? '+arg' : ''}`)
  append(`after "${parsed.testCase.name}" at line ${parsed.testCase.sourceLocation.line}` +
    ` (${Object.keys(pickleStepMap).length} steps; failure ${isFailure(result)}, warning ${isWarning(result)}): ${steps.join(' | ')}`)
})
