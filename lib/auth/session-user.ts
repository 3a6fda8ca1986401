import 'server-only';
import { getConfig } from '@/lib/config';
import { getAuth } from './get-auth';

/** Who is asking, as the server sees it: the only source of a user id anywhere in the app. */
export type SessionUser = {
  id: string;
  name: string;
  /** Guests have a generated placeholder address; show `isAnonymous` instead. */
  email: string;
  isAnonymous: boolean;
  /** Listed in `TOOLGATE_ADMIN_EMAILS` (and not a guest). */
  isAdmin: boolean;
};

/** The user of the session the headers carry, or undefined without a valid session. */
export async function getSessionUser(headers: Headers): Promise<SessionUser | undefined> {
  const session = await (await getAuth()).api.getSession({ headers });
  if (session === null) return undefined;
  const { user } = session;
  const isAnonymous = Boolean((user as { isAnonymous?: boolean | null }).isAnonymous);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    isAnonymous,
    isAdmin: !isAnonymous && getConfig().TOOLGATE_ADMIN_EMAILS.has(user.email.toLowerCase()),
  };
}
