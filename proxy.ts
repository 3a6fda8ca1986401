import { getSessionCookie } from 'better-auth/cookies';
import { type NextRequest, NextResponse } from 'next/server';
import { getConfig } from '@/lib/config';
import { contentSecurityPolicy } from '@/lib/http/content-security-policy';
import { crossSiteRefusal, judgeCrossSiteRequest } from '@/lib/http/cross-site-request';
import { allowHeader, servedMethods, unservedMethodError } from '@/lib/http/served-methods';
import type { ProxyTrust } from '@/lib/http/site-origin';

/**
 * Runs before every page, API route and server action: refuses methods the app does not
 * serve (405) and paths with malformed `%` escapes (400), refuses state-changing
 * requests sent by another site's pages (403 `{ error }`), sends a page visit without
 * a session to `/api/auth/guest` (which starts a guest session and comes back, so
 * chatting needs no sign-up), and serves everything with the Content-Security-Policy.
 * API routes without a session are left to answer 401 themselves.
 */
export function proxy(request: NextRequest) {
  const refusal = malformedRequestRefusal(request);
  if (refusal !== undefined) return refusal;
  const config = getConfig();
  const trust: ProxyTrust = { trustProxy: config.TOOLGATE_TRUST_PROXY };
  const verdict = judgeCrossSiteRequest(request, trust);
  if (verdict !== null) return crossSiteRefusal(verdict);

  const isPage = !request.nextUrl.pathname.startsWith('/api/');
  if (isPage && getSessionCookie(request) === null) {
    const guest = new URL('/api/auth/guest', request.url);
    guest.searchParams.set('redirectUrl', request.nextUrl.pathname + request.nextUrl.search);
    return NextResponse.redirect(guest, 303);
  }
  const response = NextResponse.next();
  response.headers.set(
    'Content-Security-Policy',
    contentSecurityPolicy({
      allowedImageOrigins: config.TOOLGATE_ALLOWED_IMAGE_ORIGINS,
      development: process.env.NODE_ENV === 'development',
    }),
  );
  return response;
}

/**
 * 405 for a method the app does not serve, 400 for a path whose `%` escapes do not decode
 * (`/api/chats/%E0%A4%A`): both as JSON `{ error }`, before any route tries to read them.
 */
function malformedRequestRefusal(request: NextRequest): NextResponse | undefined {
  if (!servedMethods.has(request.method)) {
    // Methods fetch cannot carry (TRACE) never get here: the server's start-up hook answers them.
    return NextResponse.json(
      { error: unservedMethodError(request.method) },
      { status: 405, headers: { Allow: allowHeader } },
    );
  }
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return NextResponse.json({ error: 'The path holds a malformed % escape' }, { status: 400 });
  }
  return undefined;
}

export const config = {
  // Pages, API routes and server actions; not Next's own assets or static files.
  matcher: ['/((?!_next/|favicon.ico|robots.txt|.*\\.(?:png|svg|ico|css|js|txt)$).*)'],
};
