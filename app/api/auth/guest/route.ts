import type { NextRequest } from 'next/server';
import { getAuth } from '@/lib/auth/get-auth';
import { getSessionUser } from '@/lib/auth/session-user';
import { getConfig } from '@/lib/config';
import { withSecureCookies } from '@/lib/http/site-origin';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { checkClientLimit } from '@/lib/server/client-rate-limits';

/**
 * Only a path on this site: never an open redirect. The value is resolved as a URL first
 * (so `/..//evil.example`, `/\\evil`, tabs and dot segments are what a browser would make
 * of them) and anything that leaves this site, or whose path would read as `//host`,
 * becomes `/`.
 */
function safeRedirectPath(value: string | null): string {
  if (value === null || !value.startsWith('/')) return '/';
  const base = 'http://toolgate.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return '/';
  }
  if (url.origin !== base || /^[/\\]{2}/.test(url.pathname)) return '/';
  return url.pathname + url.search;
}

/**
 * Gives a visitor without a session a guest (anonymous) session and sends them back to
 * `redirectUrl`. The page proxy sends first visits here, so chatting needs no sign-up.
 */
export const GET = withUnavailableAs503(async (request: NextRequest) => {
  const redirect = new Response(null, {
    status: 303,
    headers: { location: safeRedirectPath(request.nextUrl.searchParams.get('redirectUrl')) },
  });
  if ((await getSessionUser(request.headers)) !== undefined) return redirect;
  const limited = await checkClientLimit(request, 'guest');
  if (limited !== undefined) return limited;
  const signedIn = await (await getAuth()).api.signInAnonymous({
    headers: request.headers,
    asResponse: true,
  });
  if (!signedIn.ok) return Response.json({ error: 'Could not start a guest session' }, { status: 503 });
  for (const cookie of signedIn.headers.getSetCookie()) redirect.headers.append('set-cookie', cookie);
  return withSecureCookies(redirect, request, { trustProxy: getConfig().TOOLGATE_TRUST_PROXY });
});
