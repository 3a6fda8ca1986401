import { median, nowMs } from './stats';

/** One function under test in a {@link microbench}. */
export type MicroCandidate = { label: string; run: () => unknown };

/** Options of {@link microbench}. */
export type MicrobenchOptions = {
  /** Alternating rounds; each round measures every candidate once. Default 7. */
  rounds?: number;
  /** Time each candidate runs per round, in ms. Default 200. */
  roundMs?: number;
  /** Warm-up per candidate before the first round (lets the JIT settle), in ms. Default 300. */
  warmupMs?: number;
};

/** Median operations per second of each candidate, by label. */
export type MicrobenchResult = Record<string, { opsPerSecond: number; roundsOpsPerSecond: number[] }>;

// Results are folded into this so the engine cannot drop the calls as dead code.
let sink = 0;

function absorb(value: unknown): void {
  sink = (sink + (typeof value === 'string' ? value.length : 1)) | 0;
}

/** Calls `run` in batches until `durationMs` has passed; returns calls per second. */
function measure(run: () => unknown, durationMs: number): number {
  let batch = 16;
  let calls = 0;
  const start = nowMs();
  let elapsed = 0;
  while (elapsed < durationMs) {
    for (let index = 0; index < batch; index += 1) absorb(run());
    calls += batch;
    elapsed = nowMs() - start;
    // Grow batches so the clock is read rarely relative to fast calls.
    if (elapsed < durationMs / 20) batch *= 2;
  }
  return (calls * 1000) / elapsed;
}

/**
 * Compares synchronous functions fairly: every candidate is warmed up, then
 * measured once per round, with the order rotated each round so that drift
 * (thermal, GC, other processes) hits all of them alike. Reports the median
 * ops/s over rounds, which one disturbed round cannot move much.
 */
export function microbench(
  candidates: readonly MicroCandidate[],
  { rounds = 7, roundMs = 200, warmupMs = 300 }: MicrobenchOptions = {},
): MicrobenchResult {
  for (const candidate of candidates) measure(candidate.run, warmupMs);
  const samples = new Map<string, number[]>(candidates.map((candidate) => [candidate.label, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (let offset = 0; offset < candidates.length; offset += 1) {
      const candidate = candidates[(round + offset) % candidates.length] as MicroCandidate;
      samples.get(candidate.label)?.push(measure(candidate.run, roundMs));
    }
  }
  if (sink === 42) console.error('');
  return Object.fromEntries(
    [...samples].map(([label, values]) => [
      label,
      { opsPerSecond: median(values), roundsOpsPerSecond: values },
    ]),
  );
}
