import { type NextRequest, NextResponse } from 'next/server';
import { getConfig } from '@/lib/config';
import { contentSecurityPolicy } from '@/lib/http/content-security-policy';
import { crossSiteRefusal, judgeCrossSiteRequest } from '@/lib/http/cross-site-request';
import { isSecureRequest, type ProxyTrust } from '@/lib/http/site-origin';
import { ownerCookieName } from '@/lib/owner-cookie';

/**
 * Runs before every page, API route and server action: refuses state-changing
 * requests sent by another site's pages (403 `{ error }`), gives pages their owner
 * cookie, and serves everything with the Content-Security-Policy.
 */
export function proxy(request: NextRequest) {
  const config = getConfig();
  const trust: ProxyTrust = { trustProxy: config.TOOLGATE_TRUST_PROXY };
  const verdict = judgeCrossSiteRequest(request, trust);
  if (verdict !== null) return crossSiteRefusal(verdict);

  const response = request.nextUrl.pathname.startsWith('/api/')
    ? NextResponse.next()
    : withOwnerCookie(request, trust);
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
 * Gives every browser an opaque owner id on its first page visit. Chats and their
 * approvals belong to that id; the cookie is httpOnly so page scripts cannot read
 * or copy it. API calls are left alone: an HTTP client without the cookie works
 * with chats that have no owner.
 */
function withOwnerCookie(request: NextRequest, trust: ProxyTrust): NextResponse {
  if (request.cookies.has(ownerCookieName)) return NextResponse.next();
  const ownerId = crypto.randomUUID();
  // The page being rendered already sees the new id, not only the next request.
  request.cookies.set(ownerCookieName, ownerId);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(ownerCookieName, ownerId, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isSecureRequest(request, trust),
    maxAge: 60 * 60 * 24 * 365,
  });
  return response;
}

export const config = {
  // Pages, API routes and server actions; not Next's own assets or static files.
  matcher: ['/((?!_next/|favicon.ico|.*\\.(?:png|svg|ico|css|js)$).*)'],
};
