import { describe, expect, it } from 'vitest';
import { formatTotal, playwrightCounts, vitestCounts } from '../../scripts/test-totals.mjs';

describe('formatTotal', () => {
  it('prints the plain total CI tooling reads, with skipped only when any were', () => {
    expect(formatTotal({ passed: 239, failed: 0, skipped: 0 })).toBe('239 passed, 0 failed');
    expect(formatTotal({ passed: 3, failed: 1, skipped: 2 })).toBe('3 passed, 1 failed, 2 skipped');
  });
});

describe('vitestCounts', () => {
  it('reads passed, failed and skipped from a vitest JSON report', () => {
    const report = {
      numPassedTests: 5,
      numFailedTests: 1,
      numPendingTests: 1,
      numTodoTests: 1,
      success: false,
    };
    expect(vitestCounts(report)).toEqual({ passed: 5, failed: 1, skipped: 2 });
  });

  it('counts a failed run without a failing test (a suite that did not load) as one failure', () => {
    const report = {
      numPassedTests: 5,
      numFailedTests: 0,
      numPendingTests: 0,
      numTodoTests: 0,
      success: false,
    };
    expect(vitestCounts(report).failed).toBe(1);
  });
});

describe('playwrightCounts', () => {
  it('counts flaky tests as passed and errors outside tests as failures', () => {
    const report = {
      stats: { expected: 40, flaky: 1, unexpected: 2, skipped: 0 },
      errors: [{ message: 'x' }],
    };
    expect(playwrightCounts(report)).toEqual({ passed: 41, failed: 3, skipped: 0 });
  });
});
