import { getSessionCookie } from 'better-auth/cookies';
import { type NextRequest, NextResponse } from 'next/server';

/**
 * Sends a page visit without a session cookie to `/api/auth/guest`, which starts a guest
 * session and comes back: chatting needs no sign-up. API routes are left alone; they
 * answer 401 without a session.
 */
export function proxy(request: NextRequest) {
  if (getSessionCookie(request) !== null) return NextResponse.next();
  const guest = new URL('/api/auth/guest', request.url);
  guest.searchParams.set('redirectUrl', request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(guest, 303);
}

export const config = {
  // Pages only: not the API, not static assets.
  matcher: ['/((?!api/|_next/|favicon.ico|robots.txt|.*\\.(?:png|svg|ico|css|js|txt)$).*)'],
};
