/** Test counts of one runner, or their sum. */
export type Counts = { passed: number; failed: number; skipped: number };
export function vitestCounts(report: {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  success: boolean;
}): Counts;
export function playwrightCounts(report: {
  stats: { expected: number; flaky: number; unexpected: number; skipped: number };
  errors?: unknown[];
}): Counts;
export function formatTotal(counts: Counts): string;
