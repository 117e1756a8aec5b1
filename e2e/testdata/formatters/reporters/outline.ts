// A TypeScript formatter named in the cucumber-js configuration.
import { Formatter, formatterHelpers, type IFormatterOptions } from '@cucumber/cucumber'

export default class OutlineFormatter extends Formatter {
  private readonly seen: string[] = []

  constructor(options: IFormatterOptions) {
    super(options)
    options.eventBroadcaster.on('envelope', (envelope: any) => {
      if (envelope.testCaseStarted) {
        const { pickle, gherkinDocument } = this.eventDataCollector.getTestCaseAttempt(envelope.testCaseStarted.id)
        const scenario = formatterHelpers.GherkinDocumentParser.getGherkinScenarioMap(gherkinDocument)[pickle.astNodeIds[0]]
        if (scenario.examples.length > 0) this.seen.push(pickle.name)
      }
      if (envelope.testRunFinished) this.log(`outline rows: ${this.seen.join(', ')}\n`)
    })
  }
}
