import { describe, expect, it } from 'vitest';
import { computeRoles } from '@/lib/auth/compute-roles';
import { parseConfig } from '@/lib/config';

describe('parseConfig for accounts', () => {
  it('turns the sign-in and guest limits on by default', () => {
    const config = parseConfig({});
    expect(config.TOOLGATE_GUEST_RATE_LIMIT).toEqual({ points: 30, windowMs: 600_000 });
    expect(config.TOOLGATE_SIGNIN_RATE_LIMIT).toEqual({ points: 30, windowMs: 600_000 });
    expect(config.TOOLGATE_SIGNIN_FAILURE_LIMIT).toEqual({ points: 10, windowMs: 900_000 });
    expect(config.TOOLGATE_VERIFICATION_MAIL_LIMIT).toEqual({ points: 5, windowMs: 3_600_000 });
    expect(config.TOOLGATE_ALLOW_UNVERIFIED_SIGNUP).toBe(false);
    expect(config.SMTP_URL).toBeUndefined();
  });

  it('names the variable of a bad limit or mail URL', () => {
    expect(() => parseConfig({ TOOLGATE_SIGNIN_FAILURE_LIMIT: 'lots' })).toThrow(
      /TOOLGATE_SIGNIN_FAILURE_LIMIT/,
    );
    expect(() => parseConfig({ SMTP_URL: 'mail.example.com' })).toThrow(/SMTP_URL must be an smtp:\/\//);
    expect(() => parseConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toThrow(
      /SMTP_URL needs BETTER_AUTH_URL/,
    );
    expect(() => parseConfig({ TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: 'yes' })).toThrow(
      /TOOLGATE_ALLOW_UNVERIFIED_SIGNUP/,
    );
  });

  it('normalises admin emails: trimmed, lower-cased, NFKC', () => {
    const config = parseConfig({ TOOLGATE_ADMIN_EMAILS: ' Boss@Example.com , ｏｐｓ@example.com' });
    expect([...config.TOOLGATE_ADMIN_EMAILS]).toEqual(['boss@example.com', 'ops@example.com']);
  });
});

describe('computeRoles', () => {
  const admins = new Set(['boss@example.com']);

  it('gives an unverified email and a guest no role, whatever is stored or listed', () => {
    expect(
      computeRoles(
        { email: 'Boss@example.com', emailVerified: false, isAnonymous: false },
        ['supervisor'],
        admins,
      ),
    ).toEqual([]);
    expect(
      computeRoles({ email: 'boss@example.com', emailVerified: true, isAnonymous: true }, ['admin'], admins),
    ).toEqual([]);
  });

  it('adds admin for a verified listed email, in any case, to the stored roles', () => {
    expect(
      computeRoles(
        { email: 'BOSS@example.com', emailVerified: true, isAnonymous: false },
        ['supervisor'],
        admins,
      ),
    ).toEqual(['admin', 'supervisor']);
    expect(
      computeRoles({ email: 'other@example.com', emailVerified: true, isAnonymous: false }, [], admins),
    ).toEqual([]);
  });
});
