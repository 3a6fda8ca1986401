/**
 * Runs one benchmark case in this (fresh) process and writes its rows as JSON.
 * Started by `bench/run.ts` as
 * `node --expose-gc --import tsx --import ./bench/register-server-only.mjs bench/case-runner.ts <case> <out.json> <scratch> [--quick] [--cpu-prof=<dir>]`,
 * so every case gets its own heap and JIT state and may import server modules.
 * With `--cpu-prof=<dir>`, every app server the case starts writes a CPU profile there.
 */
import { writeFileSync } from 'node:fs';
import { benchCases } from './cases/index';
import { profileServersInto } from './support/next-app';

async function main(): Promise<void> {
  const [name, outFile, scratch] = process.argv.slice(2);
  const run = name === undefined ? undefined : benchCases[name];
  if (run === undefined || outFile === undefined || scratch === undefined) {
    throw new Error(
      `Usage: case-runner.ts <${Object.keys(benchCases).join('|')}> <out.json> <scratch-dir> [--quick]`,
    );
  }
  const profileDir = process.argv.find((argument) => argument.startsWith('--cpu-prof='));
  if (profileDir !== undefined) profileServersInto(profileDir.slice('--cpu-prof='.length));
  const rows = await run({
    quick: process.argv.includes('--quick'),
    build: false,
    scratch,
    log: (line) => console.error(`  · ${line}`),
  });
  writeFileSync(outFile, JSON.stringify(rows, null, 2));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
