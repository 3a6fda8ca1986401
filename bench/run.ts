/**
 * `npm run bench` — runs every benchmark, prints a table and writes
 * the rows to `bench/results.json`. Quick and `--only` runs write to
 * `bench/.tmp/` instead, so the committed file always holds a complete full run.
 *
 * Flags:
 * - `--quick`: the same code paths with tiny sizes and short rounds, under a
 *   minute once the app is built (`npm test` runs this so the benches cannot rot).
 *   The production build is reused when no source changed since it was made.
 * - `--no-build`: never build; the HTTP cases use the existing `.next-bench`.
 * - `--only=a,b`: run only these cases (names as in `bench/cases/index.ts`).
 * - `--against=<dist dir>`: `approval-resume` also runs its live path on a second server
 *   serving that build (e.g. `.next-bench-before`, the code before a change, built with
 *   `NEXT_DIST_DIR=.next-bench-before TOOLGATE_BENCH_BUILD=1 next build`), in the same
 *   alternating rounds, and adds a row comparing the two builds.
 * - `--cpu-prof`: every app server the cases start writes a V8 CPU profile into
 *   `bench/.tmp/run-…/cpu-profiles/` (the profiler slows the servers: the rows of a
 *   profiled run are not results). Summarise one with `bench/cpu-profile-summary.mjs`;
 *   `approval-resume` also writes the time windows of its rounds there, so the summary
 *   can be limited to the decision path.
 *
 * Exit status: non-zero only when a case crashed or single-flight executed a
 * call other than exactly once. A missed target prints FAIL in its row and in
 * the JSON but does not fail the process, in quick and in full mode alike:
 * targets are measurements to act on, not a flaky gate.
 *
 * Each case runs in its own Node process (`--expose-gc`, server-only mapped),
 * so heap and JIT state never leak from one case into the next.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchCaseNames, caseNeedsBuild } from './support/case-list';
import { benchDistDir, buildApp, buildExists, buildIsFresh, repoRoot, scratchDir } from './support/next-app';
import { markdownTable } from './support/table';
import type { BenchResult } from './support/types';

type Options = { quick: boolean; build: boolean; cpuProfile: boolean; only?: string[] };

function parseArguments(argv: string[]): Options {
  const only = argv.find((argument) => argument.startsWith('--only='));
  const against = argv.find((argument) => argument.startsWith('--against='));
  // The cases read it from the environment of their process.
  if (against !== undefined) process.env.BENCH_AGAINST_DIST_DIR = against.slice('--against='.length);
  const options: Options = {
    quick: argv.includes('--quick'),
    build: !argv.includes('--no-build'),
    cpuProfile: argv.includes('--cpu-prof'),
    only: only?.slice('--only='.length).split(','),
  };
  const unknown = (options.only ?? []).filter((name) => !benchCaseNames.includes(name));
  if (unknown.length > 0) {
    throw new Error(`Unknown case(s) ${unknown.join(', ')}; known: ${benchCaseNames.join(', ')}`);
  }
  return options;
}

/** Runs one case in a child process; resolves to its rows, or to a CRASHED row. */
function runCase(
  name: string,
  scratch: string,
  { quick, profileDir }: { quick: boolean; profileDir?: string },
): Promise<BenchResult[]> {
  const outFile = join(scratch, `${name}.json`);
  const args = [
    '--expose-gc',
    '--import',
    'tsx',
    '--import',
    './bench/register-server-only.mjs',
    'bench/case-runner.ts',
    name,
    outFile,
    scratch,
    ...(quick ? ['--quick'] : []),
    ...(profileDir === undefined ? [] : [`--cpu-prof=${profileDir}`]),
  ];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code, signal) => {
      if (code === 0 && existsSync(outFile)) {
        resolve(JSON.parse(readFileSync(outFile, 'utf8')) as BenchResult[]);
        return;
      }
      resolve([
        {
          name,
          baseline: { label: '—' },
          subject: { label: '—' },
          ratio: null,
          target: '—',
          pass: false,
          crashed: `exited with ${code ?? signal}; see the output above`,
        } as BenchResult & { crashed: string },
      ]);
    });
  });
}

async function main(): Promise<number> {
  const options = parseArguments(process.argv.slice(2));
  const started = Date.now();
  const scratch = scratchDir(`run-${new Date().toISOString().replaceAll(/[:.]/g, '-')}`);
  const names = benchCaseNames.filter((name) => options.only === undefined || options.only.includes(name));
  const profileDir = options.cpuProfile ? join(scratch, 'cpu-profiles') : undefined;
  const results: BenchResult[] = [];
  let built = false;
  for (const name of names) {
    if (caseNeedsBuild(name) && !built) {
      built = true;
      // Quick mode reuses a build no source is newer than; full mode always builds fresh.
      if (options.build && !(options.quick && buildIsFresh())) {
        console.error(`▶ next build (NEXT_DIST_DIR=${benchDistDir})`);
        await buildApp();
      }
    }
    console.error(`▶ ${name}${options.quick ? ' (quick)' : ''}`);
    if (caseNeedsBuild(name) && !buildExists()) {
      throw new Error(`No build in ${benchDistDir}: run without --no-build, or build it first.`);
    }
    results.push(...(await runCase(name, scratch, { quick: options.quick, profileDir })));
  }

  const table = markdownTable(results);
  console.log(`\n${table}\n`);
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`${options.quick ? 'Quick' : 'Full'} run, ${seconds} s. Missed targets do not fail the run.`);
  if (profileDir !== undefined) {
    console.log(
      `CPU profiles (the rows above ran under the profiler): ${profileDir.slice(repoRoot.length + 1)}\n` +
        'Summarise: node bench/cpu-profile-summary.mjs <file.cpuprofile> [--windows=<case>-windows.json --window=<name>]',
    );
  }

  // Only a complete full run replaces the committed results.
  const complete = !options.quick && options.only === undefined && !options.cpuProfile;
  const outFile = complete
    ? join(repoRoot, 'bench', 'results.json')
    : join(repoRoot, 'bench', '.tmp', options.quick ? 'results-quick.json' : 'results-partial.json');
  mkdirSync(join(outFile, '..'), { recursive: true });
  writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`Wrote ${outFile.slice(repoRoot.length + 1)}`);

  const crashed = results.filter((result) => 'crashed' in result);
  const brokenCritical = results.filter((result) => result.critical === true && result.pass !== true);
  for (const result of crashed) console.error(`✗ ${result.name} crashed`);
  for (const result of brokenCritical) console.error(`✗ ${result.name}: ${result.target} did not hold`);
  return crashed.length > 0 || brokenCritical.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
