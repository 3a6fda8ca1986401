import { createServer } from 'node:net';
import { StoreUnavailableError } from '@toolgate/engine';
import { createRedisIdempotencyStore, getRedisClient } from '@toolgate/engine/redis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { RedisClient } from '../../packages/engine/src/stores/redis-client';
import { closeTestClient, connectTestClient, keysUnder, redisUrl, uniquePrefix } from './redis-test-client';

// Each store stands for one process: its own client (connection), one shared Redis.
let clients: RedisClient[] = [];
beforeAll(async () => {
  clients = await Promise.all([connectTestClient(), connectTestClient(), connectTestClient()]);
});
afterAll(async () => {
  await Promise.all(clients.map(closeTestClient));
});

function makeStores(options: Partial<Parameters<typeof createRedisIdempotencyStore>[0]> = {}, count = 2) {
  const prefix = uniquePrefix('idem');
  const stores = clients
    .slice(0, count)
    .map((client) => createRedisIdempotencyStore({ client, prefix, pollIntervalMs: 20, ...options }));
  onTestFinished(() => Promise.all(stores.map((store) => store.close())).then(() => undefined));
  return { prefix, stores };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 1;
}

describe('createRedisIdempotencyStore across processes', () => {
  it('runs a key once when two processes call it at the same moment, and both get the result', async () => {
    const { stores } = makeStores();
    let calls = 0;
    let replays = 0;
    const execute = async () => {
      calls += 1;
      await sleep(50);
      return { ticketId: 'TK-000001', title: 'x', status: 'open' };
    };
    const results = await Promise.all(
      stores.map((store) =>
        store.run('chat-1', 'createTicket', { title: 'x' }, execute, { onReplay: () => (replays += 1) }),
      ),
    );
    expect(calls).toBe(1);
    expect(replays).toBe(1);
    expect(results[0]).toEqual(results[1]);
  });

  it('runs a key once under many concurrent calls from three processes', async () => {
    const { stores } = makeStores({}, 3);
    let calls = 0;
    const execute = async () => {
      calls += 1;
      await sleep(30);
      return calls;
    };
    const runs = stores.flatMap((store) =>
      Array.from({ length: 20 }, () => store.run('chat-1', 'createTicket', { title: 'x' }, execute)),
    );
    expect(new Set(await Promise.all(runs))).toEqual(new Set([1]));
    expect(calls).toBe(1);
  });

  it('keeps a slow but live winner’s claim: a waiter never runs the tool a second time', async () => {
    const { stores } = makeStores({ claimTtlMs: 300 });
    let calls = 0;
    const execute = async () => {
      calls += 1;
      await sleep(750);
      return 'done';
    };
    const first = stores[0].run('chat-1', 'createTicket', { title: 'x' }, execute);
    await sleep(20);
    const second = stores[1].run('chat-1', 'createTicket', { title: 'x' }, execute);
    expect(await Promise.all([first, second])).toEqual(['done', 'done']);
    expect(calls).toBe(1);
  });

  it('does not let a crashed winner block forever: after claimTtlMs a waiter runs the call', async () => {
    const prefix = uniquePrefix('idem');
    const doomedClient = await connectTestClient();
    const winner = createRedisIdempotencyStore({ client: doomedClient, prefix, claimTtlMs: 300 });
    const survivor = createRedisIdempotencyStore({
      client: clients[1],
      prefix,
      claimTtlMs: 300,
      pollIntervalMs: 20,
    });
    onTestFinished(() => survivor.close());
    let release!: () => void;
    const hung = new Promise<string>((resolve) => {
      release = () => resolve('never stored');
    });
    onTestFinished(() => release());
    void winner.run('chat-1', 'createTicket', { title: 'x' }, () => hung).catch(() => {});
    await expect.poll(async () => (await keysUnder(clients[0], prefix)).length).toBeGreaterThan(0);
    // The winner's process dies: its claim is no longer renewed.
    doomedClient.destroy();

    const startedAt = Date.now();
    let calls = 0;
    const result = await survivor.run('chat-1', 'createTicket', { title: 'x' }, async () => {
      calls += 1;
      return 'TK-2';
    });
    expect(result).toBe('TK-2');
    expect(calls).toBe(1);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(150);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it('lets a waiter in another process run the call itself when the winner fails', async () => {
    const { stores } = makeStores();
    let calls = 0;
    const execute = async () => {
      calls += 1;
      await sleep(50);
      if (calls === 1) throw new Error('first attempt failed');
      return 'second attempt';
    };
    const first = stores[0].run('chat-1', 'createTicket', { title: 'x' }, execute);
    await sleep(10);
    const second = stores[1].run('chat-1', 'createTicket', { title: 'x' }, execute);
    await expect(first).rejects.toThrow('first attempt failed');
    await expect(second).resolves.toBe('second attempt');
    expect(calls).toBe(2);
  });

  it('replays a JSON copy of the result in another process', async () => {
    const { stores } = makeStores();
    const original = { at: new Date(0), skipped: undefined, count: 1 };
    expect(await stores[0].run('chat-1', 'addTodo', { title: 'x' }, async () => original)).toBe(original);
    expect(await stores[1].run('chat-1', 'addTodo', { title: 'x' }, async () => original)).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      count: 1,
    });
  });

  it('returns a result JSON cannot hold without caching it', async () => {
    const { stores } = makeStores();
    let calls = 0;
    const execute = async () => {
      calls += 1;
      return { big: 1n };
    };
    expect(await stores[0].run('chat-1', 'addTodo', { title: 'x' }, execute)).toEqual({ big: 1n });
    expect(await stores[0].run('chat-1', 'addTodo', { title: 'x' }, execute)).toEqual({ big: 1n });
    expect(calls).toBe(2);
  });

  it('stores the result under prefix + scope::tool::args with the TTL, and leaves no claim after a failure', async () => {
    const { prefix, stores } = makeStores({ ttlMs: 5_000 });
    await stores[0].run('chat-1', 'createTicket', { title: 'x' }, async () => 'TK-1');
    await expect(
      stores[0].run('chat-1', 'createTicket', { title: 'y' }, async () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    const key = `${prefix}chat-1::createTicket::{"title":"x"}`;
    expect(await clients[0].get(key)).toBe('D:{"v":"TK-1"}');
    const ttl = await clients[0].pTTL(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5_000);
    expect(await clients[0].exists(`${prefix}chat-1::createTicket::{"title":"y"}`)).toBe(0);
  });

  it('shares the cap across processes, evicting the oldest completed entry first', async () => {
    const { stores } = makeStores({ maxEntries: 2 });
    let calls = 0;
    const execute = async () => {
      calls += 1;
      return calls;
    };
    await stores[0].run('chat-1', 'addTodo', { title: 'a' }, execute);
    await stores[1].run('chat-1', 'addTodo', { title: 'b' }, execute);
    await stores[0].run('chat-1', 'addTodo', { title: 'c' }, execute);
    expect(await stores[1].run('chat-1', 'addTodo', { title: 'b' }, execute)).toBe(2);
    expect(await stores[1].run('chat-1', 'addTodo', { title: 'a' }, execute)).toBe(4);
  });

  it('clears a scope for every process, leaving no keys of that scope', async () => {
    const { prefix, stores } = makeStores();
    await stores[0].run('chat-1', 'addTodo', { title: 'a' }, async () => 1);
    await stores[0].run('chat-2', 'addTodo', { title: 'a' }, async () => 2);
    await stores[1].clearScope('chat-1');
    const keys = await keysUnder(clients[0], prefix);
    expect(keys.some((key) => key.includes('chat-1::'))).toBe(false);
    expect(keys.some((key) => key.includes('chat-2::'))).toBe(true);
    expect(await stores[0].run('chat-1', 'addTodo', { title: 'a' }, async () => 3)).toBe(3);
  });
});

describe('createRedisIdempotencyStore when Redis is unreachable', () => {
  it('rejects with StoreUnavailableError and never executes the tool', async () => {
    const client = getRedisClient(`redis://127.0.0.1:${await closedPort()}`);
    onTestFinished(() => client.destroy());
    const store = createRedisIdempotencyStore({ client, prefix: uniquePrefix('idem') });
    let calls = 0;
    const startedAt = Date.now();
    const outcome = store.run('chat-1', 'createTicket', { title: 'x' }, async () => {
      calls += 1;
      return 'TK-1';
    });
    await expect(outcome).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(outcome).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
    await expect(store.clearScope('chat-1')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(calls).toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    await store.close();
  });
});

describe('getRedisClient', () => {
  it('connects lazily on the first run, once for many concurrent calls', async () => {
    const client = getRedisClient(redisUrl);
    expect(client.isOpen).toBe(false);
    onTestFinished(() => closeTestClient(client));
    const store = createRedisIdempotencyStore({ client, prefix: uniquePrefix('idem') });
    onTestFinished(() => store.close());
    let calls = 0;
    const runs = Array.from({ length: 50 }, (_, index) =>
      store.run('chat-1', 'addTodo', { title: `t${index % 5}` }, async () => {
        calls += 1;
        return index % 5;
      }),
    );
    expect(await Promise.all(runs)).toEqual(Array.from({ length: 50 }, (_, index) => index % 5));
    expect(calls).toBe(5);
  });

  it('returns one shared client per URL', () => {
    const url = 'redis://127.0.0.1:1/0';
    expect(getRedisClient(url)).toBe(getRedisClient(url));
    expect(getRedisClient('redis://127.0.0.1:1/1')).not.toBe(getRedisClient(url));
  });
});
