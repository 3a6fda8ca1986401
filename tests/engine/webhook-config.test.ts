import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';

describe('parseConfig: the approval webhook', () => {
  const secret = 'a-webhook-secret-of-32-characters';

  it('is off unless TOOLGATE_APPROVAL_WEBHOOK_URL is set', () => {
    const config = parseConfig({});
    expect(config.TOOLGATE_APPROVAL_WEBHOOK_URL).toBeUndefined();
    expect(config.TOOLGATE_WEBHOOK_SECRET).toBeUndefined();
  });

  it('takes an http(s) URL with its secret', () => {
    const config = parseConfig({
      TOOLGATE_APPROVAL_WEBHOOK_URL: 'https://hooks.example.com/toolgate',
      TOOLGATE_WEBHOOK_SECRET: secret,
    });
    expect(config.TOOLGATE_APPROVAL_WEBHOOK_URL).toBe('https://hooks.example.com/toolgate');
    expect(config.TOOLGATE_WEBHOOK_SECRET).toBe(secret);
  });

  it('refuses to start with a URL but no secret, so no delivery goes out unsigned', () => {
    expect(() =>
      parseConfig({ TOOLGATE_APPROVAL_WEBHOOK_URL: 'https://hooks.example.com/toolgate' }),
    ).toThrow(/TOOLGATE_APPROVAL_WEBHOOK_URL needs TOOLGATE_WEBHOOK_SECRET/);
  });

  it('refuses a URL that is not http(s), and a short secret', () => {
    for (const url of ['ftp://hooks.example.com/x', 'hooks.example.com/x', 'javascript:alert(1)'])
      expect(() =>
        parseConfig({ TOOLGATE_APPROVAL_WEBHOOK_URL: url, TOOLGATE_WEBHOOK_SECRET: secret }),
      ).toThrow(/TOOLGATE_APPROVAL_WEBHOOK_URL must be an http:\/\/ or https:\/\/ URL/);
    expect(() =>
      parseConfig({
        TOOLGATE_APPROVAL_WEBHOOK_URL: 'https://hooks.example.com/x',
        TOOLGATE_WEBHOOK_SECRET: 'short',
      }),
    ).toThrow(/TOOLGATE_WEBHOOK_SECRET must be at least 16 characters/);
  });
});
