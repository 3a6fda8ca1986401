import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { userMessage } from '../support/chat-client';
import { sessionFetch, signInAsGuest } from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';
import { cookieHeaderOf } from '../support/server-env';
import { createEmptyDatabase, databaseEngines, type EmptyDatabase } from '../support/test-database';

const run = promisify(execFile);
const adminEmail = 'chain-auditor@example.com';
const turnsPerServer = 8;

/** Signs the admin up (unverified sign-ups allowed), then verifies the email as an operator does. */
async function signUpAdmin(server: NextServer, environment: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: adminEmail, password: 'a long unusual passphrase', name: 'auditor' }),
  });
  expect(response.status).toBe(200);
  await run('node_modules/.bin/tsx', ['scripts/users.ts', 'verify', adminEmail], {
    env: { ...process.env, ...environment },
  });
  return cookieHeaderOf(response);
}

async function completeTurn(server: NextServer, chatId: string, text: string): Promise<void> {
  const response = await sessionFetch(`${server.url}/api/chat/complete`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: chatId, messages: [userMessage(text)] }),
  });
  expect(response.status).toBe(200);
  await response.json();
}

/*
 * Two production servers on one database, each writing audit rows at the same time:
 * the chain must come out as one line, which the CLI verifies, whichever server exports it.
 */
describe.each(databaseEngines)('two instances on one %s database', (engine) => {
  let target: EmptyDatabase | undefined;
  let servers: NextServer[] = [];

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];
    await target?.drop();
  });

  it('write one audit chain between them, and the export verifies', async () => {
    target = await createEmptyDatabase(engine);
    const environment = {
      ...(target.environment as Record<string, string>),
      AI_MODEL: 'offline',
      OFFLINE_MODEL_DELAY_MS: '0',
      AGENT_CONFIRM_TOOLS: '',
      TOOLGATE_ADMIN_EMAILS: adminEmail,
      TOOLGATE_ALLOW_UNVERIFIED_SIGNUP: '1',
    };
    // The first migrates the database; the second finds it ready.
    servers.push(await startNextServer(environment));
    servers.push(await startNextServer(environment));
    const [a, b] = servers;
    await signInAsGuest(a.url);
    await Promise.all(
      servers.flatMap((server, index) =>
        Array.from({ length: turnsPerServer }, (_, turn) =>
          completeTurn(server, `chain-${index}-${turn}`, `add a todo: item ${index}-${turn}`),
        ),
      ),
    );

    const admin = await signUpAdmin(a, environment);
    const response = await sessionFetch(`${b.url}/api/audit/export`, { cookie: admin });
    expect(response.status).toBe(200);
    const text = await response.text();
    const rows = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { seq: number; chatId: string });
    expect(rows.map((row) => row.seq)).toEqual(
      Array.from({ length: 2 * turnsPerServer }, (_, index) => index + 1),
    );
    expect(new Set(rows.map((row) => row.chatId)).size).toBe(2 * turnsPerServer);

    const file = join(mkdtempSync(join(tmpdir(), 'toolgate-chain-')), 'export.jsonl');
    writeFileSync(file, text);
    const { stdout } = await run('npm', ['run', '--silent', 'audit:verify', '--', file]);
    expect(stdout).toContain(`${2 * turnsPerServer} rows chain`);
  }, 240_000);
});
