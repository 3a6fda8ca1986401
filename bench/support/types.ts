/** A figure in a result row: a number, or a short text when a number would mislead. */
export type Figure = number | string | boolean | null;

/** One side of a comparison: what ran (`label`) and what it measured. */
export type Side = { label: string } & Record<string, Figure>;

/**
 * One row of `bench/results.json`: a subject measured side by side with a
 * baseline in the same run, the ratio the target is stated in, and the verdict.
 */
export type BenchResult = {
  name: string;
  baseline: Side;
  subject: Side;
  /** The figure the target is about, subject relative to baseline (see `ratioOf`). */
  ratio: number | null;
  /** The target in words, e.g. `throughput ≥ 0.95 × baseline, p99 ≤ 1.1 × baseline`. */
  target: string;
  /** `null` when the row has no target or was skipped. */
  pass: boolean | null;
  /** What the ratio means, e.g. `subject ops/s ÷ baseline ops/s`. */
  ratioOf?: string;
  /** Why the row was not measured. */
  skipped?: string;
  /** A row whose miss fails the process in every mode (single-flight exactness). */
  critical?: boolean;
  notes?: string;
};

/** What every benchmark case receives from the runner. */
export type BenchContext = {
  /** Tiny sizes and short durations: the same code paths, in under a minute. */
  quick: boolean;
  /** Build the production app before the HTTP cases (false with `--no-build`). */
  build: boolean;
  /** A fresh scratch folder for this run under `bench/.tmp` (databases, logs). */
  scratch: string;
  /** Prints a progress line on stderr. */
  log: (line: string) => void;
};

/** A benchmark: one module in `bench/cases`, producing one or more rows. */
export type BenchCase = (context: BenchContext) => Promise<BenchResult[]>;
