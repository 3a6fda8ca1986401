#!/usr/bin/env node
// `npm test`: every check CI runs, one after the other, then the plain total over the test
// runners (vitest and Playwright, read from their JSON reports) as the last line:
// `N passed, N failed` (`, N skipped` when any were skipped). A check that fails before the
// runners (missing tools, types, lint, build) stops the run and counts as one failure, so a
// broken run never looks like an empty green one.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatTotal, playwrightCounts, vitestCounts } from './test-totals.mjs';

const reportDir = 'test-reports';
const vitestReport = join(reportDir, 'vitest.json');
const playwrightReport = join(reportDir, 'playwright.json');

rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

/** Runs one step with inherited output; true when it exited 0. */
function run(label, command, args, env = {}) {
  console.log(`\n> ${label}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.error) console.error(`${label} could not start: ${result.error.message}`);
  return result.status === 0;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const totals = { passed: 0, failed: 0, skipped: 0 };

/** Adds a runner's counts from its JSON report; a missing or unreadable report is one failure. */
function addReport(label, path, read) {
  try {
    const counts = read(JSON.parse(readFileSync(path, 'utf8')));
    totals.passed += counts.passed;
    totals.failed += counts.failed;
    totals.skipped += counts.skipped;
  } catch (error) {
    console.error(`${label} left no readable report at ${path}: ${error.message}`);
    totals.failed += 1;
  }
}

/** Prints the total as the last line, and keeps it in the report folder for CI to repeat. */
function printTotal() {
  const line = formatTotal(totals);
  writeFileSync(join(reportDir, 'total.txt'), `${line}\n`);
  console.log(`\n${line}`);
}

const checks = [
  ['tools', 'node', ['scripts/require-test-tools.mjs']],
  ['typecheck', npm, ['run', '--silent', 'typecheck']],
  ['lint', npm, ['run', '--silent', 'lint']],
  ['build', npm, ['run', '--silent', 'build:test']],
];
for (const [label, command, args] of checks) {
  if (!run(label, command, args)) {
    console.error(`\n${label} failed; the test runners did not run.`);
    totals.failed += 1;
    printTotal();
    process.exit(1);
  }
}

let ok = true;
ok =
  run('vitest', 'node_modules/.bin/vitest', [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestReport}`,
  ]) && ok;
addReport('vitest', vitestReport, vitestCounts);

ok =
  run('bench (quick)', npm, ['run', '--silent', 'bench', '--', '--quick', '--no-build'], {
    BENCH_DIST_DIR: '.next-test',
  }) && ok;

ok =
  run('playwright', 'node_modules/.bin/playwright', ['test'], {
    PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport,
  }) && ok;
addReport('playwright', playwrightReport, playwrightCounts);

if (!ok && totals.failed === 0) {
  // A step failed without a failing test (the bench's verdict, a runner's crash): still a failure.
  console.error('A step failed without a failing test; see above.');
  totals.failed += 1;
}
printTotal();
process.exit(ok && totals.failed === 0 ? 0 : 1);
