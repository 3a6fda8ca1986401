import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { GET as decidedByMe } from '@/app/api/approvals/decided/route';
import { GET as approvalEvents } from '@/app/api/approvals/events/route';
import { GET as listApprovals } from '@/app/api/approvals/route';
import { getDb, migrate, migrations } from '@/lib/db';
import { revokeRoleOf, signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { askForApproval, decideAs } from '../support/approval-requests';
import { getRequest, jsonRequest, setDefaultTestCookie } from '../support/chat-client';
import { type PendingApproval, writePendingApprovals } from '../support/pending-approvals';
import { configureServerOn } from '../support/server-env';
import { databaseEngines } from '../support/test-database';

type Listed = {
  approvalId: string;
  chatExcerpt: string;
  summary?: Record<string, string>;
  input: unknown;
  requester: { name: string };
  steps: { kind: string; role?: string }[];
  expiresAt: number;
  myDecision?: string;
  decidedAt?: string;
};
type Page = { approvals: Listed[]; nextCursor: string | null };

/** A decision's answer body. */
async function decide(approvalId: string, cookie: string, approved: boolean, extra = {}) {
  return (await decideAs(approvalId, cookie, approved, extra)).body as { status?: string };
}

async function page(route: typeof listApprovals, path: string, cookie: string | undefined) {
  const response = await route(getRequest(path, { cookie }));
  return { status: response.status, body: (await response.json()) as Page };
}

/** Walks every page of `path` (limit 50) and returns the ids in order. */
async function allIds(path: string, cookie: string | undefined): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '?limit=50' : `?limit=50&cursor=${cursor}`;
    const { status, body } = await page(listApprovals, `${path}${query}`, cookie);
    expect(status).toBe(200);
    ids.push(...body.approvals.map((item) => item.approvalId));
    cursor = body.nextCursor;
  } while (cursor !== null);
  return ids;
}

/** Writes `count` pending approvals straight to the database, each with one role step. */
async function writePending(
  count: number,
  {
    role,
    ownerId,
    expiresAt,
    prefix,
  }: {
    role: string;
    ownerId: string;
    expiresAt: number;
    prefix: string;
  },
): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(5, '0')}`);
  // Several rows per millisecond: the cursor must break ties on the id.
  const createdAt = (index: number) => new Date(Date.UTC(2030, 0, 1) + Math.floor(index / 7)).toISOString();
  await writePendingApprovals(
    await getDb(),
    ids.map((id, index) => ({
      id,
      ownerId,
      createdAt: createdAt(index),
      expiresAt,
      toolName: 'createTicket',
      worker: 'assistant',
      input: { title: 'small refund', description: id },
      excerpt: `create a ticket: ${id}`,
      steps: [{ kind: 'role', role }],
    })),
  );
  return ids;
}

describe.each(databaseEngines)('the approvers’ inbox on %s', (engine) => {
  let supervisor: { cookie: string; id: string };
  let second: { cookie: string; id: string };

  beforeEach(async () => {
    await configureServerOn(engine, { TOOLGATE_POLICY: writePolicyFile(), TOOLGATE_PARK_AFTER_MS: '50' });
    supervisor = await signUpWithRole(`inbox-sup1-${engine}@example.com`, 'supervisor');
    second = await signUpWithRole(`inbox-sup2-${engine}@example.com`, 'supervisor');
    // Only a signed-in, verified user may ask a supervisor: the requester of these tests is one.
    setDefaultTestCookie((await signUpWithRole(`inbox-req-${engine}@example.com`)).cookie);
  });

  it('lists each item with what an inbox shows: requester, excerpt, summary, input, steps and deadline', async () => {
    const { approvalId } = await askForApproval('chat-fields', 'create a ticket: small refund');
    const { body } = await page(listApprovals, '/api/approvals', supervisor.cookie);
    expect(body.approvals).toHaveLength(1);
    expect(body.approvals[0]).toMatchObject({
      approvalId,
      chatExcerpt: 'create a ticket: small refund',
      summary: { en: expect.stringContaining('small refund'), zh: expect.any(String) },
      input: { title: 'small refund' },
      requester: { name: expect.any(String) },
      steps: [{ kind: 'role', role: 'supervisor' }],
      expiresAt: expect.any(Number),
    });
  });

  it('shows nothing to someone without the role, nor to an approver once their role is revoked', async () => {
    await askForApproval('chat-revoked', 'create a ticket: small refund');
    const plain = await signUpWithRole(`inbox-norole-${engine}@example.com`);
    expect((await page(listApprovals, '/api/approvals', plain.cookie)).body.approvals).toEqual([]);
    expect((await page(listApprovals, '/api/approvals', supervisor.cookie)).body.approvals).toHaveLength(1);
    await revokeRoleOf(supervisor.id, 'supervisor');
    expect((await page(listApprovals, '/api/approvals', supervisor.cookie)).body.approvals).toEqual([]);
    expect((await page(listApprovals, '/api/approvals', second.cookie)).body.approvals).toHaveLength(1);
  });

  it('never shows the requester their own role-step call, though they hold the role', async () => {
    await askForApproval('chat-own', 'create a ticket: small refund', supervisor.cookie);
    expect((await page(listApprovals, '/api/approvals', supervisor.cookie)).body.approvals).toEqual([]);
    expect((await page(listApprovals, '/api/approvals', second.cookie)).body.approvals).toHaveLength(1);
  });

  it('pages through 10,000 pending items oldest first, each once, leaving out what is not this person’s', async () => {
    const expiresAt = Date.now() + 3_600_000;
    const mine = await writePending(10_000, {
      role: 'supervisor',
      ownerId: 'someone',
      expiresAt,
      prefix: 'ap',
    });
    await writePending(300, { role: 'auditor', ownerId: 'someone', expiresAt, prefix: 'other-role' });
    await writePending(300, {
      role: 'supervisor',
      ownerId: 'someone',
      expiresAt: Date.now() - 1,
      prefix: 'late',
    });
    await writePending(300, { role: 'supervisor', ownerId: supervisor.id, expiresAt, prefix: 'own' });
    const ids = await allIds('/api/approvals', supervisor.cookie);
    expect(ids.length).toBe(10_000);
    expect(ids).toEqual(mine);
    // A page read after someone else's decision starts where its cursor says, skipping nothing.
    const first = await page(listApprovals, '/api/approvals?limit=50', supervisor.cookie);
    expect(await decide(mine[0] as string, second.cookie, true)).toMatchObject({ status: 'approved' });
    const next = await page(
      listApprovals,
      `/api/approvals?limit=50&cursor=${first.body.nextCursor}`,
      supervisor.cookie,
    );
    expect(next.body.approvals.map((item) => item.approvalId)).toEqual(mine.slice(50, 100));
    const top = await page(listApprovals, '/api/approvals?limit=1', supervisor.cookie);
    expect(top.body.approvals.map((item) => item.approvalId)).toEqual([mine[1]]);
  }, 240_000);

  it('lists an approver with a few items among many waiting for others: their role’s calls and their own, oldest first, each once', async () => {
    const auditor = await signUpWithRole(`inbox-few-${engine}@example.com`, 'auditor');
    const expiresAt = Date.now() + 3_600_000;
    // One waiting call every millisecond, the kinds interleaved, several sharing a millisecond.
    const at = (index: number) => new Date(Date.UTC(2030, 0, 1) + Math.floor(index / 3)).toISOString();
    const call = (id: string, index: number, ownerId: string | null, steps: PendingApproval['steps']) => ({
      id,
      ownerId,
      createdAt: at(index),
      expiresAt,
      toolName: 'createTicket',
      worker: 'assistant',
      input: { title: 'small refund', description: id },
      excerpt: `create a ticket: ${id}`,
      steps,
    });
    const approvals: PendingApproval[] = [];
    const expected: string[] = [];
    for (let index = 0; index < 900; index++) {
      const id = `few-${String(index).padStart(4, '0')}`;
      const kind = index % 9;
      if (kind === 1) {
        // An auditor's call (a 2-of-2 rule every other time): listed once.
        approvals.push(
          call(
            id,
            index,
            'someone',
            index % 2 === 0
              ? [
                  { kind: 'role', role: 'auditor' },
                  { kind: 'role', role: 'auditor' },
                ]
              : [{ kind: 'role', role: 'auditor' }],
          ),
        );
        expected.push(id);
      } else if (kind === 4) {
        // Their own call, waiting for their own answer.
        approvals.push(call(id, index, auditor.id, [{ kind: 'requester' }]));
        expected.push(id);
      } else if (kind === 7) {
        // Their own call that asks their role: someone else must decide it.
        approvals.push(call(id, index, auditor.id, [{ kind: 'role', role: 'auditor' }]));
      } else {
        approvals.push(call(id, index, 'someone', [{ kind: 'role', role: 'supervisor' }]));
      }
    }
    // Past its deadline, and another one they already allowed (a second step waits): neither is listed.
    approvals.push({
      ...call('few-late', 5, 'someone', [{ kind: 'role', role: 'auditor' }]),
      expiresAt: Date.now() - 1,
    });
    approvals.push(
      call('few-decided', 6, 'someone', [
        { kind: 'role', role: 'auditor' },
        { kind: 'role', role: 'auditor' },
      ]),
    );
    const db = await getDb();
    await writePendingApprovals(db, approvals);
    await db
      .updateTable('approval_steps')
      .set({ decision: 'allow', decided_by: auditor.id, decided_at: new Date().toISOString() })
      .where('approval_id', '=', 'few-decided')
      .where('position', '=', 0)
      .execute();
    expect(expected).toHaveLength(200);
    expect(await allIds('/api/approvals', auditor.cookie)).toEqual(expected);
    // Pages of 30 after a cursor give the same list, as do the supervisors' many.
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '?limit=30' : `?limit=30&cursor=${cursor}`;
      const { body } = await page(listApprovals, `/api/approvals${query}`, auditor.cookie);
      pages.push(...body.approvals.map((item) => item.approvalId));
      cursor = body.nextCursor;
    } while (cursor !== null);
    expect(pages).toEqual(expected);
    const theirs = approvals.filter(
      (approval) => approval.steps[0]?.kind === 'role' && approval.steps[0].role === 'supervisor',
    );
    expect(await allIds('/api/approvals', supervisor.cookie)).toEqual(theirs.map((approval) => approval.id));
  }, 120_000);

  it('upgrades an existing database: the inbox’s indexes are made and the one they replace is dropped', async () => {
    const db = await getDb();
    const names = async () => {
      const { rows } =
        engine === 'postgres'
          ? await sql<{
              name: string;
            }>`SELECT indexname AS name FROM pg_indexes WHERE tablename IN ('approvals', 'approval_steps')`.execute(
              db,
            )
          : await sql<{
              name: string;
            }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('approvals', 'approval_steps')`.execute(
              db,
            );
      return rows.map((row) => row.name);
    };
    const version =
      migrations.findIndex((migration) => migration.name === 'approvers’ inbox from the open steps') + 1;
    expect(version).toBeGreaterThan(0);
    // The database as the release before this step left it.
    await sql`DROP INDEX approval_steps_open_role`.execute(db);
    await sql`DROP INDEX approvals_owner_status_created`.execute(db);
    await sql`CREATE INDEX approval_steps_open ON approval_steps (kind, role, decision)`.execute(db);
    await db.deleteFrom('schema_migrations').where('version', '>=', version).execute();
    await writePending(3, {
      role: 'supervisor',
      ownerId: 'someone',
      expiresAt: Date.now() + 60_000,
      prefix: 'before',
    });
    expect(await names()).not.toContain('approval_steps_open_role');

    expect(await migrate(db)).toBe(migrations.length);
    expect(await names()).toEqual(
      expect.arrayContaining(['approval_steps_open_role', 'approvals_owner_status_created']),
    );
    expect(await names()).not.toContain('approval_steps_open');
    const auditor = await signUpWithRole(`inbox-upgrade-${engine}@example.com`, 'auditor');
    expect((await page(listApprovals, '/api/approvals', auditor.cookie)).body.approvals).toEqual([]);
    expect(await allIds('/api/approvals', supervisor.cookie)).toEqual([
      'before-00000',
      'before-00001',
      'before-00002',
    ]);
  });

  it('lists what this person decided, newest first, a page at a time; nothing for anyone else', async () => {
    const ids: string[] = [];
    for (const chatId of ['chat-d1', 'chat-d2', 'chat-d3'])
      ids.push((await askForApproval(chatId, 'create a ticket: small refund')).approvalId);
    expect(await decide(ids[0] as string, supervisor.cookie, true)).toMatchObject({ status: 'approved' });
    expect(await decide(ids[1] as string, supervisor.cookie, false, { reason: 'not now' })).toMatchObject({
      status: 'denied',
    });
    expect(await decide(ids[2] as string, second.cookie, true)).toMatchObject({ status: 'approved' });
    const first = await page(decidedByMe, '/api/approvals/decided?limit=1', supervisor.cookie);
    expect(first.body.approvals.map((item) => [item.approvalId, item.myDecision])).toEqual([
      [ids[1], 'deny'],
    ]);
    expect(first.body.approvals[0]?.decidedAt).toEqual(expect.any(String));
    const rest = await page(
      decidedByMe,
      `/api/approvals/decided?limit=5&cursor=${first.body.nextCursor}`,
      supervisor.cookie,
    );
    expect(rest.body.approvals.map((item) => [item.approvalId, item.myDecision])).toEqual([
      [ids[0], 'allow'],
    ]);
    expect(rest.body.nextCursor).toBeNull();
    const plain = await signUpWithRole(`inbox-plain-${engine}@example.com`);
    expect((await page(decidedByMe, '/api/approvals/decided', plain.cookie)).body.approvals).toEqual([]);
    expect(
      (await page(decidedByMe, '/api/approvals/decided?cursor=nonsense', supervisor.cookie)).status,
    ).toBe(400);
    expect((await page(decidedByMe, '/api/approvals/decided?limit=0', supervisor.cookie)).status).toBe(400);
  });

  it('tells an approver’s inbox stream of a new item they may decide, and not an approver of another role', async () => {
    const follow = async (cookie: string | undefined) => {
      const controller = new AbortController();
      const response = await approvalEvents(
        jsonRequest('/api/approvals/events?inbox=1', undefined, {
          method: 'GET',
          cookie,
          signal: controller.signal,
        }),
      );
      expect(response.status).toBe(200);
      const text = response.body?.pipeThrough(new TextDecoderStream()).getReader();
      const firstEvent = async () => {
        let buffer = '';
        while (!buffer.includes('data: ')) {
          const next = await text?.read();
          if (next === undefined || next.done) throw new Error(`the stream ended before an event: ${buffer}`);
          buffer += next.value;
        }
        const start = buffer.indexOf('data: ') + 6;
        return JSON.parse(buffer.slice(start, buffer.indexOf('\n', start)));
      };
      return { firstEvent: firstEvent(), controller };
    };
    // Someone without any role has no inbox to follow (answered as an unknown resource).
    const plain = await signUpWithRole(`inbox-stream-${engine}@example.com`);
    const refused = await approvalEvents(
      jsonRequest('/api/approvals/events?inbox=1', undefined, { method: 'GET', cookie: plain.cookie }),
    );
    expect(refused.status).toBe(404);
    const auditor = await signUpWithRole(`inbox-auditor-${engine}@example.com`, 'auditor');
    const approver = await follow(supervisor.cookie);
    const other = await follow(auditor.cookie);
    const { approvalId: asked } = await askForApproval('chat-stream', 'create a ticket: small refund');
    expect(await approver.firstEvent).toMatchObject({ type: 'changed', approvalId: asked });
    // The next event the holder of another role hears is of their own call: the other was never sent.
    const theirs = await askForApproval('chat-stream-own', 'create a ticket: printer', auditor.cookie);
    expect(await other.firstEvent).toMatchObject({ approvalId: theirs.approvalId });
    expect(await decide(theirs.approvalId, auditor.cookie, false)).toMatchObject({ status: 'denied' });
    await theirs.reader.rest();
    approver.controller.abort();
    other.controller.abort();
  });

  it('holds at most 16 event streams open per user: the next answers 429 until one closes', async () => {
    const holder = await signUpWithRole(`inbox-streams-${engine}@example.com`, 'supervisor');
    const openAs = async (cookie: string) => {
      const controller = new AbortController();
      const response = await approvalEvents(
        jsonRequest('/api/approvals/events?inbox=1', undefined, {
          method: 'GET',
          cookie,
          signal: controller.signal,
        }),
      );
      return { response, controller };
    };
    const open = () => openAs(holder.cookie);
    const streams = [];
    for (let index = 0; index < 16; index += 1) streams.push(await open());
    expect(streams.map(({ response }) => response.status)).toEqual(Array(16).fill(200));
    const refused = await open();
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('retry-after')).toBe('30');
    expect(await refused.response.json()).toMatchObject({ error: expect.stringContaining('event streams') });
    // Another user is not held back by this one's streams.
    const others = await openAs(supervisor.cookie);
    expect(others.response.status).toBe(200);
    others.controller.abort();

    streams[0].controller.abort();
    await streams[0].response.body?.cancel().catch(() => undefined);
    await expect
      .poll(async () => {
        const next = await open();
        next.controller.abort();
        await next.response.body?.cancel().catch(() => undefined);
        return next.response.status;
      })
      .toBe(200);
    for (const { controller, response } of streams.slice(1)) {
      controller.abort();
      await response.body?.cancel().catch(() => undefined);
    }
  });
});
