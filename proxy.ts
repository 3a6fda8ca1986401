import { getSessionCookie } from 'better-auth/cookies';
import { type NextRequest, NextResponse } from 'next/server';
import { getConfig } from '@/lib/config';
import { contentSecurityPolicy } from '@/lib/http/content-security-policy';
import { crossSiteRefusal, judgeCrossSiteRequest } from '@/lib/http/cross-site-request';
import type { ProxyTrust } from '@/lib/http/site-origin';

/**
 * Runs before every page, API route and server action: refuses state-changing
 * requests sent by another site's pages (403 `{ error }`), sends a page visit without
 * a session to `/api/auth/guest` (which starts a guest session and comes back, so
 * chatting needs no sign-up), and serves everything with the Content-Security-Policy.
 * API routes without a session are left to answer 401 themselves.
 */
export function proxy(request: NextRequest) {
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

export const config = {
  // Pages, API routes and server actions; not Next's own assets or static files.
  matcher: ['/((?!_next/|favicon.ico|robots.txt|.*\\.(?:png|svg|ico|css|js|txt)$).*)'],
};
