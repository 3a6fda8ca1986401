import 'server-only';
import { cookies } from 'next/headers';
import type { NextRequest } from 'next/server';

/** The httpOnly cookie that names the browser owning a chat. */
export const ownerCookieName = 'toolgate_owner';

const ownerIdPattern = /^[0-9a-f-]{36}$/;

/** True for a value this server could have issued as an owner id. */
export function isOwnerId(value: string | undefined): value is string {
  return value !== undefined && ownerIdPattern.test(value);
}

/** The owner id a route handler's request carries, if any. */
export function ownerIdFromRequest(request: NextRequest): string | undefined {
  const value = request.cookies.get(ownerCookieName)?.value;
  return isOwnerId(value) ? value : undefined;
}

/** The owner id of the browser calling a server action, if any. */
export async function getOwnerId(): Promise<string | undefined> {
  const value = (await cookies()).get(ownerCookieName)?.value;
  return isOwnerId(value) ? value : undefined;
}
