import { mkdtempSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatStreamReader } from '../support/chat-client';
import { guestCookie } from '../support/http-chat';
import { freePort, type NextServer, startNextServer } from '../support/next-server';

/*
 * Over HTTP against the production build: what a scanner or an attacker's script sees,
 * headers included, and whether one user's hostile message holds up everyone else.
 */
describe('the production server under hostile use', () => {
  let server: NextServer;
  let attacker: string;
  let bystander: string;

  beforeAll(async () => {
    const port = await freePort();
    server = await startNextServer(
      {
        DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'toolgate-hygiene-')), 'toolgate.db'),
        // Served over http: without it better-auth marks every cookie Secure in production,
        // whatever the request says, which would hide what the request's headers do.
        BETTER_AUTH_URL: `http://127.0.0.1:${port}`,
        AI_MODEL: 'offline',
        OFFLINE_MODEL_DELAY_MS: '0',
        // A hostile message that reads as a ticket request must not wait a minute for a person.
        AGENT_CONFIRM_TOOLS: '',
      },
      port,
    );
    attacker = await guestCookie(server.url);
    bystander = await guestCookie(server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  const post = (path: string, body: string, cookie: string) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body,
    });

  describe('headers', () => {
    function expectHardened(response: Response) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('x-powered-by')).toBeNull();
    }

    it('sends nosniff, a Referrer-Policy and no X-Powered-By on pages', async () => {
      const page = await fetch(`${server.url}/`, { headers: { cookie: bystander } });
      expect(page.status).toBe(200);
      expectHardened(page);
    });

    it('marks authenticated JSON answers Cache-Control: no-store, errors and refusals included', async () => {
      const answers = [
        await fetch(`${server.url}/api/chats`, { headers: { cookie: bystander } }),
        await fetch(`${server.url}/api/meta`, { headers: { cookie: bystander } }),
        await post('/api/chat', '{', bystander),
        await fetch(`${server.url}/api/chats`),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 400, 401]);
      for (const answer of answers) {
        expectHardened(answer);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
        // The chat route's answers, its errors included, are also never re-encoded (see below).
        const chat = new URL(answer.url).pathname === '/api/chat';
        expect(answer.headers.get('cache-control')).toBe(chat ? 'no-store, no-transform' : 'no-store');
        await answer.body?.cancel();
      }
    });

    it('marks the chat stream Cache-Control: no-store too, and sends it uncompressed, chunk by chunk', async () => {
      const body = JSON.stringify({
        id: 'headers-stream',
        message: { id: 'headers-m', role: 'user', parts: [{ type: 'text', text: 'hello' }] },
      });
      const response = await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'accept-encoding': 'gzip, deflate',
          cookie: bystander,
        },
        body,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expectHardened(response);
      expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
      expect(response.headers.get('content-encoding')).toBeNull();
      await new ChatStreamReader(response).rest();
      const resumed = await fetch(`${server.url}/api/chat/headers-stream/stream`, {
        headers: { 'accept-encoding': 'gzip, deflate', cookie: bystander },
      });
      expect(resumed.headers.get('cache-control')).toBe('no-store, no-transform');
      expect(resumed.headers.get('content-encoding')).toBeNull();
      await resumed.body?.cancel();
    });
  });

  it('answers an /api path no route serves with a JSON 404 for every method, and leaves real routes alone', async () => {
    for (const [method, path] of [
      ['GET', '/api/nope'],
      ['GET', '/api/chats/abc/nope/deeper'],
      ['POST', '/api/nope'],
      ['DELETE', '/api/approvals/x/y/z'],
      ['PUT', '/api/tickets/1'],
    ] as const) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', origin: server.url },
        body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
      });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
      expect(await response.json(), `${method} ${path}`).toEqual({ error: expect.any(String) });
    }
    // A route that exists still answers for itself (no session: 401, not the catch-all's 404).
    const tickets = await fetch(`${server.url}/api/tickets`);
    expect(tickets.status).toBe(401);
    // Pages outside /api keep Next's own not-found page.
    const page = await fetch(`${server.url}/no-such-page`, { redirect: 'manual' });
    expect(page.headers.get('content-type') ?? '').not.toMatch(/^application\/json/);
  });

  describe('malformed requests', () => {
    /** A raw request (fetch refuses TRACE itself), its status, headers and body. */
    function raw(method: string, path: string, headers: Record<string, string> = {}) {
      return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>(
        (resolve, reject) => {
          const { hostname, port } = new URL(server.url);
          const request = httpRequest({ hostname, port, path, method, headers }, (response) => {
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk) => {
              body += chunk;
            });
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
            );
          });
          request.on('error', reject);
          request.end();
        },
      );
    }

    it('answers a path with a malformed % escape 400 { error }, an API route and a page alike', async () => {
      for (const path of ['/api/chats/%E0%A4%A', '/chat/%E0%A4%A', '/api/approvals/%ZZ']) {
        const answer = await raw('GET', path, { cookie: bystander });
        expect(answer.status, path).toBe(400);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/% escape/) });
      }
    });

    it('answers TRACE and other methods the app does not serve 405 { error }', async () => {
      for (const method of ['TRACE', 'PROPFIND', 'LINK']) {
        const answer = await raw(method, '/api/chats', { cookie: bystander });
        expect(answer.status, method).toBe(405);
        expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/not allowed/) });
        expect(answer.body).not.toMatch(/at .*\.js/);
      }
    });

    it('answers a request target that is not a path (OPTIONS *) 400 { error }', async () => {
      for (const method of ['OPTIONS', 'GET', 'POST']) {
        const answer = await raw(method, '*');
        expect(answer.status, method).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/must be a path/) });
      }
    });

    it('does not mark cookies Secure for a client’s own X-Forwarded-Proto without TOOLGATE_TRUST_PROXY', async () => {
      for (const path of ['/api/auth/guest?redirectUrl=/', '/api/auth/sign-in/anonymous']) {
        const method = path.startsWith('/api/auth/guest') ? 'GET' : 'POST';
        const answer = await raw(method, path, {
          'x-forwarded-proto': 'https',
          ...(method === 'POST' && { 'content-type': 'application/json', 'content-length': '0' }),
        });
        const cookies = answer.headers['set-cookie'] ?? [];
        expect(cookies.join('\n'), path).toMatch(/session_token=/);
        expect(cookies.join('\n'), path).not.toMatch(/;\s*secure/i);
      }
    });
  });

  describe('one hostile message', () => {
    /** Latin, CJK, Arabic, Cyrillic, digits, emoji and punctuation, mixed the way a tagger hates. */
    function mixedScripts(length: number): string {
      const words = [
        'order A1001',
        '退款',
        '工单：',
        'مرحبا',
        'привет',
        '🎉',
        'ticket',
        '“quoted”',
        '42',
        '。',
        'über',
      ];
      let text = '';
      for (let index = 0; text.length < length; index += 1) text += `${words[index % words.length]} `;
      return text.slice(0, length);
    }

    const body = (id: string, texts: string[]) =>
      JSON.stringify({
        id,
        message: { id: `${id}-m`, role: 'user', parts: texts.map((text) => ({ type: 'text', text })) },
      });

    /**
     * Sends `hostile` as the attacker and, while it is in flight, the bystander's requests one
     * after another (for at most a minute); returns the slowest bystander answer in
     * milliseconds and the hostile request's status (undefined when it had not finished).
     */
    async function bystanderLatencyDuring(
      hostile: string,
    ): Promise<{ status: number | undefined; slowestMs: number }> {
      const giveUp = new AbortController();
      let settled = false;
      const attack = fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: attacker },
        body: hostile,
        signal: giveUp.signal,
      })
        .then(async (response) => {
          if (response.status === 200) await new ChatStreamReader(response).rest();
          else await response.text();
          return response.status;
        })
        .catch(() => undefined)
        .finally(() => {
          settled = true;
        });
      const latencies: number[] = [];
      const deadline = performance.now() + 60_000;
      // At least three probes, and on until the hostile request has been answered in full.
      while ((!settled || latencies.length < 3) && performance.now() < deadline) {
        const started = performance.now();
        try {
          const response = await fetch(`${server.url}/api/chats`, {
            headers: { cookie: bystander },
            signal: AbortSignal.timeout(30_000),
          });
          await response.text();
          expect(response.status).toBe(200);
        } catch {
          // A probe that gave up counts with its whole wait.
        }
        latencies.push(performance.now() - started);
      }
      giveUp.abort();
      return { status: await attack, slowestMs: Math.max(...latencies) };
    }

    it('refuses 50 parts of 8,000 characters at once, and another user is answered within 1 s meanwhile', async () => {
      const hostile = body(
        'hostile-50',
        Array.from({ length: 50 }, (_, index) => mixedScripts(8_000 - index)),
      );
      const { status, slowestMs } = await bystanderLatencyDuring(hostile);
      expect(slowestMs).toBeLessThan(1_000);
      expect(status).toBe(400);
    });

    // Within every limit, so the turn runs: this needs the offline model to read its input in
    // linear time (its title tagger was quadratic in the input's length).
    it('runs a part of 8,000 characters of mixed scripts while another user is answered within 1 s', async () => {
      const { status, slowestMs } = await bystanderLatencyDuring(
        body('hostile-mixed', [mixedScripts(8_000)]),
      );
      expect(slowestMs).toBeLessThan(1_000);
      expect(status).toBe(200);
    }, 120_000);

    it('runs a message just under the per-message cap while another user is answered within 1 s', async () => {
      const texts = [mixedScripts(8_000), mixedScripts(8_000), mixedScripts(7_999)];
      const { status, slowestMs } = await bystanderLatencyDuring(body('hostile-cap', texts));
      expect(slowestMs).toBeLessThan(1_000);
      expect(status).toBe(200);
    }, 120_000);
  });
});
