import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NextServer, startNextServer } from '../support/next-server';

/** POSTs JSON from a chosen local address (any 127.x address reaches the server on Linux). */
function post(
  server: NextServer,
  path: string,
  body: unknown,
  { from, headers = {} }: { from: string; headers?: Record<string, string> },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: 'POST',
        localAddress: from,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          origin: server.url,
          ...headers,
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.once('error', reject);
    request.end(payload);
  });
}

/*
 * Under `next start`, limits key on the socket's address: headers a client writes
 * (X-Forwarded-For, or the server's own address header) buy no fresh budget.
 */
describe('client address under next start', () => {
  let server: NextServer;

  beforeAll(async () => {
    server = await startNextServer({
      DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'toolgate-address-')), 'toolgate.db'),
      TOOLGATE_SIGNIN_RATE_LIMIT: '3/60s',
      TOOLGATE_GUEST_RATE_LIMIT: '3/60s',
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  const spoofed = (attempt: number) => ({
    'x-forwarded-for': `198.51.100.${attempt}`,
    'x-toolgate-client-address': `192.0.2.${attempt}`,
  });

  it('counts sign-in attempts per socket address, whatever forwarded headers say', async () => {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await post(
        server,
        '/api/auth/sign-in/email',
        { email: `nobody${attempt}@example.com`, password: 'a long wrong passphrase' },
        { from: '127.0.0.1', headers: spoofed(attempt) },
      );
      expect(response.status, response.body).toBe(401);
    }
    const fourth = await post(
      server,
      '/api/auth/sign-in/email',
      { email: 'nobody4@example.com', password: 'a long wrong passphrase' },
      { from: '127.0.0.1', headers: spoofed(4) },
    );
    expect(fourth.status).toBe(429);
    expect(JSON.parse(fourth.body)).toEqual({ error: expect.stringMatching(/this address/) });

    // Another socket address has a budget of its own.
    const elsewhere = await post(
      server,
      '/api/auth/sign-in/email',
      { email: 'nobody5@example.com', password: 'a long wrong passphrase' },
      { from: '127.0.0.2' },
    );
    expect(elsewhere.status).toBe(401);
  });

  it('counts new guest sessions per socket address', async () => {
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await post(
        server,
        '/api/auth/sign-in/anonymous',
        {},
        { from: '127.0.0.3', headers: spoofed(attempt) },
      );
      expect(response.status, response.body).toBe(200);
    }
    const fourth = await post(
      server,
      '/api/auth/sign-in/anonymous',
      {},
      { from: '127.0.0.3', headers: spoofed(4) },
    );
    expect(fourth.status).toBe(429);
  });

  it('refuses email sign-up when no verification mail can be sent', async () => {
    const response = await post(
      server,
      '/api/auth/sign-up/email',
      { email: 'new@example.com', password: 'a long unusual passphrase', name: 'New' },
      { from: '127.0.0.4' },
    );
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({ error: expect.stringMatching(/SMTP_URL/) });
  });
});
