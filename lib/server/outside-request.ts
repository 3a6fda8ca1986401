import { AsyncResource } from 'node:async_hooks';

const globalForScope = globalThis as typeof globalThis & { __toolgateServerScope?: AsyncResource };

/**
 * Remembers the async context the server started in. Call once at start-up,
 * outside any request (the instrumentation hook does).
 */
export function captureServerScope(): void {
  globalForScope.__toolgateServerScope ??= new AsyncResource('toolgate-server');
}

/**
 * Runs `fn` in the server's own async context instead of the current request's.
 * A timer or a promise chain keeps the async context it was made in, and a
 * request's context holds the request: its socket, its response, its compression
 * buffers. Work that outlives the request (a parked approval's deadline) is
 * started here so the request can be collected. Without a captured scope (tests,
 * scripts) `fn` simply runs.
 */
export function outsideRequest<T>(fn: () => T): T {
  const scope = globalForScope.__toolgateServerScope;
  return scope === undefined ? fn() : scope.runInAsyncScope(fn);
}
