import http from 'node:http';
import { allowHeader, servedMethods, unservedMethodError } from '@/lib/http/served-methods';

const refusing = Symbol.for('toolgate.refuseUnservedMethods');

/**
 * Makes every HTTP server in this process answer a method the app does not serve (`TRACE`,
 * `TRACK`, a made-up one) with 405 JSON `{ error }` before Next.js sees the request: Next
 * builds a fetch `Request` for it first, which throws on such methods and answers a bare 500.
 */
export function refuseUnservedMethods(): void {
  const prototype = http.Server.prototype as http.Server & { [refusing]?: true };
  if (prototype[refusing]) return;
  const emit = prototype.emit;
  prototype.emit = function emitServedMethodsOnly(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ) {
    if (event === 'request') {
      const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
      const method = request.method ?? '';
      if (!servedMethods.has(method)) {
        const body = JSON.stringify({ error: unservedMethodError(method.slice(0, 32)) });
        response.writeHead(405, {
          Allow: allowHeader,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        });
        response.end(body);
        request.resume();
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
  prototype[refusing] = true;
}
