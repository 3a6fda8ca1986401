import { createMemoryIdempotencyStore } from '@toolgate/engine';
import { describe, expect, it, vi } from 'vitest';

function manualClock(start = 1_000_000) {
  let current = start;
  return { now: () => current, advance: (milliseconds: number) => (current += milliseconds) };
}

describe('createMemoryIdempotencyStore', () => {
  it('does not cache a failure, so the retry runs', async () => {
    const store = createMemoryIdempotencyStore();
    const execute = vi
      .fn()
      .mockRejectedValueOnce(new Error('upstream timeout'))
      .mockResolvedValueOnce('TK-1');

    await expect(store.run('s', 'createTicket', { title: 'x' }, execute)).rejects.toThrow('upstream timeout');
    expect(store.size).toBe(0);
    await expect(store.run('s', 'createTicket', { title: 'x' }, execute)).resolves.toBe('TK-1');
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('treats a synchronous throw in execute as a failure', async () => {
    const store = createMemoryIdempotencyStore();
    const execute = () => {
      throw new Error('boom');
    };
    await expect(store.run('s', 't', {}, execute)).rejects.toThrow('boom');
    expect(store.size).toBe(0);
  });

  it('runs 100 concurrent identical calls once and gives all of them its result', async () => {
    const store = createMemoryIdempotencyStore();
    const result = { ticketId: 'TK-000001' };
    let release!: (value: typeof result) => void;
    const execute = vi.fn(() => new Promise<typeof result>((resolve) => (release = resolve)));
    const onReplay = vi.fn();

    const calls = Array.from({ length: 100 }, () =>
      store.run('s', 'createTicket', { title: 'x' }, execute, { onReplay }),
    );
    release(result);
    const results = await Promise.all(calls);

    expect(execute).toHaveBeenCalledTimes(1);
    expect(results.every((value) => value === result)).toBe(true);
    expect(onReplay).toHaveBeenCalledTimes(99);
  });

  it('fails every sharer of a failed execution and lets the next call run again', async () => {
    const store = createMemoryIdempotencyStore();
    const execute = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('ok');

    const shared = await Promise.allSettled([
      store.run('s', 't', {}, execute),
      store.run('s', 't', {}, execute),
    ]);
    expect(shared.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await expect(store.run('s', 't', {}, execute)).resolves.toBe('ok');
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('executes the same args again in another scope', async () => {
    const store = createMemoryIdempotencyStore();
    const execute = vi.fn(async () => 'done');

    await store.run('chat-1', 'addTodo', { title: 'x' }, execute);
    await store.run('chat-2', 'addTodo', { title: 'x' }, execute);
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('shares one key between {a:1,b:2} and {b:2,a:1}', async () => {
    const store = createMemoryIdempotencyStore();
    const execute = vi.fn(async () => 'done');

    await store.run('s', 't', { a: 1, b: 2 }, execute);
    await store.run('s', 't', { b: 2, a: 1 }, execute);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('ignores undefined fields when matching', async () => {
    const store = createMemoryIdempotencyStore();
    const execute = vi.fn(async () => 'done');

    await store.run('s', 'createTicket', { title: 'x' }, execute);
    await store.run('s', 'createTicket', { title: 'x', detail: undefined }, execute);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('executes again once the TTL has passed on the injected clock', async () => {
    const clock = manualClock();
    const store = createMemoryIdempotencyStore({ ttlMs: 1_000, now: clock.now });
    const execute = vi.fn(async () => 'done');

    await store.run('s', 't', {}, execute);
    clock.advance(999);
    await store.run('s', 't', {}, execute);
    expect(execute).toHaveBeenCalledTimes(1);
    clock.advance(1);
    expect(store.size).toBe(0);
    await store.run('s', 't', {}, execute);
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('evicts the oldest inserted entry first when full', async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 2 });
    const execute = vi.fn(async () => 'done');

    await store.run('s', 't', { n: 1 }, execute);
    await store.run('s', 't', { n: 2 }, execute);
    // A hit does not refresh the order: eviction is by insertion, not by use.
    await store.run('s', 't', { n: 1 }, execute);
    await store.run('s', 't', { n: 3 }, execute);
    expect(store.size).toBe(2);
    expect(execute).toHaveBeenCalledTimes(3);

    await store.run('s', 't', { n: 2 }, execute);
    await store.run('s', 't', { n: 3 }, execute);
    expect(execute).toHaveBeenCalledTimes(3);
    await store.run('s', 't', { n: 1 }, execute); // evicted earlier: runs again and evicts n=2
    expect(execute).toHaveBeenCalledTimes(4);
    await store.run('s', 't', { n: 2 }, execute);
    expect(execute).toHaveBeenCalledTimes(5);
  });

  it('counts a re-insert after expiry as new for eviction', async () => {
    const clock = manualClock();
    const store = createMemoryIdempotencyStore({ ttlMs: 100, maxEntries: 2, now: clock.now });
    const execute = vi.fn(async () => 'done');

    await store.run('s', 't', { n: 1 }, execute);
    clock.advance(50);
    await store.run('s', 't', { n: 2 }, execute);
    clock.advance(60);
    await store.run('s', 't', { n: 1 }, execute); // expired: inserted again, now the newest
    await store.run('s', 't', { n: 3 }, execute); // evicts n=2, the oldest inserted
    expect(execute).toHaveBeenCalledTimes(4);
    await store.run('s', 't', { n: 1 }, execute);
    expect(execute).toHaveBeenCalledTimes(4);
  });

  it('drops only the given scope on clearScope', async () => {
    const store = createMemoryIdempotencyStore();
    const execute = vi.fn(async () => 'done');

    await store.run('chat-1', 't', {}, execute);
    await store.run('chat-1::x', 't', {}, execute);
    await store.run('chat-2', 't', {}, execute);
    store.clearScope('chat-1');
    expect(store.size).toBe(2);

    await store.run('chat-1', 't', {}, execute);
    await store.run('chat-1::x', 't', {}, execute);
    await store.run('chat-2', 't', {}, execute);
    expect(execute).toHaveBeenCalledTimes(4);
  });

  it('fires onReplay on a replay and returns the very same value', async () => {
    const store = createMemoryIdempotencyStore();
    const original = { ticketId: 'TK-000001', title: 'x', status: 'open' };
    const onReplay = vi.fn();

    const first = await store.run('s', 'createTicket', { title: 'x' }, async () => original, { onReplay });
    expect(onReplay).not.toHaveBeenCalled();
    const replayed = await store.run('s', 'createTicket', { title: 'x' }, async () => ({ other: true }), {
      onReplay,
    });

    expect(onReplay).toHaveBeenCalledTimes(1);
    expect(first).toBe(original);
    expect(replayed).toBe(original);
  });

  it('does not let a late failure remove a newer entry with the same key', async () => {
    let clock = 0;
    const store = createMemoryIdempotencyStore({ ttlMs: 100, now: () => clock });
    let fail!: (error: Error) => void;
    const slow = store.run('s', 't', { n: 1 }, () => new Promise((_, reject) => (fail = reject)));
    clock = 200; // the slow call's entry has expired while it still runs
    const execute = vi.fn(async () => 'fresh');
    await store.run('s', 't', { n: 1 }, execute); // a newer n=1 entry
    fail(new Error('late'));
    await expect(slow).rejects.toThrow('late');

    await store.run('s', 't', { n: 1 }, execute);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('never evicts an entry whose execution is still running', async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 1 });
    let finish!: (value: string) => void;
    const execute = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const first = store.run('s', 't', { n: 1 }, execute);
    await store.run('s', 't', { n: 2 }, async () => 'over the cap while n=1 runs');
    const second = store.run('s', 't', { n: 1 }, execute);
    finish('once');
    expect(await Promise.all([first, second])).toEqual(['once', 'once']);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('evicts only within a partition: one user flooding the store never evicts another user’s entry', async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 5 });
    const aliceTicket = vi.fn(async () => 'TK-000001');
    await store.run('alice-chat', 'createTicket', { title: 'printer' }, aliceTicket, { partition: 'alice' });
    for (let index = 0; index < 50; index++) {
      await store.run(`flood-${index}`, 'createTicket', { index }, async () => index, {
        partition: 'mallory',
      });
    }
    await store.run('alice-chat', 'createTicket', { title: 'printer' }, aliceTicket, { partition: 'alice' });
    expect(aliceTicket).toHaveBeenCalledTimes(1);
    expect(store.size).toBe(6);
  });

  it('keeps the total under maxTotalEntries by evicting from the largest partition', async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 10, maxTotalEntries: 12 });
    const small = vi.fn(async () => 'kept');
    await store.run('s', 't', { who: 'small' }, small, { partition: 'small' });
    for (let index = 0; index < 20; index++) {
      await store.run('s', 't', { index }, async () => index, { partition: 'large' });
    }
    expect(store.size).toBeLessThanOrEqual(12);
    await store.run('s', 't', { who: 'small' }, small, { partition: 'small' });
    expect(small).toHaveBeenCalledTimes(1);
  });

  it('rejects invalid options with a TypeError that names the option', () => {
    expect(() => createMemoryIdempotencyStore({ ttlMs: 0 })).toThrow(
      new TypeError('Expected `ttlMs` to be a positive number, got `0` (number)'),
    );
    expect(() => createMemoryIdempotencyStore({ maxEntries: 1.5 })).toThrow(
      /`maxEntries` to be a positive integer/,
    );
    expect(() => createMemoryIdempotencyStore({ now: 'soon' as never })).toThrow(/`now` to be a function/);
  });

  it('stays within maxEntries over many distinct keys and starts no timers', async () => {
    vi.useFakeTimers();
    const store = createMemoryIdempotencyStore({ maxEntries: 500 });
    for (let index = 0; index < 5_000; index += 1) await store.run('s', 't', { index }, async () => index);
    expect(store.size).toBe(500);
    expect(vi.getTimerCount()).toBe(0);
    vi.useRealTimers();
  });
});
