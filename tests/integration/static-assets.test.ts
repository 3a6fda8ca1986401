import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NextServer, startNextServer } from '../support/next-server';

/* Files every browser asks for on its own, served by a production build. */
describe('static assets', () => {
  let server: NextServer;

  beforeAll(async () => {
    server = await startNextServer({
      DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'toolgate-static-')), 'toolgate.db'),
      AI_MODEL: 'offline',
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('serves /favicon.ico as an icon, not the not-found page, without a session', async () => {
    const response = await fetch(`${server.url}/favicon.ico`, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    // An ICO file starts with reserved 0, type 1 (icon).
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]);
  });
});
