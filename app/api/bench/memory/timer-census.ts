import { createHook } from 'node:async_hooks';

/*
 * Benchmark probe: how many timers (setTimeout / setInterval, unref'd ones included) are
 * alive in this process. `process.getActiveResourcesInfo()` leaves unref'd timers out,
 * and a timer per waiting approval would be one of those. Started only in a bench build,
 * by the bench's memory probe: an async hook costs a little on every async resource.
 */
const globalForCensus = globalThis as typeof globalThis & { __toolgateTimerCensus?: Set<number> };

/** Starts counting timers; later calls do nothing. */
export function startTimerCensus(): void {
  if (globalForCensus.__toolgateTimerCensus !== undefined) return;
  const live = new Set<number>();
  globalForCensus.__toolgateTimerCensus = live;
  createHook({
    init(asyncId, type) {
      if (type === 'Timeout') live.add(asyncId);
    },
    destroy(asyncId) {
      live.delete(asyncId);
    },
  }).enable();
}

/** Timers alive now, or undefined when the census was not started. */
export function liveTimerCount(): number | undefined {
  return globalForCensus.__toolgateTimerCensus?.size;
}
