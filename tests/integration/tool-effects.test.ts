import { createMemoryIdempotencyStore, wrapToolsWithIdempotency } from '@toolgate/engine';
import { downstreamIdempotencyKey, type EffectRecorder } from '@toolgate/engine/shells';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, listTickets } from '@/lib/db';
import { migrations } from '@/lib/db/migrations';
import { commitToolEffect, deleteToolEffectsOfScope } from '@/lib/db/tool-effects';
import { createCreateTicketTool } from '@/lib/tools/create-ticket';
import { writeToolNames } from '@/lib/tools/tool-catalog';
import { call } from '../support/call-tool';
import { countTickets } from '../support/database-reads';
import { databaseEngines, openTestDatabase } from '../support/test-database';

/** The app's recorder over a test database, with its clock. */
function recorderOf(db: Db, { ttlMs = 60_000, now = Date.now }: { ttlMs?: number; now?: () => number } = {}) {
  const recorder: EffectRecorder = {
    commit: (effectCall, effect) =>
      commitToolEffect(
        db,
        { ...effectCall, userId: effectCall.partition },
        (transaction) => effect(transaction),
        {
          ttlMs,
          now,
        },
      ),
  };
  return recorder;
}

describe.each(databaseEngines)('write effects and their records on %s', (engine) => {
  let db: Db;
  let close: () => Promise<void>;

  beforeEach(async () => {
    ({ db, close } = await openTestDatabase(engine));
  });

  afterEach(async () => {
    await close();
  });

  function guardedTicketTool(recorder: EffectRecorder, store = createMemoryIdempotencyStore()) {
    const table = { createTicket: createCreateTicketTool(db, { userId: 'user-a', chatId: 'chat-1' }) };
    const replays: string[] = [];
    const wrapped = wrapToolsWithIdempotency(table, store, {
      scope: 'chat-1',
      tools: writeToolNames,
      partition: 'user-a',
      effects: recorder,
      onReplay: (event) => replays.push(event.toolCallId),
    });
    return { wrapped, replays };
  }

  it('replays the recorded ticket when the store lost the call, and reports a replay', async () => {
    const recorder = recorderOf(db);
    const first = guardedTicketTool(recorder);
    const created = await call(first.wrapped.createTicket, { title: 'lid broken' }, 'call-1');
    // A new store: the process restarted, or Redis was flushed.
    const second = guardedTicketTool(recorder);
    const replayed = await call(second.wrapped.createTicket, { title: 'lid broken' }, 'call-2');

    expect(replayed).toEqual(created);
    expect(await countTickets(db)).toBe(1);
    expect(second.replays).toEqual(['call-2']);
  });

  it('executes again once the record expired, and in another chat', async () => {
    let now = 1_000_000;
    const recorder = recorderOf(db, { ttlMs: 1_000, now: () => now });
    await call(guardedTicketTool(recorder).wrapped.createTicket, { title: 'twice' }, 'call-1');
    now += 1_001;
    await call(guardedTicketTool(recorder).wrapped.createTicket, { title: 'twice' }, 'call-2');
    const otherChat = wrapToolsWithIdempotency(
      { createTicket: createCreateTicketTool(db, { userId: 'user-a', chatId: 'chat-2' }) },
      createMemoryIdempotencyStore(),
      { scope: 'chat-2', tools: writeToolNames, partition: 'user-a', effects: recorder },
    );
    await call(otherChat.createTicket, { title: 'twice' }, 'call-3');
    expect(await countTickets(db)).toBe(3);
  });

  it('leaves neither rows nor a record when the effect fails after writing', async () => {
    const key = downstreamIdempotencyKey('chat-1', 'createTicket', { title: 'half done' });
    const effectCall = {
      idempotencyKey: key,
      scope: 'chat-1',
      toolName: 'createTicket',
      toolCallId: 'c1',
      input: {},
    };
    await expect(
      commitToolEffect(
        db,
        effectCall,
        async (transaction) => {
          await transaction
            .insertInto('tickets')
            .values({
              title: 'half done',
              status: 'open',
              user_id: 'user-a',
              created_at: new Date().toISOString(),
            })
            .execute();
          throw new Error('the second half failed');
        },
        { ttlMs: 60_000 },
      ),
    ).rejects.toThrow('the second half failed');
    expect(await countTickets(db)).toBe(0);
    const retried = await commitToolEffect(db, effectCall, async () => 'ran', { ttlMs: 60_000 });
    expect(retried).toEqual({ output: 'ran', replayed: false });
  });

  it('lets one of two concurrent commits of one key write; the other replays it', async () => {
    const key = downstreamIdempotencyKey('chat-1', 'createTicket', { title: 'race' });
    // Every call a turn makes names its user; the one-winner guarantee is per user and key.
    const effectCall = {
      idempotencyKey: key,
      scope: 'chat-1',
      toolName: 'createTicket',
      toolCallId: 'c1',
      input: {},
      userId: 'user-a',
    };
    const effect = async (transaction: Db) => {
      const row = await transaction
        .insertInto('tickets')
        .values({ title: 'race', status: 'open', user_id: 'user-a', created_at: new Date().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id };
    };
    const results = await Promise.all([
      commitToolEffect(db, effectCall, effect, { ttlMs: 60_000 }),
      commitToolEffect(db, effectCall, effect, { ttlMs: 60_000 }),
    ]);
    expect(results.map((result) => result.replayed).sort()).toEqual([false, true]);
    expect(results[0].output).toEqual(results[1].output);
    expect((await listTickets(db, { userId: 'user-a' })).map((ticket) => ticket.title)).toEqual(['race']);
  });

  it('prunes records long past their window as new ones commit', async () => {
    let now = 1_000_000;
    const options = { ttlMs: 1_000, retentionMs: 1_000, now: () => now, pruneEvery: 1 };
    for (const title of ['a', 'b', 'c']) {
      const key = downstreamIdempotencyKey('chat-1', 'addTodo', { title });
      await commitToolEffect(
        db,
        { idempotencyKey: key, scope: 'chat-1', toolName: 'addTodo', toolCallId: title, input: { title } },
        async () => title,
        options,
      );
    }
    now += 10_000;
    const key = downstreamIdempotencyKey('chat-1', 'addTodo', { title: 'd' });
    await commitToolEffect(
      db,
      { idempotencyKey: key, scope: 'chat-1', toolName: 'addTodo', toolCallId: 'd', input: { title: 'd' } },
      async () => 'd',
      options,
    );
    const rows = await db.selectFrom('tool_effects').select('tool_call_id').execute();
    expect(rows.map((row) => row.tool_call_id)).toEqual(['d']);
  });

  it('never replays another user’s record of the same chat id and call, and forgets a deleted chat', async () => {
    const key = downstreamIdempotencyKey('reused-chat', 'addTodo', { title: 'mine' });
    const callOf = (userId: string) => ({
      idempotencyKey: key,
      scope: 'reused-chat',
      toolName: 'addTodo',
      toolCallId: `call-${userId}`,
      input: { title: 'mine' },
      userId,
    });
    const options = { ttlMs: 60_000 };
    await commitToolEffect(db, callOf('user-a'), async () => 'a’s result', options);
    expect(await commitToolEffect(db, callOf('user-b'), async () => 'b’s result', options)).toEqual({
      output: 'b’s result',
      replayed: false,
    });
    await deleteToolEffectsOfScope(db, 'reused-chat');
    expect(await commitToolEffect(db, callOf('user-a'), async () => 'a again', options)).toEqual({
      output: 'a again',
      replayed: false,
    });
  });

  it('migrates again over its own step without harm (IF NOT EXISTS)', async () => {
    const own = migrations.find((migration) => migration.name === 'tool effect records and undo');
    if (own === undefined) throw new Error('no effect-records migration');
    await own.up(db, engine);
    const key = downstreamIdempotencyKey('chat-1', 'addTodo', { title: 'after' });
    const committed = await commitToolEffect(
      db,
      { idempotencyKey: key, scope: 'chat-1', toolName: 'addTodo', toolCallId: 'c', input: {}, userId: 'u' },
      async () => 'ok',
      { ttlMs: 60_000 },
    );
    expect(committed.replayed).toBe(false);
  });
});
