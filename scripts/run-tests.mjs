#!/usr/bin/env node
// `npm test`: every check CI runs, then the plain total over the test runners (vitest and
// Playwright, read from their JSON reports) as the last line: `N passed, N failed`
// (`, N skipped` when any were skipped). A check that fails before the build's runners
// (missing tools, types, lint, build) stops the run and counts as one failure, so a broken
// run never looks like an empty green one.
//
// On two cores, steps that leave a core idle run side by side (docs/testing.md):
// the type check (one core) beside lint, the vitest projects that need no build
// (engine, redis) and the packed engine's example; the build starts once the type check has
// ended, without its own type check (the one above covered the same files), beside whatever of
// those suites still runs; then the integration project; then the bench's quick mode beside Playwright.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatTotal, playwrightCounts, vitestCounts } from './test-totals.mjs';

const reportDir = 'test-reports';
const unitReport = join(reportDir, 'vitest-unit.json');
const integrationReport = join(reportDir, 'vitest-integration.json');
const playwrightReport = join(reportDir, 'playwright.json');

rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

const started = Date.now();
const timings = [];

function seconds(since) {
  return Math.round((Date.now() - since) / 1000);
}

/** Runs one step with inherited output; true when it exited 0. */
function run(label, command, args, env = {}) {
  console.log(`\n> ${label}: ${[command, ...args].join(' ')}`);
  const stepStarted = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.error) console.error(`${label} could not start: ${result.error.message}`);
  timings.push(`${label} ${seconds(stepStarted)} s`);
  return result.status === 0;
}

/**
 * Runs steps side by side, each line of their output prefixed with the step's label;
 * resolves, once all have ended, to whether each exited 0 (in the order given).
 */
function runTogether(steps) {
  return Promise.all(
    steps.map(
      ([label, command, args, env = {}]) =>
        new Promise((resolve) => {
          console.log(`\n> ${label} (side by side): ${[command, ...args].join(' ')}`);
          const stepStarted = Date.now();
          const child = spawn(command, args, {
            stdio: ['ignore', 'pipe', 'pipe'],
            env: { ...process.env, ...env },
          });
          for (const [stream, out] of [
            [child.stdout, process.stdout],
            [child.stderr, process.stderr],
          ]) {
            let rest = '';
            stream.setEncoding('utf8');
            stream.on('data', (chunk) => {
              const lines = (rest + chunk).split('\n');
              rest = lines.pop() ?? '';
              for (const line of lines) out.write(`[${label}] ${line}\n`);
            });
            stream.on('end', () => {
              if (rest !== '') out.write(`[${label}] ${rest}\n`);
            });
          }
          child.once('error', (error) => {
            console.error(`${label} could not start: ${error.message}`);
            resolve(false);
          });
          child.once('close', (code) => {
            timings.push(`${label} ${seconds(stepStarted)} s`);
            console.log(`\n> ${label} ended (${code === 0 ? 'ok' : `exit ${code}`})`);
            resolve(code === 0);
          });
        }),
    ),
  );
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const vitest = 'node_modules/.bin/vitest';
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

/** Prints the step times and the total as the last line, and keeps the total for CI to repeat. */
function printTotal() {
  console.log(`\nSteps: ${timings.join(', ')}; ${seconds(started)} s in all.`);
  const line = formatTotal(totals);
  writeFileSync(join(reportDir, 'total.txt'), `${line}\n`);
  console.log(`\n${line}`);
}

/** A check failed: what ran of the runners is counted, the check is one failure, the run stops. */
function stopAfter(label) {
  console.error(`\n${label} failed; the steps after it did not run.`);
  totals.failed += 1;
  printTotal();
  process.exit(1);
}

function vitestArgs(projects, report) {
  return [
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
}

if (!run('tools', 'node', ['scripts/require-test-tools.mjs'])) stopAfter('tools');

let ok = true;
// The type check keeps one core busy; lint and the suites that need no build use the other.
// The build waits for the type check (it rewrites files the type check reads), not for the suites.
const checks = runTogether([
  ['typecheck', npm, ['run', '--silent', 'typecheck']],
  ['lint', npm, ['run', '--silent', 'lint']],
]);
const suites = runTogether([
  ['vitest engine+redis', vitest, vitestArgs(['engine', 'redis'], unitReport)],
  // The engine as a user installs it: its packed tarball and the example app beside it.
  ['packed engine', 'node', ['scripts/try-packed-engine.mjs']],
]);
const [typesOk, lintOk] = await checks;
// The type check above covered every file the build compiles (TOOLGATE_BUILD_TYPECHECK=0).
const built =
  typesOk && lintOk
    ? await runTogether([
        ['build', npm, ['run', '--silent', 'build:test'], { TOOLGATE_BUILD_TYPECHECK: '0' }],
      ])
    : [false];
const [unitOk, packedOk] = await suites;
addReport('vitest engine+redis', unitReport, vitestCounts);
ok = unitOk && packedOk && ok;
if (!typesOk) stopAfter('typecheck');
if (!lintOk) stopAfter('lint');
if (!built[0]) stopAfter('build');

ok =
  run('vitest integration', vitest, vitestArgs(['integration', 'integration-timed'], integrationReport)) &&
  ok;
addReport('vitest integration', integrationReport, vitestCounts);

// The quick bench runs beside Playwright: Playwright's specs mostly wait on servers and the
// clock, and the quick bench checks that every case still runs (its figures are not
// measurements: `npm run bench` alone is).
const [benchOk, playwrightOk] = await runTogether([
  [
    'bench (quick)',
    npm,
    ['run', '--silent', 'bench', '--', '--quick', '--no-build'],
    { BENCH_DIST_DIR: '.next-test' },
  ],
  ['playwright', 'node_modules/.bin/playwright', ['test'], { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport }],
]);
ok = benchOk && playwrightOk && ok;
addReport('playwright', playwrightReport, playwrightCounts);

if (!ok && totals.failed === 0) {
  // A step failed without a failing test (the bench's verdict, a runner's crash): still a failure.
  console.error('A step failed without a failing test; see above.');
  totals.failed += 1;
}
printTotal();
process.exit(ok && totals.failed === 0 ? 0 : 1);
