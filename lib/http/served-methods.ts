/*
 * The HTTP methods the app answers. Kept free of `server-only` and Node APIs so the proxy can import it.
 */

/** The methods the app serves; any other (TRACE, TRACK, CONNECT, made-up ones) answers 405. */
export const servedMethods: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
]);

/** The `Allow` header of a 405. */
export const allowHeader = [...servedMethods].join(', ');

/** The 405's `{ error }`. */
export function unservedMethodError(method: string): string {
  return `Method ${method} is not allowed`;
}
