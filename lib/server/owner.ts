import 'server-only';
import { cookies } from 'next/headers';

/** The httpOnly cookie that names the browser owning a chat. */
export const ownerCookieName = 'toolgate_owner';

const ownerIdPattern = /^[0-9a-f-]{36}$/;

/** True for a value this server could have issued as an owner id. */
export function isOwnerId(value: string | undefined): value is string {
  return value !== undefined && ownerIdPattern.test(value);
}

/** The owner id of the browser making this request, if it has one. */
export async function getOwnerId(): Promise<string | undefined> {
  const value = (await cookies()).get(ownerCookieName)?.value;
  return isOwnerId(value) ? value : undefined;
}
