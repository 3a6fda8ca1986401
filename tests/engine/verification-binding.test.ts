import { describe, expect, it } from 'vitest';
import {
  isVerificationBoundTo,
  userIdOfVerificationToken,
  verificationBindingCookie,
} from '@/lib/auth/verification-binding';
import { mailboxOf } from '../../packages/engine/src/shared/normalize-email';

const secret = 'a secret long enough for the test';
const now = Date.UTC(2026, 11, 1, 12);

/** The `cookie` request header a browser sends back for `setCookie`. */
function sentBack(setCookie: string): string {
  return setCookie.split(';')[0] as string;
}

describe('verificationBindingCookie', () => {
  it('is httpOnly, SameSite=Lax, for /api/auth only, and lasts an hour', () => {
    const cookie = verificationBindingCookie(secret, 'user-1', now);
    expect(cookie).toMatch(/; Path=\/api\/auth; Max-Age=3600; HttpOnly; SameSite=Lax$/);
  });
});

describe('isVerificationBoundTo', () => {
  const cookie = sentBack(verificationBindingCookie(secret, 'user-1', now));

  it('binds the browser to the account it was set for, beside other cookies', () => {
    expect(isVerificationBoundTo(`other=1; ${cookie}`, secret, 'user-1', now)).toBe(true);
    expect(isVerificationBoundTo(cookie, secret, 'user-2', now)).toBe(false);
    expect(isVerificationBoundTo(null, secret, 'user-1', now)).toBe(false);
  });

  it('refuses a binding after its hour, under another secret, or with its id or signature changed', () => {
    expect(isVerificationBoundTo(cookie, secret, 'user-1', now + 3_600_000)).toBe(false);
    expect(isVerificationBoundTo(cookie, 'another secret entirely', 'user-1', now)).toBe(false);
    expect(isVerificationBoundTo(cookie.replace(/user-1$/, 'user-2'), secret, 'user-2', now)).toBe(false);
    const [name, value] = cookie.split('=') as [string, string];
    const [expires, signature] = value.split('.') as [string, string];
    const later = `${name}=${Number(expires) + 3600}.${signature}.user-1`;
    expect(isVerificationBoundTo(later, secret, 'user-1', now + 3_600_000)).toBe(false);
  });
});

describe('userIdOfVerificationToken', () => {
  it('reads the userId of a token’s payload, and nothing from anything else', () => {
    const payload = Buffer.from(JSON.stringify({ email: 'a@example.com', userId: 'user-1' })).toString(
      'base64url',
    );
    expect(userIdOfVerificationToken(`header.${payload}.signature`)).toBe('user-1');
    const noUser = Buffer.from(JSON.stringify({ email: 'a@example.com' })).toString('base64url');
    expect(userIdOfVerificationToken(`header.${noUser}.signature`)).toBeUndefined();
    expect(userIdOfVerificationToken('not a token')).toBeUndefined();
    expect(userIdOfVerificationToken('a.%%%.b')).toBeUndefined();
    expect(userIdOfVerificationToken(null)).toBeUndefined();
  });
});

describe('mailboxOf', () => {
  it('counts every +tag and spelling of an address as one mailbox', () => {
    expect(mailboxOf('Ann+news@Example.com')).toBe('ann@example.com');
    expect(mailboxOf(' ann@example.com ')).toBe('ann@example.com');
    expect(mailboxOf('ａnn+x@example.com')).toBe('ann@example.com');
    expect(mailboxOf('+only@example.com')).toBe('+only@example.com');
  });
});
