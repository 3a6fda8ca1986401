import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { GET as guest } from '@/app/api/auth/guest/route';
import { POST as chat } from '@/app/api/chat/route';
import { GET as listChats } from '@/app/api/chats/route';
import { proxy } from '@/proxy';
import { jsonRequest, userMessage } from '../support/chat-client';
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
    await configureServer();
    await refused(
      proxy(request('/api/chat', { method: 'POST', headers: { origin: 'https://evil.example' } })),
    );
  });

  it('refuses every state-changing method, a server action included, that the browser marks cross-site', async () => {
    await configureServer();
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
    await configureServer();
    await refused(
      proxy(request('/api/chat/approve', { method: 'POST', headers: { 'sec-fetch-site': 'same-site' } })),
    );
    await refused(proxy(request('/api/chat/approve', { method: 'POST', headers: { origin: 'null' } })));
  });

  it('lets this site’s own pages, HTTP clients without browser headers and reads from anywhere through', async () => {
    await configureServer();
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
    await configureServer({ TOOLGATE_TRUST_PROXY: '1' });
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
    await configureServer();
    await refused(proxy(request('/api/chat', { method: 'POST', headers: fromSite })));
  });

  it('marks session cookies Secure when a trusted proxy says the browser used https', async () => {
    await configureServer({ TOOLGATE_TRUST_PROXY: '1' });
    const overTls = await guest(
      request('/api/auth/guest?redirectUrl=/', { headers: { 'x-forwarded-proto': 'https' } }),
    );
    expect(overTls.headers.getSetCookie().join('\n')).toMatch(/session_token=.*;.*Secure/i);
    const plain = await guest(request('/api/auth/guest?redirectUrl=/'));
    expect(plain.headers.getSetCookie().join('\n')).toMatch(/session_token=/);
    expect(plain.headers.getSetCookie().join('\n')).not.toMatch(/Secure/i);

    await configureServer();
    const untrusted = await guest(
      request('/api/auth/guest?redirectUrl=/', { headers: { 'x-forwarded-proto': 'https' } }),
    );
    expect(untrusted.headers.getSetCookie().join('\n')).not.toMatch(/Secure/i);
  });

  it('sends a page visit without a session to the guest route and back, but leaves API calls to answer 401', async () => {
    await configureServer();
    const page = proxy(request('/chat/abc?x=1'));
    expect(page.status).toBe(303);
    const location = new URL(page.headers.get('location') ?? '');
    expect(location.pathname + location.search).toBe('/api/auth/guest?redirectUrl=%2Fchat%2Fabc%3Fx%3D1');
    expect(passedOn(proxy(request('/api/chats')))).toBe(true);
    const signedIn = proxy(request('/', { headers: { cookie: 'better-auth.session_token=abc' } }));
    expect(passedOn(signedIn)).toBe(true);
  });

  it('starts a guest session that the API accepts, and never redirects off this site', async () => {
    await configureServer();
    const response = await guest(request('/api/auth/guest?redirectUrl=//evil.example/x'));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const chats = await listChats(request('/api/chats', { headers: { cookie } }));
    expect(chats.status).toBe(200);
    expect((await listChats(request('/api/chats'))).status).toBe(401);
  });

  it('serves a Content-Security-Policy that loads images only from this site and the allowed origins', async () => {
    await configureServer({ TOOLGATE_ALLOWED_IMAGE_ORIGINS: 'https://cdn.example.com' });
    const policy =
      proxy(request('/', { headers: { cookie: 'better-auth.session_token=abc' } })).headers.get(
        'content-security-policy',
      ) ?? '';
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

describe('per-client limits', () => {
  it('answer 429 with Retry-After past TOOLGATE_GUEST_RATE_LIMIT and TOOLGATE_TURN_RATE_LIMIT, per forwarded client', async () => {
    await configureServer({
      TOOLGATE_GUEST_RATE_LIMIT: '2/60s',
      TOOLGATE_TURN_RATE_LIMIT: '1/60s',
      TOOLGATE_TRUST_PROXY: '1',
      AGENT_CONFIRM_TOOLS: '',
    });
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    expect((await guest(request('/api/auth/guest?redirectUrl=/', from('203.0.113.7')))).status).toBe(303);
    expect((await guest(request('/api/auth/guest?redirectUrl=/', from('203.0.113.7')))).status).toBe(303);
    const third = await guest(request('/api/auth/guest?redirectUrl=/', from('203.0.113.7')));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client has a budget of its own.
    expect((await guest(request('/api/auth/guest?redirectUrl=/', from('198.51.100.9')))).status).toBe(303);

    // Turns without a forwarded address share one bucket: a route handler sees no socket.
    const turn = (text: string) =>
      chat(jsonRequest('/api/chat', { id: `limited-${text.length}`, message: userMessage(text) }));
    const first = await turn('hello');
    expect(first.status).toBe(200);
    await first.text();
    const second = await turn('hello again');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
