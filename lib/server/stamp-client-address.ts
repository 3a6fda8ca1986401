import http from 'node:http';
import { clientAddressHeader } from '@/lib/http/client-address';

const stamped = Symbol.for('toolgate.clientAddressStamp');

/**
 * Makes every HTTP server in this process write the socket's remote address into
 * `clientAddressHeader` of each request before anyone else sees it, deleting any copy the
 * client sent. Route handlers in Next.js see no socket; this header is how they learn
 * who is asking without trusting a client-written `X-Forwarded-For`.
 */
export function stampClientAddresses(): void {
  const prototype = http.Server.prototype as http.Server & { [stamped]?: true };
  if (prototype[stamped]) return;
  const emit = prototype.emit;
  prototype.emit = function emitWithClientAddress(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ) {
    if (event === 'request') stamp(args[0] as http.IncomingMessage);
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
  prototype[stamped] = true;
}

function stamp(request: http.IncomingMessage): void {
  const address = request.socket?.remoteAddress ?? 'unknown';
  const rawHeaders: string[] = [];
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index].toLowerCase() === clientAddressHeader) continue;
    rawHeaders.push(request.rawHeaders[index], request.rawHeaders[index + 1]);
  }
  rawHeaders.push(clientAddressHeader, address);
  request.rawHeaders.splice(0, request.rawHeaders.length, ...rawHeaders);
  request.headers[clientAddressHeader] = address;
}
