import { beforeEach, describe, expect, it } from 'vitest';
import { GET as decidedByMe } from '@/app/api/approvals/decided/route';
import { GET as approvalEvents } from '@/app/api/approvals/events/route';
import { GET as listApprovals } from '@/app/api/approvals/route';
import { getDb } from '@/lib/db';
import { revokeRoleOf, signUpWithRole, writePolicyFile } from '../support/approval-policy';
import { askForApproval, decideAs } from '../support/approval-requests';
import { getRequest, jsonRequest, setDefaultTestCookie } from '../support/chat-client';
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
  const db = await getDb();
  const ids = Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(5, '0')}`);
  // Several rows per millisecond: the cursor must break ties on the id.
  const createdAt = (index: number) => new Date(Date.UTC(2030, 0, 1) + Math.floor(index / 7)).toISOString();
  for (let start = 0; start < count; start += 500) {
    const batch = ids.slice(start, start + 500);
    await db
      .insertInto('approvals')
      .values(
        batch.map((id, offset) => ({
          id,
          chat_id: `chat-${id}`,
          owner_id: ownerId,
          message_id: `m-${id}`,
          tool_call_id: `call-${id}`,
          tool_name: 'createTicket',
          worker: 'assistant',
          input: JSON.stringify({ title: 'small refund', description: id }),
          expires_at: expiresAt,
          status: 'pending',
          claimed: 0,
          trace_parent: null,
          rule_label: null,
          excerpt: `create a ticket: ${id}`,
          created_at: createdAt(start + offset),
          updated_at: createdAt(start + offset),
        })),
      )
      .execute();
    await db
      .insertInto('approval_steps')
      .values(
        batch.map((id) => ({
          approval_id: id,
          position: 0,
          kind: 'role',
          role,
          decision: null,
          decided_by: null,
          decided_at: null,
        })),
      )
      .execute();
  }
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
