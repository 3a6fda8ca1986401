import type { NextRequest } from 'next/server';
import { changeRole } from '@/lib/auth/role-admin';
import { withSession } from '@/lib/auth/with-session';
import { describeZodError, jsonError, readJsonBody } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { roleChangeSchema } from './schema';

/**
 * The POST handler of `grant` and `revoke`: `{ userId, role }` → 200 `{ userId, role, changed,
 * roles }`; 400 for a bad body or role name, 404 for an unknown user or guest, and for
 * anyone but a verified admin. Cross-site posts are refused before this (proxy.ts).
 */
export function roleChangeRoute(change: 'grant' | 'revoke') {
  return withUnavailableAs503(
    withSession(
      async (request: NextRequest, user) => {
        const body = await readJsonBody(request, { maxBytes: 4096 });
        if (!body.ok) return body.response;
        const parsed = roleChangeSchema.safeParse(body.value);
        if (!parsed.success) return jsonError(400, describeZodError(parsed.error));
        const result = await changeRole({ actorId: user.id, change, ...parsed.data });
        if (result.kind === 'not-found') return jsonError(404, 'No such user');
        const { kind: _kind, ...answer } = result;
        return Response.json(answer);
      },
      { audience: 'hidden-admin' },
    ),
  );
}
