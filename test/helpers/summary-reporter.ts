import type { Reporter, TestModule } from 'vitest/node';

/** Prints one closing line 'vitest: N passed, N failed, N skipped' that CI tooling reads. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // a file that failed to load has no tests but must still count as a failure
      if (mod.state() === 'failed' && ![...mod.children.allTests()].some((t) => t.result().state === 'failed'))
        failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
