/**
 * Heap in use after full collections. Runs GC several times with turns of the
 * event loop in between, so finalizers and weak references settle first.
 */
export async function settledHeapUsed(): Promise<number> {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('Run with --expose-gc: heap figures need forced GC.');
  for (let pass = 0; pass < 4; pass += 1) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}
