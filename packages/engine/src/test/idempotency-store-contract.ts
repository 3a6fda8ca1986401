import { describe, expect, it } from 'vitest';
import type { IdempotencyStore } from '../stores/idempotency-store';

/** What a contract run needs from one implementation under test. */
export type IdempotencyStoreUnderTest = {
  store: IdempotencyStore;
  /**
   * Lets `ms` milliseconds pass for the store's TTL: a fake clock for memory,
   * real time for Redis (expiry happens on the server).
   */
  elapse: (ms: number) => Promise<void>;
};

/**
 * Builds a fresh, empty store for one test. Implementations register their own
 * cleanup (e.g. with `onTestFinished`) and must not share entries between calls.
 */
export type MakeIdempotencyStore = (options: {
  ttlMs: number;
  maxEntries: number;
}) => IdempotencyStoreUnderTest | Promise<IdempotencyStoreUnderTest>;

/** Short enough for real-time expiry in Redis, long enough that a replay lands inside it on a busy machine. */
const shortTtlMs = 1_000;

function counter<T>(result: (calls: number) => T) {
  let calls = 0;
  const execute = async () => {
    calls += 1;
    return result(calls);
  };
  return {
    execute,
    get calls() {
      return calls;
    },
  };
}

/**
 * The behaviour every IdempotencyStore implementation shares:
 * success-only caching, in-flight sharing, scope isolation, the key's
 * canonical form, TTL, capacity, clearScope and onReplay.
 */
export function describeIdempotencyStoreContract(name: string, makeStore: MakeIdempotencyStore): void {
  const make = (options: Partial<{ ttlMs: number; maxEntries: number }> = {}) =>
    Promise.resolve(makeStore({ ttlMs: 60_000, maxEntries: 500, ...options }));

  describe(`${name} (IdempotencyStore contract)`, () => {
    it('runs a write once and replays the same result for the same key', async () => {
      const { store } = await make();
      const tool = counter((calls) => ({ ticketId: `TK-${calls}`, nested: { ok: true } }));
      const first = await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute);
      const second = await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute);
      expect(tool.calls).toBe(1);
      expect(first).toEqual({ ticketId: 'TK-1', nested: { ok: true } });
      expect(second).toEqual(first);
    });

    it('caches only successes: a rejected execution leaves no entry', async () => {
      const { store } = await make();
      let calls = 0;
      const execute = async () => {
        calls += 1;
        if (calls === 1) throw new Error('network blip');
        return { ticketId: 'TK-2' };
      };
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, execute)).rejects.toThrow('network blip');
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, execute)).resolves.toEqual({
        ticketId: 'TK-2',
      });
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, execute)).resolves.toEqual({
        ticketId: 'TK-2',
      });
      expect(calls).toBe(2);
    });

    it('treats a synchronous throw in execute like a rejection', async () => {
      const { store } = await make();
      const throwing = (() => {
        throw new Error('sync');
      }) as unknown as () => Promise<never>;
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, throwing)).rejects.toThrow('sync');
      const tool = counter(() => 'ok');
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute)).resolves.toBe('ok');
      expect(tool.calls).toBe(1);
    });

    it('shares one execution among 100 concurrent calls with one key', async () => {
      const { store } = await make();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let calls = 0;
      let replays = 0;
      const execute = async () => {
        calls += 1;
        await gate;
        return { ticketId: 'TK-1' };
      };
      const runs = Array.from({ length: 100 }, () =>
        store.run('s1', 'sendInvoice', { title: 'x' }, execute, { onReplay: () => (replays += 1) }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      const results = await Promise.all(runs);
      expect(calls).toBe(1);
      expect(replays).toBe(99);
      for (const result of results) expect(result).toEqual({ ticketId: 'TK-1' });
    });

    it('shares a rejection among concurrent calls, then lets the next call run again', async () => {
      const { store } = await make();
      let calls = 0;
      const execute = async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 10));
        if (calls === 1) throw new Error('down');
        return 'ok';
      };
      const runs = Array.from({ length: 5 }, () => store.run('s1', 'sendInvoice', { title: 'x' }, execute));
      const settled = await Promise.allSettled(runs);
      expect(settled.every((outcome) => outcome.status === 'rejected')).toBe(true);
      expect(calls).toBe(1);
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, execute)).resolves.toBe('ok');
      expect(calls).toBe(2);
    });

    it('isolates scopes: the same arguments in another session execute again', async () => {
      const { store } = await make();
      const tool = counter((calls) => `TK-${calls}`);
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute)).resolves.toBe('TK-1');
      await expect(store.run('s2', 'sendInvoice', { title: 'x' }, tool.execute)).resolves.toBe('TK-2');
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute)).resolves.toBe('TK-1');
      expect(tool.calls).toBe(2);
    });

    it('keys on the tool name too', async () => {
      const { store } = await make();
      const tool = counter((calls) => calls);
      await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute);
      await store.run('s1', 'addNote', { title: 'x' }, tool.execute);
      expect(tool.calls).toBe(2);
    });

    it('ignores key order and undefined fields, at every depth', async () => {
      const { store } = await make();
      const tool = counter((calls) => calls);
      await store.run('s1', 'sendInvoice', { a: 1, b: { c: 2, d: 3 } }, tool.execute);
      await store.run('s1', 'sendInvoice', { b: { d: 3, c: 2 }, a: 1 }, tool.execute);
      await store.run(
        's1',
        'sendInvoice',
        { a: 1, b: { c: 2, d: 3, e: undefined }, f: undefined },
        tool.execute,
      );
      expect(tool.calls).toBe(1);
      await store.run('s1', 'sendInvoice', { a: 1, b: { c: 2, d: 4 } }, tool.execute);
      expect(tool.calls).toBe(2);
    });

    it('does not mix up a scope containing "::" with another scope', async () => {
      const { store } = await make();
      const tool = counter((calls) => calls);
      await store.run('a::b', 'sendInvoice', { title: 'x' }, tool.execute);
      await store.run('a', 'sendInvoice', { title: 'x' }, tool.execute);
      await store.clearScope('a');
      await store.run('a::b', 'sendInvoice', { title: 'x' }, tool.execute);
      expect(tool.calls).toBe(2);
    });

    it('replays within the TTL and executes again once it has passed', async () => {
      const { store, elapse } = await make({ ttlMs: shortTtlMs });
      const tool = counter((calls) => calls);
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute)).resolves.toBe(1);
      await elapse(shortTtlMs / 4);
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute)).resolves.toBe(1);
      await elapse(shortTtlMs * 2);
      await expect(store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute)).resolves.toBe(2);
      expect(tool.calls).toBe(2);
    });

    it('evicts the oldest inserted entry first when full (not the least recently used)', async () => {
      const { store } = await make({ maxEntries: 2 });
      const tool = counter((calls) => calls);
      const call = (title: string) => store.run('s1', 'sendInvoice', { title }, tool.execute);
      expect(await call('a')).toBe(1);
      expect(await call('b')).toBe(2);
      expect(await call('a')).toBe(1); // a replay does not make `a` newer
      expect(await call('c')).toBe(3); // evicts a
      expect(await call('b')).toBe(2);
      expect(await call('c')).toBe(3);
      expect(await call('a')).toBe(4); // runs again, evicts b
      expect(await call('c')).toBe(3);
      expect(await call('b')).toBe(5);
      expect(tool.calls).toBe(5);
    });

    it('evicts only within a partition: a flood by one user never evicts another user’s entry', async () => {
      const { store } = await make({ maxEntries: 3 });
      const alice = counter(() => 'TK-000001');
      await store.run('alice-chat', 'sendInvoice', { title: 'printer' }, alice.execute, {
        partition: 'alice',
      });
      const mallory = counter((calls) => calls);
      for (let index = 0; index < 12; index += 1) {
        await store.run(`flood-${index}`, 'sendInvoice', { index }, mallory.execute, {
          partition: 'mallory',
        });
      }
      await expect(
        store.run('alice-chat', 'sendInvoice', { title: 'printer' }, alice.execute, { partition: 'alice' }),
      ).resolves.toBe('TK-000001');
      expect(alice.calls).toBe(1);
      // The flooder's own oldest entries went: its first call runs again.
      await store.run('flood-0', 'sendInvoice', { index: 0 }, mallory.execute, { partition: 'mallory' });
      expect(mallory.calls).toBe(13);
    });

    it('clearScope drops one session and leaves the others', async () => {
      const { store } = await make();
      const tool = counter((calls) => calls);
      await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute);
      await store.run('s1', 'sendInvoice', { title: 'y' }, tool.execute);
      await store.run('s2', 'sendInvoice', { title: 'x' }, tool.execute);
      await store.clearScope('s1');
      await store.clearScope('never-used');
      expect(await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute)).toBe(4);
      expect(await store.run('s1', 'sendInvoice', { title: 'y' }, tool.execute)).toBe(5);
      expect(await store.run('s2', 'sendInvoice', { title: 'x' }, tool.execute)).toBe(3);
    });

    it('forget drops one finished call and leaves the rest, and never a call in flight', async () => {
      const { store } = await make();
      const tool = counter((calls) => calls);
      await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute);
      await store.run('s1', 'sendInvoice', { title: 'y' }, tool.execute);
      await store.forget('s1', 'sendInvoice', { title: 'x' });
      await store.forget('s1', 'sendInvoice', { title: 'never called' });
      expect(await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute)).toBe(3);
      expect(await store.run('s1', 'sendInvoice', { title: 'y' }, tool.execute)).toBe(2);

      let release: (value: string) => void = () => {};
      const slow = store.run(
        's1',
        'addNote',
        { title: 'slow' },
        () =>
          new Promise<string>((resolve) => {
            release = resolve;
          }),
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
      await store.forget('s1', 'addNote', { title: 'slow' });
      const joined = store.run('s1', 'addNote', { title: 'slow' }, async () => 'second');
      release('first');
      expect(await slow).toBe('first');
      expect(await joined).toBe('first');
    });

    it('clearScope escapes glob characters in the scope', async () => {
      const { store } = await make();
      const tool = counter((calls) => calls);
      await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute);
      await store.run('s[1]', 'sendInvoice', { title: 'x' }, tool.execute);
      await store.clearScope('s*');
      await store.clearScope('s?');
      expect(await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute)).toBe(1);
      expect(await store.run('s[1]', 'sendInvoice', { title: 'x' }, tool.execute)).toBe(2);
    });

    it('reports a replay through onReplay and never marks the result', async () => {
      const { store } = await make();
      const tool = counter(() => ({ ticketId: 'TK-1' }));
      let replays = 0;
      const onReplay = () => {
        replays += 1;
      };
      const first = await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute, { onReplay });
      expect(replays).toBe(0);
      const second = await store.run('s1', 'sendInvoice', { title: 'x' }, tool.execute, { onReplay });
      expect(replays).toBe(1);
      expect(second).toStrictEqual(first);
      expect(Object.keys(second as object)).toEqual(['ticketId']);
    });

    it('accepts arguments that are not objects', async () => {
      const { store } = await make();
      const tool = counter((calls) => calls);
      await store.run('s1', 'listNotes', {}, tool.execute);
      await store.run('s1', 'listNotes', {}, tool.execute);
      await store.run('s1', 'echo', 'text', tool.execute);
      await store.run('s1', 'echo', undefined, tool.execute);
      expect(tool.calls).toBe(3);
    });
  });
}
