import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * One AsyncLocalStorage for every value the server keeps per async context (the tool
 * call's telemetry and OpenTelemetry context, the mail budget a request spent, the client
 * address of the request). Node copies each enabled storage onto every promise the process
 * makes (a request makes thousands), so one store with a few slots costs a request less
 * than one store per value. Each module keeps its own typed slot (`asyncScopeSlot`).
 */

type Slots = Readonly<Record<string, unknown>>;

// On globalThis: route handlers, server actions and the turn's code are separate module copies.
const globalForScope = globalThis as typeof globalThis & { __toolgateAsyncScope?: AsyncLocalStorage<Slots> };

function storage(): AsyncLocalStorage<Slots> {
  globalForScope.__toolgateAsyncScope ??= new AsyncLocalStorage<Slots>();
  return globalForScope.__toolgateAsyncScope;
}

/** One value kept per async context, beside the other slots (which a `run` leaves as they are). */
export type AsyncScopeSlot<T> = {
  /** This slot's value in the current async context, if any. */
  getStore(): T | undefined;
  /** Runs `work` with this slot set to `value` (the other slots unchanged) and returns what it returns. */
  run<R, A extends unknown[]>(value: T, work: (...args: A) => R, ...args: A): R;
};

/** The slot named `name` (one name per kind of value). */
export function asyncScopeSlot<T>(name: string): AsyncScopeSlot<T> {
  return {
    getStore: () => storage().getStore()?.[name] as T | undefined,
    run: (value, work, ...args) => storage().run({ ...storage().getStore(), [name]: value }, work, ...args),
  };
}
