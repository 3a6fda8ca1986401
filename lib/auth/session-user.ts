import 'server-only';
import { getDb, storePluginRole } from '@/lib/db';
import { getAuth } from './get-auth';
import { rolesOf } from './roles-of';

/** Who is asking, as the server sees it: the only source of a user id anywhere in the app. */
export type SessionUser = {
  id: string;
  name: string;
  /** Guests have a generated placeholder address; show `isAnonymous` instead. */
  email: string;
  isAnonymous: boolean;
  /** The user followed the emailed link (or an operator ran `npm run users -- verify`). */
  emailVerified: boolean;
  /** Roles held now (`rolesOf`): empty for guests and unverified emails. */
  roles: string[];
  /** Holds `admin`: a verified email in `TOOLGATE_ADMIN_EMAILS`, or granted. */
  isAdmin: boolean;
  /** better-auth's id of this sign-in (its session row; not a chat id): what a sign-out ends. */
  authSessionId: string;
};

/** The user of the session the headers carry, or undefined without a valid session. */
export async function getSessionUser(headers: Headers): Promise<SessionUser | undefined> {
  const session = await (await getAuth()).api.getSession({ headers });
  if (session === null) return undefined;
  const user = session.user as typeof session.user & { isAnonymous?: boolean | null; role?: string | null };
  const isAnonymous = Boolean(user.isAnonymous);
  const emailVerified = Boolean(user.emailVerified);
  const roles = await rolesOf({ id: user.id, email: user.email, emailVerified, isAnonymous });
  const isAdmin = roles.includes('admin');
  // The admin plugin reads its own column: keep it no wider than what was computed here.
  if ((user.role === 'admin') !== isAdmin) await storePluginRole(await getDb(), user.id, isAdmin);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    isAnonymous,
    emailVerified,
    roles,
    isAdmin,
    authSessionId: session.session.id,
  };
}
