import 'server-only';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getSessionUser, type SessionUser } from './session-user';

/**
 * The session user of a page request. A browser whose cookie names no live session (it
 * expired, or the database was reset) is sent for a new guest session and brought back.
 */
export async function requirePageUser(path: string): Promise<SessionUser> {
  const user = await getSessionUser(await headers());
  if (user === undefined) redirect(`/api/auth/guest?redirectUrl=${encodeURIComponent(path)}`);
  return user;
}
