/*
 * The owner cookie, shared by the proxy that issues it and the server code that
 * reads it. Kept free of `server-only` and Node APIs so the proxy can import it.
 */

/** The httpOnly cookie that names the browser owning a chat. */
export const ownerCookieName = 'toolgate_owner';

const ownerIdPattern = /^[0-9a-f-]{36}$/;

/** True for a value this server could have issued as an owner id (a UUID). */
export function isOwnerId(value: string | undefined): value is string {
  return value !== undefined && ownerIdPattern.test(value);
}
