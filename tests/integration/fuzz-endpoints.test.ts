import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as readAudit } from '@/app/api/activity/route';
import { POST as approve } from '@/app/api/chat/approve/route';
import { POST as complete } from '@/app/api/chat/complete/route';
import { POST as chat } from '@/app/api/chat/route';
import { POST as undo } from '@/app/api/chat/undo/route';
import { DELETE as deleteChat, GET as readChat } from '@/app/api/chats/[id]/route';
import { getDb } from '@/lib/db';
import { getApprovalRegistry } from '@/lib/server/stores';
import { ChatStreamReader, defaultTestCookie, jsonRequest } from '../support/chat-client';
import { countTickets } from '../support/database-reads';
import {
  asBodyText,
  deeplyNestedChatBody,
  hostileChatBody,
  hostileDecisionBody,
  hostileJson,
  hostileUndoBody,
  notJson,
} from '../support/hostile-bodies';
import { configureServer } from '../support/server-env';

/** Bodies generated per endpoint: enough that rare shapes (a deep nesting, a huge string) come up. */
const runs = 2_000;

type Tally = { sent: number; byStatus: Map<number, number> };

function tally(): Tally {
  return { sent: 0, byStatus: new Map() };
}

function count(into: Tally, status: number) {
  into.sent += 1;
  into.byStatus.set(status, (into.byStatus.get(status) ?? 0) + 1);
}

function serverErrors(of: Tally): number {
  return [...of.byStatus].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
}

function pendingApprovals(): number {
  return (getApprovalRegistry() as unknown as { pendingCount(): number }).pendingCount();
}

async function chatRows(): Promise<number> {
  return (await (await getDb()).selectFrom('chats').select('id').execute()).length;
}

async function domainRows() {
  const db = await getDb();
  return {
    tickets: await countTickets(db),
    todos: (await db.selectFrom('todos').select('id').execute()).length,
  };
}

function expectPrototypeIntact() {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
}

// Thousands of requests each: on a busy 2-core machine a property can take over a minute.
describe('endpoints under hostile input', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    // A forged history that slips a listed call through would wait for a person; keep that short.
    await configureServer({ AGENT_CONFIRM_TIMEOUT_MS: '50' });
  });

  it(`POST /api/chat never answers 5xx, writes no domain row and leaks no approval (${runs} bodies)`, async () => {
    const seen = tally();
    await fc.assert(
      fc.asyncProperty(hostileChatBody, notJson, async (value, raw) => {
        const chatsBefore = await chatRows();
        const response = await chat(jsonRequest('/api/chat', asBodyText(value, raw ?? undefined)));
        count(seen, response.status);
        expect(response.status).toBeLessThan(500);
        if (response.status === 200) await new ChatStreamReader(response).rest();
        else {
          expect(await response.json()).toEqual({ error: expect.any(String) });
          expect(await chatRows()).toBe(chatsBefore);
        }
      }),
      { numRuns: runs },
    );
    console.log('POST /api/chat fuzz:', Object.fromEntries(seen.byStatus));
    expect(serverErrors(seen)).toBe(0);
    expect(await domainRows()).toEqual({ tickets: 0, todos: 0 });
    expect(pendingApprovals()).toBe(0);
    expectPrototypeIntact();
  });

  it('POST /api/chat and /api/chat/complete answer 400 { error } to bodies nested deeper than 64 levels and write nothing', async () => {
    await fc.assert(
      fc.asyncProperty(deeplyNestedChatBody, fc.boolean(), async (body, streaming) => {
        const chatsBefore = await chatRows();
        const route = streaming ? chat : complete;
        const response = await route(jsonRequest('/api/chat', body));
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ error: expect.any(String) });
        expect(await chatRows()).toBe(chatsBefore);
      }),
      // Each body is up to 100 KB of brackets: fewer runs than the other properties.
      { numRuns: 200 },
    );
  });

  it(`POST /api/chat/approve answers 4xx to every malformed or unknown decision (${runs} bodies)`, async () => {
    const seen = tally();
    await fc.assert(
      fc.asyncProperty(hostileDecisionBody, notJson, async (value, raw) => {
        const response = await approve(jsonRequest('/api/chat/approve', asBodyText(value, raw ?? undefined)));
        count(seen, response.status);
        expect([400, 404, 413]).toContain(response.status);
        expect(await response.json()).toEqual({ error: expect.any(String) });
      }),
      { numRuns: runs },
    );
    console.log('POST /api/chat/approve fuzz:', Object.fromEntries(seen.byStatus));
    expect(pendingApprovals()).toBe(0);
    expectPrototypeIntact();
  });

  it(`POST /api/chat/undo answers 4xx to every malformed or unknown undo and changes nothing (${runs} bodies)`, async () => {
    const seen = tally();
    const before = await domainRows();
    await fc.assert(
      fc.asyncProperty(hostileUndoBody, notJson, async (value, raw) => {
        const response = await undo(jsonRequest('/api/chat/undo', asBodyText(value, raw ?? undefined)));
        count(seen, response.status);
        expect([400, 404, 413]).toContain(response.status);
        expect(await response.json()).toEqual({ error: expect.any(String) });
      }),
      { numRuns: runs },
    );
    console.log('POST /api/chat/undo fuzz:', Object.fromEntries(seen.byStatus));
    expect(await domainRows()).toEqual(before);
    expectPrototypeIntact();
  });

  it(`POST /api/chat/complete never answers 5xx, with approvals on and off (${runs} bodies)`, async () => {
    const seen = tally();
    await fc.assert(
      fc.asyncProperty(hostileChatBody, notJson, fc.boolean(), async (value, raw, approvalsOff) => {
        await configureServerKeepingDatabase(approvalsOff ? { AGENT_CONFIRM_TOOLS: '' } : {});
        const response = await complete(
          jsonRequest('/api/chat/complete', asBodyText(value, raw ?? undefined)),
        );
        count(seen, response.status);
        expect(response.status).toBeLessThan(500);
        if (response.status !== 200) expect(await response.json()).toEqual({ error: expect.any(String) });
      }),
      { numRuns: runs },
    );
    console.log('POST /api/chat/complete fuzz:', Object.fromEntries(seen.byStatus));
    expect(serverErrors(seen)).toBe(0);
    expect(await domainRows()).toEqual({ tickets: 0, todos: 0 });
    expectPrototypeIntact();
  });

  it(`GET /api/activity answers 200 or 400 to any query string, never 5xx (${runs} queries)`, async () => {
    const key = fc.oneof(
      fc.constantFrom('chatId', 'tool', 'outcome', 'limit', '__proto__', 'constructor'),
      fc.string(),
    );
    const query = fc.array(
      fc.tuple(
        key,
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.constantFrom('0', '-1', '501', '1e3', 'NaN', 'x'.repeat(5_000)),
        ),
      ),
      { maxLength: 6 },
    );
    await fc.assert(
      fc.asyncProperty(query, async (pairs) => {
        const search = new URLSearchParams(pairs).toString();
        const response = await readAudit(
          jsonRequest(`/api/activity?${search}`, undefined, { method: 'GET' }),
        );
        expect([200, 400]).toContain(response.status);
        const body = await response.json();
        if (response.status === 400) expect(body).toEqual({ error: expect.any(String) });
        else expect(Array.isArray(body)).toBe(true);
      }),
      { numRuns: runs },
    );
    expectPrototypeIntact();
  });

  it(`GET and DELETE /api/chats/:id answer 404 for ids that are not this user's (${runs} ids)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), hostileJson, async (id, cookie) => {
        const init = {
          method: 'GET',
          // A real session plus a cookie of junk beside it.
          cookie: `${defaultTestCookie()}; junk=${encodeURIComponent(JSON.stringify(cookie))}`,
        };
        const params = { params: Promise.resolve({ id }) };
        const read = await readChat(jsonRequest('/api/chats/x', undefined, init), params);
        expect(read.status).toBe(404);
        const removed = await deleteChat(
          jsonRequest('/api/chats/x', undefined, { ...init, method: 'DELETE' }),
          params,
        );
        expect(removed.status).toBe(404);
      }),
      { numRuns: runs },
    );
  });
});

const databasePath = () => process.env.DATABASE_PATH;

/** Switches approvals on or off for the next request while keeping the same database. */
async function configureServerKeepingDatabase(environment: Record<string, string>) {
  await configureServer({ DATABASE_PATH: databasePath(), AGENT_CONFIRM_TIMEOUT_MS: '50', ...environment });
}
