import 'server-only';
import type { NextRequest } from 'next/server';
import { getSessionUser, type SessionUser } from '@/lib/auth/session-user';
import { jsonError } from '@/lib/http/json';
import { runWithClientAddress } from '@/lib/http/request-address';

/**
 * Who may call a route: any session (guests included), admins only (403 for anyone else),
 * or admins only with 404 for anyone else, as if the route were not there.
 */
export type Audience = 'user' | 'admin' | 'hidden-admin';

/**
 * Wraps a route handler so it runs only with a session: none answers 401 `{ error }`, and
 * a non-admin on an admin route 403 (404 on a hidden one). The handler gets the user from
 * the server, never from the request body, and runs knowing the client's address
 * (`currentClientAddress`).
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
    if (audience === 'hidden-admin' && !user.isAdmin) return jsonError(404, 'Not found');
    return runWithClientAddress(request.headers, () => handler(request, user, context as CONTEXT));
  };
}
