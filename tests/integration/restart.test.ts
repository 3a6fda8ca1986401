import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guestCookie, postChat, postDecision, singleMessageChat } from '../support/http-chat';
import { type NextServer, startNextServer } from '../support/next-server';

/*
 * Kills a production server (SIGKILL) while a card waits and starts it again on the
 * same SQLite file, without Redis. The approval is a database row, so the person's
 * decision still counts: allow runs the tool exactly once and the model replies.
 * Everything written stays.
 */
describe('a server restart', () => {
  let cookie: string;
  const environment = {
    DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'toolgate-restart-')), 'toolgate.db'),
    AI_MODEL: 'offline',
    OFFLINE_MODEL_DELAY_MS: '0',
  };
  let server: NextServer | undefined;

  afterAll(async () => {
    await server?.stop();
  });

  async function getJson(path: string) {
    if (server === undefined) throw new Error('no server');
    return (await fetch(`${server.url}${path}`, { headers: { cookie } })).json();
  }

  it('keeps tickets, todos and chats, and a card that waited through the crash can still be allowed, once', async () => {
    server = await startNextServer(environment);
    cookie = await guestCookie(server.url);
    const todo = await postChat(
      server.url,
      singleMessageChat('restart-todo', 'add a todo: survive a restart'),
      {
        cookie,
      },
    );
    await todo.rest();

    const ticket = await postChat(server.url, singleMessageChat('restart-ticket', 'create a ticket: kept'), {
      cookie,
    });
    const allowed = await ticket.until('tool-approval-request');
    await postDecision(
      server.url,
      { approvalId: allowed.approvalId, sessionId: 'restart-ticket', approved: true },
      { cookie },
    );
    await ticket.rest();

    const pending = await postChat(
      server.url,
      singleMessageChat('restart-pending', 'create a ticket: survives the crash'),
      {
        cookie,
      },
    ).catch((error: unknown) => {
      throw error;
    });
    const waiting = await pending.until('tool-approval-request');

    const { port } = server;
    server.process.kill('SIGKILL');
    await new Promise((resolve) => server?.process.once('exit', resolve));
    server = await startNextServer(environment, port);

    const decision = await postDecision(
      server.url,
      { approvalId: waiting.approvalId, sessionId: 'restart-pending', approved: true },
      { cookie },
    );
    expect(await decision.json()).toMatchObject({ status: 'approved' });
    const again = await postDecision(
      server.url,
      { approvalId: waiting.approvalId, sessionId: 'restart-pending', approved: true },
      { cookie },
    );
    expect(again.status).toBe(404);

    // The continuation runs the tool and the model replies; the reply is saved.
    await expect
      .poll(async () => JSON.stringify((await getJson('/api/chats/restart-pending')).messages.at(-1)), {
        timeout: 20_000,
      })
      .toMatch(/TK-\d{6}[\s\S]*TK-\d{6}/);
    const tickets = await getJson('/api/tickets');
    expect(tickets.map((row: { title: string }) => row.title)).toEqual(['survives the crash', 'kept']);
    const todos = await getJson('/api/todos');
    expect(todos.map((row: { title: string }) => row.title)).toEqual(['survive a restart']);
    const chats = await getJson('/api/chats');
    expect(chats.map((chat: { id: string }) => chat.id).sort()).toEqual([
      'restart-pending',
      'restart-ticket',
      'restart-todo',
    ]);
    const saved = await getJson('/api/chats/restart-ticket');
    expect(saved.messages.length).toBeGreaterThanOrEqual(2);
  });

  it('expires a card that waited through the crash on time after the restart, though nobody opens its chat', async () => {
    const shortEnvironment = {
      ...environment,
      DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'toolgate-restart-')), 'toolgate.db'),
      AGENT_CONFIRM_TIMEOUT_MS: '2000',
    };
    await server?.stop();
    server = await startNextServer(shortEnvironment);
    cookie = await guestCookie(server.url);
    const pending = await postChat(
      server.url,
      singleMessageChat('restart-expire', 'create a ticket: too late'),
      {
        cookie,
      },
    );
    const waiting = await pending.until('tool-approval-request');
    const { port } = server;
    server.process.kill('SIGKILL');
    await new Promise((resolve) => server?.process.once('exit', resolve));
    server = await startNextServer(shortEnvironment, port);

    // The activity log settles nothing on read: only the restarted server's own timer can.
    await expect
      .poll(async () => (await getJson('/api/activity')).map((row: { outcome: string }) => row.outcome), {
        timeout: 20_000,
      })
      .toEqual(['timeout']);
    const late = await postDecision(
      server.url,
      { approvalId: waiting.approvalId, sessionId: 'restart-expire', approved: true },
      { cookie },
    );
    expect(late.status).toBe(404);
    const saved = await getJson('/api/chats/restart-expire');
    expect(JSON.stringify(saved.messages.at(-1))).toContain('output-denied');
  });

  it('ends the streams a page holds open when asked to stop (SIGTERM), exits at once, and the card waits for the next start', async () => {
    await server?.stop();
    server = await startNextServer(environment);
    cookie = await guestCookie(server.url);
    const turn = await postChat(
      server.url,
      singleMessageChat('restart-stop', 'create a ticket: through a stop'),
      {
        cookie,
      },
    );
    const waiting = await turn.until('tool-approval-request');
    const events = await fetch(`${server.url}/api/approvals/events?chatId=restart-stop`, {
      headers: { cookie },
    });
    expect(events.status).toBe(200);
    const eventsEnded = events.text();

    const { port } = server;
    const stoppedAt = Date.now();
    const exited = new Promise((resolve) => server?.process.once('exit', resolve));
    server.process.kill('SIGTERM');
    // Both streams end without the client letting go, and the process does not wait on them.
    await Promise.all([turn.rest(), eventsEnded]);
    await exited;
    // Next.js takes about 3 s to stop with nothing open; the streams would have held it for minutes.
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);

    server = await startNextServer(environment, port);
    const decision = await postDecision(
      server.url,
      { approvalId: waiting.approvalId, sessionId: 'restart-stop', approved: true },
      { cookie },
    );
    expect(await decision.json()).toMatchObject({ status: 'approved' });
    await expect
      .poll(async () => (await getJson('/api/tickets')).map((row: { title: string }) => row.title), {
        timeout: 20_000,
      })
      .toContain('through a stop');
  });
});
