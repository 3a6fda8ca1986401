import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Through the door first, as the app: it installs the notices the life cycle sends.
import '@/lib/approvals';
import { type ApprovalEvent, subscribeApprovalEvents } from '@/lib/approvals/life-cycle/approval-events';
import {
  finishExecution,
  recordDecision,
  takeWokenDecision,
} from '@/lib/approvals/life-cycle/approval-life-cycle';
import {
  claimDecision,
  getApproval,
  insertApprovalRow,
  listChatApprovals,
  lockPendingForDecision,
  moveApproval,
} from '@/lib/approvals/life-cycle/approval-rows';
import { type Db, saveChat, writeTransaction } from '@/lib/db';
import { countQueries } from '../support/count-queries';
import { databaseEngines, openTestDatabase } from '../support/test-database';

describe.each(databaseEngines)('the approval rows on %s', (engine) => {
  let db: Db;
  let close: () => Promise<void>;
  let counter = 0;

  beforeAll(async () => {
    ({ db, close } = await openTestDatabase(engine));
    await saveChat(db, { id: 'chat-a', ownerId: 'owner-a', title: 't', worker: 'refund' });
  });
  afterAll(async () => {
    await close();
  });

  async function pending(expiresAt = Date.now() + 60_000): Promise<string> {
    counter += 1;
    const id = `approval-${counter}`;
    await insertApprovalRow(db, {
      id,
      chatId: 'chat-a',
      ownerId: 'owner-a',
      messageId: 'message-1',
      toolCallId: `call-${counter}`,
      toolName: 'createTicket',
      worker: 'refund',
      input: { title: 'printer' },
      expiresAt,
    });
    return id;
  }

  it('lets exactly one of ten concurrent decisions win', async () => {
    const id = await pending();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        moveApproval(db, id, 'pending', index % 2 === 0 ? 'approved' : 'denied', {
          chatId: 'chat-a',
          ownerId: 'owner-a',
          before: Date.now(),
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(['approved', 'denied']).toContain((await getApproval(db, id))?.status);
  });

  it('refuses a decision after the deadline, from another chat or from another owner', async () => {
    const late = await pending(Date.now() - 1);
    expect(await moveApproval(db, late, 'pending', 'approved', { before: Date.now() })).toBe(false);
    const id = await pending();
    expect(await moveApproval(db, id, 'pending', 'approved', { chatId: 'chat-b' })).toBe(false);
    expect(await moveApproval(db, id, 'pending', 'approved', { ownerId: 'owner-b' })).toBe(false);
    expect(await moveApproval(db, id, 'pending', 'approved', { ownerId: 'owner-a' })).toBe(true);
  });

  it('executes an approved call at most once: only one claim moves it to executing', async () => {
    const id = await pending();
    await moveApproval(db, id, 'pending', 'approved');
    const claims = await Promise.all(
      Array.from({ length: 5 }, () => moveApproval(db, id, 'approved', 'executing', { claim: true })),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await moveApproval(db, id, 'executing', 'executed')).toBe(true);
    expect(await getApproval(db, id)).toMatchObject({ status: 'executed', claimed: true });
  });

  it('lets one turn take a denial on, and a decision racing the deadline leaves one outcome', async () => {
    const id = await pending();
    const [decided, expired] = await Promise.all([
      moveApproval(db, id, 'pending', 'denied'),
      moveApproval(db, id, 'pending', 'expired', { claim: true }),
    ]);
    expect(Number(decided) + Number(expired)).toBe(1);
    const row = await getApproval(db, id);
    if (row?.status === 'denied') {
      expect(await claimDecision(db, id, 'denied')).toBe(true);
      expect(await claimDecision(db, id, 'denied')).toBe(false);
    } else {
      expect(row).toMatchObject({ status: 'expired', claimed: true });
    }
  });

  it('locks a pending approval for a decision in one statement, and not one past its deadline', async () => {
    const id = await pending();
    let statements = 0;
    const locked = await writeTransaction(db, async (transaction) => {
      const counter = countQueries(db);
      try {
        return await lockPendingForDecision(transaction, id, Date.now());
      } finally {
        statements = counter.count();
        counter.stop();
      }
    });
    // The update bumps the version and returns the row: no second read of it under the lock.
    expect(statements).toBe(1);
    expect(locked).toEqual(await getApproval(db, id));
    expect(locked?.version).toBeGreaterThan(0);
    const late = await pending(Date.now() - 1);
    expect(
      await writeTransaction(db, (transaction) => lockPendingForDecision(transaction, late, Date.now())),
    ).toBeUndefined();
  });

  it('records an allow from what it reads under the lock alone, and the woken turn claims and finishes it in three statements', async () => {
    const id = await pending();
    const events: ApprovalEvent[] = [];
    const stop = await subscribeApprovalEvents(
      (event) => event.approvalId === id,
      (event) => events.push(event),
    );
    try {
      let counter = countQueries(db);
      const outcome = await recordDecision(db, {
        approvalId: id,
        chatId: 'chat-a',
        approved: true,
        decider: { userId: 'owner-a', roles: [] },
      });
      const decisionStatements = counter.count();
      counter.stop();
      expect(outcome).toMatchObject({
        status: 'approved',
        row: { id, chatId: 'chat-a', ownerId: 'owner-a' },
      });
      // The lock (which returns the row), the steps, the step filled, the move: nothing read
      // before the transaction or again under it (SQLite also sends its begin and commit).
      expect(decisionStatements).toBe(engine === 'sqlite' ? 6 : 4);

      counter = countQueries(db);
      const taken = await takeWokenDecision(db, id, { approved: true });
      const takeStatements = counter.count();
      counter.stop();
      expect(taken).toMatchObject({ approved: true, deciders: ['owner-a'] });
      // The claim returns the row; the steps give the decision record.
      expect(takeStatements).toBe(2);

      counter = countQueries(db);
      await finishExecution(db, id, true);
      const finishStatements = counter.count();
      counter.stop();
      expect(finishStatements).toBe(1);
      expect(await getApproval(db, id)).toMatchObject({ status: 'executed', claimed: true });
      // The change event still goes out, naming who may see the call.
      await expect.poll(() => events.filter((event) => event.type === 'changed').length).toBe(2);
      expect(events.map((event) => event.type)).toEqual(['changed', 'taken', 'changed']);
      expect(events.at(-1)).toMatchObject({ chatId: 'chat-a', ownerId: 'owner-a', roles: [] });
    } finally {
      stop();
    }
  });

  it('answers a decision on a call past its deadline with the row, and one of another chat without it', async () => {
    const late = await pending(Date.now() - 1);
    const decider = { userId: 'owner-a', roles: [] };
    expect(await recordDecision(db, { approvalId: late, approved: true, decider })).toMatchObject({
      status: 'not-found',
      row: { id: late, status: 'pending' },
    });
    const id = await pending();
    expect(await recordDecision(db, { approvalId: id, chatId: 'chat-b', approved: true, decider })).toEqual({
      status: 'not-found',
    });
    expect(await recordDecision(db, { approvalId: id, approved: true, decider: { roles: [] } })).toEqual({
      status: 'not-found',
    });
    expect(await getApproval(db, id)).toMatchObject({ status: 'pending', version: 0 });
  });

  it('refuses a move the life cycle does not allow', async () => {
    const id = await pending();
    await expect(moveApproval(db, id, 'pending', 'executing')).rejects.toThrow(/cannot go from pending/);
    await moveApproval(db, id, 'pending', 'stopped');
    expect(await moveApproval(db, id, 'pending', 'approved')).toBe(false);
    expect((await listChatApprovals(db, 'chat-a', ['stopped'])).map((row) => row.id)).toContain(id);
  });
});
