/** What a caller of `run` may observe about one call besides its result. */
export type IdempotencyRunOptions = {
  /**
   * Called when the result came from an earlier or concurrent execution with the
   * same key instead of a new one. The result itself is never marked: the model
   * sees the same value either way; audit and UI learn of the replay here.
   */
  onReplay?: () => void;
  /**
   * Whose window the entry counts against (the user). Each partition keeps at most
   * `maxEntries` entries and evicts only its own, so one user's calls can never push
   * out another user's. Absent: one shared partition.
   */
  partition?: string;
};

/**
 * Runs a write at most once per key within a window.
 *
 * Key = `scope::toolName::stableStringify(args)`. Three disciplines hold for every
 * implementation (memory, Redis):
 * 1. success-only caching: a rejected execution leaves no entry; the next call runs again;
 * 2. in-flight sharing: concurrent calls with one key share one execution;
 * 3. scope isolation: the same args in another scope execute again.
 */
export interface IdempotencyStore {
  run<T>(
    scope: string,
    toolName: string,
    args: unknown,
    execute: () => Promise<T>,
    options?: IdempotencyRunOptions,
  ): Promise<T>;
  /** Drops every entry of one scope (a deleted chat). */
  clearScope(scope: string): void | Promise<void>;
  /**
   * Drops the finished entry of one call (an undone write), so a repeat executes anew.
   * An execution still in flight is left alone.
   */
  forget(scope: string, toolName: string, args: unknown): void | Promise<void>;
}
