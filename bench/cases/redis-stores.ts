import type { ApprovalRegistry, IdempotencyStore } from '@toolgate/engine';
import { createMemoryApprovalRegistry, createMemoryIdempotencyStore } from '@toolgate/engine';
import { findRedisServer, startRedis } from '../support/redis';
import { median, nowMs, quantile, round } from '../support/stats';
import type { BenchCase, BenchContext, BenchResult } from '../support/types';

type RedisModules = typeof import('@toolgate/engine/redis');

/** The engine's Redis stores (loaded only when the case runs). */
async function loadRedisModules(): Promise<RedisModules | string> {
  return import('@toolgate/engine/redis');
}

let keyCounter = 0;

/** Distinct-key writes through `store` for `durationMs`, `concurrency` in flight; returns ops/s. */
async function writesPerSecond(store: IdempotencyStore, durationMs: number, concurrency: number) {
  let completed = 0;
  const deadline = nowMs() + durationMs;
  const start = nowMs();
  const worker = async () => {
    while (nowMs() < deadline) {
      keyCounter += 1;
      const index = keyCounter;
      await store.run('bench', 'addTodo', { title: `item ${index}` }, async () => ({ id: index }));
      completed += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (completed * 1000) / (nowMs() - start);
}

async function storeThroughput(
  memory: IdempotencyStore,
  redis: IdempotencyStore,
  { quick, log }: BenchContext,
): Promise<BenchResult> {
  const roundMs = quick ? 200 : 1000;
  const rounds = quick ? 2 : 6;
  const concurrency = 16;
  await writesPerSecond(memory, roundMs, concurrency);
  await writesPerSecond(redis, roundMs, concurrency);
  const memoryOps: number[] = [];
  const redisOps: number[] = [];
  for (let index = 0; index < rounds; index += 1) {
    log(`redis: store round ${index + 1}/${rounds}`);
    const order = index % 2 === 0 ? ['memory', 'redis'] : ['redis', 'memory'];
    for (const side of order) {
      if (side === 'memory') memoryOps.push(await writesPerSecond(memory, roundMs, concurrency));
      else redisOps.push(await writesPerSecond(redis, roundMs, concurrency));
    }
  }
  const memoryMedian = median(memoryOps);
  const redisMedian = median(redisOps);
  return {
    name: 'redis/idempotency-store-ops',
    baseline: { label: 'memory store, distinct-key run()', opsPerSecond: Math.round(memoryMedian) },
    subject: {
      label: 'Redis store (local redis-server), distinct-key run()',
      opsPerSecond: Math.round(redisMedian),
    },
    ratio: round(redisMedian / memoryMedian),
    ratioOf: `ops/s, subject ÷ baseline (${concurrency} in flight, median of ${rounds} alternating rounds)`,
    target: 'none (reported)',
    pass: null,
  };
}

/**
 * Decision latency: a call waits on `waiting`, the decision is made on
 * `deciding`; measured from calling `resolve` to the waiting call waking.
 */
async function decisionLatency(waiting: ApprovalRegistry, deciding: ApprovalRegistry, index: number) {
  const sessionId = `bench-session-${index % 8}`;
  let announced!: (approvalId: string) => void;
  const approvalIdPromise = new Promise<string>((resolve) => {
    announced = resolve;
  });
  const decision = waiting.confirm(
    { sessionId, toolCallId: `call-${index}`, toolName: 'createTicket', input: { title: `t${index}` } },
    { emit: (event) => announced(event.approvalId), timeoutMs: 10_000 },
  );
  const approvalId = await approvalIdPromise;
  const start = nowMs();
  const [woken, outcome] = await Promise.all([deciding.resolve(approvalId, sessionId, true), decision]);
  const elapsed = nowMs() - start;
  if (!woken || !outcome.approved) throw new Error(`Decision ${index} did not wake its call as approved`);
  return elapsed;
}

async function crossInstanceDecisions(
  redisA: ApprovalRegistry,
  redisB: ApprovalRegistry,
  { quick, log }: BenchContext,
): Promise<BenchResult> {
  const memory = createMemoryApprovalRegistry();
  const rounds = quick ? 20 : 300;
  for (let index = 0; index < 20; index += 1) {
    await decisionLatency(memory, memory, index);
    await decisionLatency(redisA, redisB, index);
  }
  log(`redis: ${rounds} cross-instance decisions`);
  const local: number[] = [];
  const shared: number[] = [];
  for (let index = 0; index < rounds; index += 1) {
    local.push(await decisionLatency(memory, memory, index));
    shared.push(await decisionLatency(redisA, redisB, index));
  }
  return {
    name: 'redis/cross-instance-decision',
    baseline: {
      label: 'memory registry, decision in the same process',
      p50Ms: round(median(local)),
      p99Ms: round(quantile(local, 0.99)),
    },
    subject: {
      label: 'two Redis registries (own connections), decision on B wakes the call on A',
      p50Ms: round(median(shared)),
      p99Ms: round(quantile(shared, 0.99)),
      rounds,
    },
    ratio: round(median(shared) / median(local)),
    ratioOf: 'p50 latency, subject ÷ baseline',
    target: 'none (reported: p50 and p99)',
    pass: null,
  };
}

function skipped(reason: string): BenchResult[] {
  return ['redis/idempotency-store-ops', 'redis/cross-instance-decision'].map((name) => ({
    name,
    baseline: { label: 'memory' },
    subject: { label: 'Redis' },
    ratio: null,
    target: 'none (reported)',
    pass: null,
    skipped: reason,
  }));
}

/**
 * With a `redis-server` on this machine, the Redis
 * idempotency store's operations per second against the memory store, and the
 * cross-instance decision latency (two registries with their own connections to
 * one Redis: decide on B, wake on A) against a decision in one process.
 * Skipped, with the reason, without `redis-server` or the Redis stores.
 */
export const redisStores: BenchCase = async (context) => {
  const binary = findRedisServer();
  if (binary === undefined) return skipped('redis-server is not installed (apt-get install -y redis-server)');
  const modules = await loadRedisModules();
  if (typeof modules === 'string') return skipped(modules);
  const server = await startRedis(binary);
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const clientA = modules.getRedisClient(server.url);
    const clientB = clientA.duplicate();
    closers.push(
      () => clientB.close(),
      () => clientA.close(),
    );
    const store = modules.createRedisIdempotencyStore({ client: clientA });
    closers.unshift(() => store.close());
    const storeRow = await storeThroughput(createMemoryIdempotencyStore(), store, context);
    const registryA = modules.createRedisApprovalRegistry({ client: clientA });
    const registryB = modules.createRedisApprovalRegistry({ client: clientB });
    closers.unshift(
      () => registryA.close(),
      () => registryB.close(),
    );
    const decisionRow = await crossInstanceDecisions(registryA, registryB, context);
    return [storeRow, decisionRow];
  } finally {
    for (const close of closers) await close().catch(() => {});
    await server.stop();
  }
};
