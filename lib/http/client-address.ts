/*
 * Who sent a request. Kept free of `server-only` and Node APIs so the proxy can import it.
 */
import type { ProxyTrust } from './site-origin';

/**
 * The header the server's start-up hook (lib/server/stamp-client-address.ts) sets on every
 * incoming request to the socket's remote address, after deleting any copy the client sent.
 */
export const clientAddressHeader = 'x-toolgate-client-address';

/**
 * The client's address. Behind a trusted proxy (`TOOLGATE_TRUST_PROXY=1`) the last
 * `X-Forwarded-For` hop, the one that proxy appended (earlier hops are whatever the
 * client wrote); otherwise the socket address the server stamped. `unknown` when neither
 * is there (then every such client shares one budget).
 */
export function clientAddressOf(request: Request, { trustProxy }: ProxyTrust): string {
  if (trustProxy) {
    const hops = request.headers.get('x-forwarded-for')?.split(',') ?? [];
    const last = hops.at(-1)?.trim();
    if (last) return last;
  }
  return request.headers.get(clientAddressHeader)?.trim() || 'unknown';
}

/**
 * The key a per-address budget counts under: an IPv4 address as it is, an IPv6 address by
 * its /64 network (one subscriber usually holds a whole /64: counting single addresses
 * would hand each of them 2^64 budgets). IPv4-mapped IPv6 addresses count as IPv4; a value
 * that is not an address is its own key.
 */
export function addressBudgetKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (!address.includes(':')) return address;
  const bare = address.split('%')[0] ?? address;
  const halves = bare.split('::');
  if (halves.length > 2) return address;
  const head = halves[0] === '' ? [] : (halves[0] ?? '').split(':');
  const tail = halves.length === 1 || halves[1] === '' ? [] : (halves[1] ?? '').split(':');
  const groups =
    halves.length === 1 ? head : [...head, ...Array(8 - head.length - tail.length).fill('0'), ...tail];
  if (groups.length !== 8 || !groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return address;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
