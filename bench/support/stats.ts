/** The value at quantile `q` (0..1) of `values`, by nearest rank; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

/** The median of `values`. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Rounds to `digits` significant digits, for tables and JSON that people read. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(digits));
}

/** Milliseconds since an arbitrary origin, with sub-millisecond resolution. */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * The one-sided sign test: the probability, if neither side were faster, that the
 * subject would be the slower one in at least `slower` of `rounds` paired rounds.
 * A small value says the subject really is slower; ties count as neither.
 */
export function signTestPValue(slower: number, rounds: number): number {
  let tail = 0;
  let coefficient = 1; // C(rounds, 0)
  for (let k = 0; k <= rounds; k++) {
    if (k >= slower) tail += coefficient;
    coefficient = (coefficient * (rounds - k)) / (k + 1);
  }
  return tail / 2 ** rounds;
}
