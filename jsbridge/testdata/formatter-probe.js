// Calls the formatter API of @cucumber/cucumber with the envelopes of CCK
// samples and returns what it answers, as JSON-able data. The same file
// runs on cucumber-js 13 in Node and in ferridriver's VM
// (formatter_test.go); the answers must be equal.
module.exports = async function probe(cucumber, EventEmitter, samples) {
  const { formatterHelpers: h, Status } = cucumber
  const out = { exports: Object.keys(cucumber).sort() }

  // Colours made visible, so that what is coloured is compared too.
  const colorFns = {
    forStatus: (status) => (text) => `<${status}>${text}</${status}>`,
    location: (text) => `<loc>${text}</loc>`,
    tag: (text) => `<tag>${text}</tag>`,
    diffAdded: (text) => `<add>${text}</add>`,
    diffRemoved: (text) => `<rm>${text}</rm>`,
    errorMessage: (text) => `<err>${text}</err>`,
    errorStack: (text) => `<stack>${text}</stack>`,
  }
  const snippetBuilder = { build: ({ keywordType, pickleStep }) => `snippet(${keywordType}) for ${pickleStep.text}` }

  // The support code library of a stream, as a formatter reads it.
  function libraryOf(envelopes) {
    class CucumberExpression {
      constructor(source) { this.source = source }
    }
    class RegularExpression {
      constructor(source) { this.source = source }
    }
    const lib = { stepDefinitions: [], beforeTestCaseHookDefinitions: [], afterTestCaseHookDefinitions: [] }
    for (const e of envelopes) {
      if (e.stepDefinition) {
        const d = e.stepDefinition
        const Expr = d.pattern.type === 'REGULAR_EXPRESSION' ? RegularExpression : CucumberExpression
        lib.stepDefinitions.push({
          id: d.id, uri: d.sourceReference.uri, line: d.sourceReference.location.line,
          unwrappedCode: { toString: () => 'code of ' + d.id }, expression: new Expr(d.pattern.source),
        })
      }
      if (e.hook && (e.hook.type === 'BEFORE_TEST_CASE' || e.hook.type === 'AFTER_TEST_CASE')) {
        const list = e.hook.type === 'BEFORE_TEST_CASE' ? lib.beforeTestCaseHookDefinitions : lib.afterTestCaseHookDefinitions
        list.push({ id: e.hook.id, uri: e.hook.sourceReference.uri, line: e.hook.sourceReference.location.line, name: e.hook.name })
      }
    }
    return lib
  }

  out.samples = {}
  for (const [name, envelopes] of Object.entries(samples)) {
    const r = {}
    const supportCodeLibrary = libraryOf(envelopes)
    const broadcaster = new EventEmitter()
    const eventDataCollector = new h.EventDataCollector(broadcaster)
    // The formatter classes, each logging to its own list.
    const logs = {}
    for (const cls of ['SummaryFormatter', 'ProgressFormatter', 'RerunFormatter', 'SnippetsFormatter']) {
      logs[cls] = []
      new cucumber[cls]({
        colorFns, cwd: '/project', eventBroadcaster: broadcaster, eventDataCollector, log: (s) => logs[cls].push(s),
        parsedArgvOptions: cls === 'RerunFormatter' ? { rerun: { separator: ' ' } } : {}, snippetBuilder, stream: null,
        cleanup: async () => {}, supportCodeLibrary,
      })
    }
    for (const e of envelopes) broadcaster.emit('envelope', e)
    r.logs = logs

    const attempts = eventDataCollector.getTestCaseAttempts()
    r.attempts = attempts.map((a) => ({
      name: a.pickle.name, attempt: a.attempt, willBeRetried: a.willBeRetried, worst: a.worstTestStepResult.status,
      results: Object.values(a.stepResults).map((s) => s.status),
      attachments: Object.values(a.stepAttachments).map((list) => list.length),
    }))
    r.parsed = attempts.map((testCaseAttempt) => h.parseTestCaseAttempt({ testCaseAttempt, snippetBuilder, supportCodeLibrary }))
    r.issues = attempts.map((testCaseAttempt, i) => h.formatIssue({ colorFns, number: i + 1, snippetBuilder, testCaseAttempt, supportCodeLibrary, printAttachments: i % 2 === 0 }))
    r.summary = h.formatSummary({ colorFns, testCaseAttempts: attempts, testRunDuration: { seconds: 65, nanos: 123456789 } })
    r.usage = h.getUsage({ stepDefinitions: supportCodeLibrary.stepDefinitions, eventDataCollector })
    r.pickles = attempts.map(({ gherkinDocument, pickle }) => {
      const gherkinStepMap = h.GherkinDocumentParser.getGherkinStepMap(gherkinDocument)
      const gherkinScenarioMap = h.GherkinDocumentParser.getGherkinScenarioMap(gherkinDocument)
      const rule = h.GherkinDocumentParser.getGherkinExampleRuleMap(gherkinDocument)[pickle.astNodeIds[0]]
      let previousKeywordType
      return {
        location: h.PickleParser.getPickleLocation({ gherkinDocument, pickle }),
        description: h.PickleParser.getScenarioDescription({ pickle, gherkinScenarioMap }),
        steps: Object.keys(h.PickleParser.getPickleStepMap(pickle)).length,
        rule: rule ? rule.name : null,
        locations: Object.keys(h.GherkinDocumentParser.getGherkinScenarioLocationMap(gherkinDocument)).length,
        keywords: pickle.steps.map((pickleStep) => {
          const keyword = h.PickleParser.getStepKeyword({ pickleStep, gherkinStepMap })
          previousKeywordType = h.getStepKeywordType({ keyword, language: gherkinDocument.feature.language, previousKeywordType })
          return keyword + previousKeywordType
        }),
      }
    })
    out.samples[name] = r
  }

  const statuses = Object.values(Status)
  out.statuses = statuses
  out.issueKinds = statuses.flatMap((status) => [false, true].map((retried) =>
    [status, retried, h.isFailure({ status }, retried), h.isWarning({ status }, retried), h.isIssue({ status })].join(' ')))
  out.keywordTypes = [
    ['Given ', 'en'], ['When ', 'en'], ['Then ', 'en'], ['And ', 'en', 'event'], ['But ', 'en'], ['* ', 'en', 'outcome'],
    ['Quand ', 'fr'], ['Alors ', 'fr'], ['Et ', 'fr', 'outcome'], ['Angenommen ', 'de'], ['Dann ', 'de'],
  ].map(([keyword, language, previousKeywordType]) => h.getStepKeywordType({ keyword, language, previousKeywordType }))
  out.KeywordType = h.KeywordType
  out.locations = [h.formatLocation({ uri: 'features/a.feature', line: 3 }), h.formatLocation({ uri: '/project/features/b.feature', line: 12 }, '/project')]

  const pickle = (...tags) => ({ tags: tags.map((name) => ({ name })) })
  const canAssign = cucumber.parallelCanAssignHelpers.atMostOnePicklePerTag(['@serial', '@db'])
  out.canAssign = [
    canAssign(pickle('@serial'), [pickle('@db')]), canAssign(pickle('@serial'), [pickle('@serial')]),
    canAssign(pickle('@other'), [pickle('@serial')]), canAssign(pickle(), []),
  ]
  const hook = new cucumber.TestCaseHookDefinition({
    code: function (a, b, c) {}, id: 'h1', line: 7, options: { name: 'named', tags: '@a and not @b' }, order: 0, unwrappedCode: () => {}, uri: 'support/hooks.js',
  })
  out.hook = {
    name: hook.name, tagExpression: hook.tagExpression, id: hook.id, line: hook.line, uri: hook.uri,
    applies: [hook.appliesToTestCase(pickle('@a')), hook.appliesToTestCase(pickle('@a', '@b')), hook.appliesToTestCase(pickle())],
    message: hook.buildInvalidCodeLengthMessage('0 or 1', '2'),
    parameters: (await hook.getInvocationParameters({ hookParameter: { x: 1 } })).parameters,
  }
  out.timeout = await cucumber.wrapPromiseWithTimeout(new Promise((r) => setTimeout(r, 200)), 5).then(() => 'resolved', (e) => e.message)
  out.inTime = await cucumber.wrapPromiseWithTimeout(Promise.resolve('value'), 50, 'late')
  out.documentation = ['Formatter', 'JsonFormatter', 'ProgressFormatter', 'RerunFormatter', 'SnippetsFormatter', 'SummaryFormatter', 'UsageFormatter', 'UsageJsonFormatter']
    .map((n) => [n, typeof cucumber[n], cucumber[n].documentation || null])
  out.resolveConstructor = [
    cucumber.FormatterBuilder.resolveConstructor(cucumber.SummaryFormatter) === cucumber.SummaryFormatter,
    cucumber.FormatterBuilder.resolveConstructor({ default: cucumber.RerunFormatter }) === cucumber.RerunFormatter,
    cucumber.FormatterBuilder.resolveConstructor({ default: { default: cucumber.Formatter } }) === cucumber.Formatter,
    cucumber.FormatterBuilder.resolveConstructor({}),
  ]
  out.builtSummary = (await cucumber.FormatterBuilder.getConstructorByType('summary', '/project')) === cucumber.SummaryFormatter
  out.HookTarget = cucumber.HookTarget
  out.supportCodeLibraryBuilderMethods = Object.keys(cucumber.supportCodeLibraryBuilder.methods).sort()
  return out
}
