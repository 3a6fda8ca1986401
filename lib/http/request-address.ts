import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';
import { getConfig } from '@/lib/config';
import { addressBudgetKey, clientAddressOf } from './client-address';

// On globalThis: route handlers, server actions and the turn's code are separate module copies.
const globalForAddress = globalThis as typeof globalThis & {
  __toolgateRequestAddress?: AsyncLocalStorage<string>;
};

function scope(): AsyncLocalStorage<string> {
  globalForAddress.__toolgateRequestAddress ??= new AsyncLocalStorage<string>();
  return globalForAddress.__toolgateRequestAddress;
}

/**
 * Runs `work` knowing which client address (its budget key, `addressBudgetKey`) the request
 * it serves came from, so work it starts — a turn that asks for approval, a decision that
 * settles one — can count against that address's budgets.
 */
export function runWithClientAddress<T>(headers: Headers, work: () => T): T {
  const request = { headers } as Request;
  const address = clientAddressOf(request, { trustProxy: getConfig().TOOLGATE_TRUST_PROXY });
  return scope().run(addressBudgetKey(address), work);
}

/** The budget key of the client address of the request being served, if any (undefined in a timer). */
export function currentClientAddress(): string | undefined {
  return scope().getStore();
}
