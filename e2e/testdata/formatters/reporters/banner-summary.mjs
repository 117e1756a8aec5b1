// A SummaryFormatter subclass (ESM) that frames cucumber-js's summary.
import { SummaryFormatter } from '@cucumber/cucumber'

export default class BannerSummary extends SummaryFormatter {
  logSummary(testRunDuration) {
    this.log('=== ledger summary ===\n')
    super.logSummary(testRunDuration)
    this.log('=== end ===\n')
  }
}
