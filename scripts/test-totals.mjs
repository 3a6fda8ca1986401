// The counts `npm test` prints as its last line, read from the runners' JSON reports.

/** Counts of one vitest JSON report (`--reporter=json`); a run that failed without a failing test counts one. */
export function vitestCounts(report) {
  const failed = report.numFailedTests + (report.success === false && report.numFailedTests === 0 ? 1 : 0);
  return {
    passed: report.numPassedTests,
    failed,
    skipped: report.numPendingTests + report.numTodoTests,
  };
}

/** Counts of one Playwright JSON report; a flaky test passed on retry, an error outside tests fails. */
export function playwrightCounts(report) {
  return {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected + (report.errors?.length ?? 0),
    skipped: report.stats.skipped,
  };
}

/** The plain total: `N passed, N failed`, plus `, N skipped` only when any were skipped. */
export function formatTotal({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
}
