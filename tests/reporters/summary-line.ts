import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';

/**
 * Prints one closing line CI can read without parsing vitest's report:
 *
 *   12 passed, 0 failed            (", 3 skipped" follows when tests were skipped)
 *
 * "failed" counts every reason the run is not green, not only failed tests: a test file that
 * could not load (syntax error, failing import) or an unhandled error has no failed test, and a
 * line saying "0 failed" on a red run would be a lie. Tests left pending by an interrupted run
 * count as failed for the same reason.
 */
export interface RunCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

export function countRun(modules: readonly TestModule[], unhandledErrors: number): RunCounts {
  let passed = 0;
  let failed = unhandledErrors;
  let skipped = 0;
  for (const module of modules) {
    let failedHere = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'skipped') skipped++;
      else failedHere++; // 'failed', or 'pending' after an interrupted run
    }
    // A file that failed outside its tests (load error, failing beforeAll) counts once.
    if (failedHere === 0 && (module.state() === 'failed' || module.errors().length > 0)) failedHere = 1;
    failed += failedHere;
  }
  return { passed, failed, skipped };
}

export function summaryLine(counts: RunCounts): string {
  const line = `${counts.passed} passed, ${counts.failed} failed`;
  return counts.skipped > 0 ? `${line}, ${counts.skipped} skipped` : line;
}

/** Default export: vitest.config.ts registers this file by path. */
export default class SummaryLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>, _reason: TestRunEndReason): void {
    // Registered after the default reporter, whose summary is printed in this same hook: this line comes last.
    process.stdout.write(`${summaryLine(countRun(testModules, unhandledErrors.length))}\n`);
  }
}
