import 'server-only';
import type { NextRequest } from 'next/server';
import { getSessionUser, type SessionUser } from '@/lib/auth/session-user';
import { jsonError } from './json';

/** Who may call a route: any session (guests included), or admins only. */
export type Audience = 'user' | 'admin';

/**
 * Wraps a route handler so it runs only with a session: none answers 401 `{ error }`, and
 * a non-admin on an admin route 403. The handler gets the user from the server, never
 * from the request body.
 */
export function withSession<CONTEXT>(
  handler: (request: NextRequest, user: SessionUser, context: CONTEXT) => Promise<Response> | Response,
  { audience = 'user' }: { audience?: Audience } = {},
): (request: NextRequest, context?: CONTEXT) => Promise<Response> {
  return async (request, context) => {
    const user = await getSessionUser(request.headers);
    if (user === undefined) {
      return jsonError(
        401,
        'No session: open the app in a browser, or POST /api/auth/sign-in/anonymous and send back the cookie it sets',
      );
    }
    if (audience === 'admin' && !user.isAdmin) return jsonError(403, 'Admins only');
    return handler(request, user, context as CONTEXT);
  };
}
