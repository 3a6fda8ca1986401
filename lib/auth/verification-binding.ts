import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a mailed verification link lasts, and so the browser's binding to it (seconds). */
export const verificationLinkLifeSeconds = 60 * 60;

/** The httpOnly cookie that marks the browser which signed up (or signed in) for an account. */
export const verificationBindingCookieName = 'toolgate.verification-binding';

function signatureOf(secret: string, userId: string, expiresAt: number): string {
  return createHmac('sha256', secret)
    .update(`verification-binding\n${userId}\n${expiresAt}`)
    .digest('base64url');
}

/**
 * The `Set-Cookie` value that lets this browser, and only it, follow `userId`'s verification
 * link: the id, when the binding ends, and an HMAC of both with the auth secret.
 */
export function verificationBindingCookie(secret: string, userId: string, now = Date.now()): string {
  const expiresAt = Math.floor(now / 1000) + verificationLinkLifeSeconds;
  const value = `${expiresAt}.${signatureOf(secret, userId, expiresAt)}.${encodeURIComponent(userId)}`;
  return `${verificationBindingCookieName}=${value}; Path=/api/auth; Max-Age=${verificationLinkLifeSeconds}; HttpOnly; SameSite=Lax`;
}

/**
 * The user id a verification token was made for (its JWT payload's `userId`), or undefined.
 * The signature is not checked here: better-auth checks it when it takes the token.
 */
export function userIdOfVerificationToken(token: string | null): string | undefined {
  const payload = token?.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const userId = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { userId?: unknown })
      .userId;
    return typeof userId === 'string' && userId !== '' ? userId : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the `cookie` request header holds an unexpired binding of this browser to `userId`. */
export function isVerificationBoundTo(
  cookieHeader: string | null,
  secret: string,
  userId: string,
  now = Date.now(),
): boolean {
  const prefix = `${verificationBindingCookieName}=`;
  for (const pair of (cookieHeader ?? '').split(';')) {
    const cookie = pair.trim();
    if (!cookie.startsWith(prefix)) continue;
    const [expires, signature, ...rest] = cookie.slice(prefix.length).split('.');
    const expiresAt = Number(expires);
    if (!Number.isSafeInteger(expiresAt) || expiresAt * 1000 <= now || signature === undefined) continue;
    let boundId: string;
    try {
      boundId = decodeURIComponent(rest.join('.'));
    } catch {
      continue;
    }
    if (boundId !== userId) continue;
    const expected = Buffer.from(signatureOf(secret, userId, expiresAt));
    const given = Buffer.from(signature);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  return false;
}
