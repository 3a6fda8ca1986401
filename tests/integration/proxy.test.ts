import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { proxy } from '@/proxy';
import { configureServer } from '../support/server-env';

/** A request as it reaches the proxy of the app served at http://127.0.0.1:3000. */
function request(
  path: string,
  { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
) {
  return new NextRequest(`http://127.0.0.1:3000${path}`, {
    method,
    headers: { host: '127.0.0.1:3000', ...headers },
  });
}

async function refused(response: Response) {
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({ error: expect.stringMatching(/cross-site/i) });
}

// NextResponse.next() answers 200 with this header; the request goes on to the route.
const passedOn = (response: Response) => response.headers.get('x-middleware-next') === '1';

describe('proxy', () => {
  it('refuses a POST to the chat API whose Origin is another site', async () => {
    configureServer();
    await refused(
      proxy(request('/api/chat', { method: 'POST', headers: { origin: 'https://evil.example' } })),
    );
  });

  it('refuses every state-changing method, a server action included, that the browser marks cross-site', async () => {
    configureServer();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      await refused(
        proxy(request('/api/chats/abc', { method, headers: { 'sec-fetch-site': 'cross-site' } })),
      );
    }
    await refused(
      proxy(
        request('/', {
          method: 'POST',
          headers: { 'next-action': 'abc123', 'sec-fetch-site': 'cross-site' },
        }),
      ),
    );
  });

  it('refuses a sibling subdomain and an opaque origin', async () => {
    configureServer();
    await refused(
      proxy(request('/api/chat/approve', { method: 'POST', headers: { 'sec-fetch-site': 'same-site' } })),
    );
    await refused(proxy(request('/api/chat/approve', { method: 'POST', headers: { origin: 'null' } })));
  });

  it('lets this site’s own pages, HTTP clients without browser headers and reads from anywhere through', () => {
    configureServer();
    const sameSite = { origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' };
    expect(passedOn(proxy(request('/api/chat', { method: 'POST', headers: sameSite })))).toBe(true);
    expect(passedOn(proxy(request('/api/chat', { method: 'POST' })))).toBe(true);
    expect(passedOn(proxy(request('/api/todos', { headers: { origin: 'https://evil.example' } })))).toBe(
      true,
    );
  });

  it('knows the site by X-Forwarded-Host and -Proto behind a trusted proxy, and ignores them otherwise', async () => {
    const behindProxy = {
      host: '127.0.0.1:3000',
      'x-forwarded-host': 'chat.example.com',
      'x-forwarded-proto': 'https',
    };
    configureServer({ TOOLGATE_TRUST_PROXY: '1' });
    const fromSite = { ...behindProxy, origin: 'https://chat.example.com' };
    expect(passedOn(proxy(request('/api/chat', { method: 'POST', headers: fromSite })))).toBe(true);
    // Same host, other scheme: a page served over plain http is not this site.
    await refused(
      proxy(
        request('/api/chat', {
          method: 'POST',
          headers: { ...behindProxy, origin: 'http://chat.example.com' },
        }),
      ),
    );

    // Untrusted, the forwarded host is anyone's claim: the Host header decides.
    configureServer();
    await refused(proxy(request('/api/chat', { method: 'POST', headers: fromSite })));
  });

  it('marks the owner cookie Secure when a trusted proxy says the browser used https', () => {
    configureServer({ TOOLGATE_TRUST_PROXY: '1' });
    const overTls = proxy(request('/', { headers: { 'x-forwarded-proto': 'https' } }));
    expect(overTls.headers.get('set-cookie')).toMatch(/toolgate_owner=.*;.*Secure/i);
    const plain = proxy(request('/'));
    expect(plain.headers.get('set-cookie')).toMatch(/toolgate_owner=/);
    expect(plain.headers.get('set-cookie')).not.toMatch(/Secure/i);

    configureServer();
    expect(
      proxy(request('/', { headers: { 'x-forwarded-proto': 'https' } })).headers.get('set-cookie'),
    ).not.toMatch(/Secure/i);
  });

  it('gives pages an owner cookie but not API calls', () => {
    configureServer();
    expect(proxy(request('/')).headers.get('set-cookie')).toMatch(/toolgate_owner=[0-9a-f-]{36};.*HttpOnly/i);
    expect(proxy(request('/api/chats')).headers.get('set-cookie')).toBeNull();
  });

  it('serves a Content-Security-Policy that loads images only from this site and the allowed origins', () => {
    configureServer({ TOOLGATE_ALLOWED_IMAGE_ORIGINS: 'https://cdn.example.com' });
    const policy = proxy(request('/')).headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      policy.split(';').map((directive) => {
        const [name, ...sources] = directive.trim().split(/\s+/);
        return [name, sources];
      }),
    );
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://cdn.example.com']);
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'self'"]);
    expect(directives['form-action']).toEqual(["'self'"]);
    expect(directives['script-src']).not.toContain("'unsafe-eval'");
  });
});
