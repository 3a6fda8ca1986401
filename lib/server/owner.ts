import 'server-only';
import { cookies } from 'next/headers';
import type { NextRequest } from 'next/server';
import { isOwnerId, ownerCookieName } from '@/lib/owner-cookie';

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
