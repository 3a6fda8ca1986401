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
