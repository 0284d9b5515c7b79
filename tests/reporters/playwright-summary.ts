import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { summaryLine } from './summary-line';

/**
 * The e2e run's closing line in the same form as vitest's (summary-line.ts), so `npm test` reads
 * the same whether it stops at the e2e step or runs to the end: "4 passed, 0 failed". A run that
 * ends for another reason (interrupted, global error) counts one failure, as the vitest one does.
 */
export default class SummaryLineReporter implements Reporter {
  #passed = 0;
  #failed = 0;
  #skipped = 0;

  onTestEnd(test: TestCase, result: TestResult): void {
    // Only the final attempt counts (retries).
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    if (result.status === 'passed') this.#passed++;
    else if (result.status === 'skipped') this.#skipped++;
    else this.#failed++;
  }

  onEnd(result: FullResult): void {
    const failed = this.#failed === 0 && result.status !== 'passed' ? 1 : this.#failed;
    process.stdout.write(`${summaryLine({ passed: this.#passed, failed, skipped: this.#skipped })}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
