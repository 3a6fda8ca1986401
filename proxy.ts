import { type NextRequest, NextResponse } from 'next/server';
import { ownerCookieName } from '@/lib/owner-cookie';

/**
 * Gives every browser an opaque owner id on its first page visit. Chats and their
 * approvals belong to that id; the cookie is httpOnly so page scripts cannot read
 * or copy it. API calls are left alone: an HTTP client without the cookie works
 * with chats that have no owner.
 */
export function proxy(request: NextRequest) {
  if (request.cookies.has(ownerCookieName)) return NextResponse.next();
  const ownerId = crypto.randomUUID();
  // The page being rendered already sees the new id, not only the next request.
  request.cookies.set(ownerCookieName, ownerId);
  const response = NextResponse.next({ request: { headers: request.headers } });
  response.cookies.set(ownerCookieName, ownerId, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: request.nextUrl.protocol === 'https:',
    maxAge: 60 * 60 * 24 * 365,
  });
  return response;
}

export const config = {
  // Pages only: not the API, not static assets.
  matcher: ['/((?!api/|_next/|favicon.ico|.*\\.(?:png|svg|ico|css|js)$).*)'],
};
