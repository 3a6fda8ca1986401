import 'server-only';
import { asyncScopeSlot } from '@toolgate/engine/telemetry';
import { getConfig } from '@/lib/config';
import { addressBudgetKey, clientAddressOf } from './client-address';

// A slot of the server's one async-context store, which route handlers, server actions and
// the turn's code (separate module copies) share.
const scope = asyncScopeSlot<string>('clientAddress');

/**
 * Runs `work` knowing which client address (its budget key, `addressBudgetKey`) the request
 * it serves came from, so work it starts — a turn that asks for approval, a decision that
 * settles one — can count against that address's budgets.
 */
export function runWithClientAddress<T>(headers: Headers, work: () => T): T {
  const request = { headers } as Request;
  const address = clientAddressOf(request, { trustProxy: getConfig().TOOLGATE_TRUST_PROXY });
  return scope.run(addressBudgetKey(address), work);
}

/** The budget key of the client address of the request being served, if any (undefined in a timer). */
export function currentClientAddress(): string | undefined {
  return scope.getStore();
}
