import http from 'node:http';
import { allowHeader, servedMethods, unservedMethodError } from '@/lib/http/served-methods';

const refusing = Symbol.for('toolgate.refuseUnservableRequests');

/** Answers `status` with JSON `{ error }` straight on the socket's response. */
function refuse(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  status: number,
  error: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ error });
  response.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(body);
  request.resume();
}

/**
 * Makes every HTTP server in this process answer, before Next.js sees the request, what
 * Next would answer with a bare 500: a method the app does not serve (`TRACE`, `PROPFIND`;
 * Next builds a fetch `Request`, which throws on TRACE) with 405, and a request target that
 * is not a path or an absolute URL (`OPTIONS *`) with 400, both as JSON `{ error }`.
 */
export function refuseUnservableRequests(): void {
  const prototype = http.Server.prototype as http.Server & { [refusing]?: true };
  if (prototype[refusing]) return;
  const emit = prototype.emit;
  prototype.emit = function emitServableOnly(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request') {
      const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
      const method = request.method ?? '';
      const target = request.url ?? '';
      if (!servedMethods.has(method)) {
        refuse(request, response, 405, unservedMethodError(method.slice(0, 32)), { Allow: allowHeader });
        return true;
      }
      if (!target.startsWith('/') && !/^https?:\/\//i.test(target)) {
        refuse(request, response, 400, 'The request target must be a path');
        return true;
      }
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
  prototype[refusing] = true;
}
