import type { DenialReason } from '../decisions/decision-vocabulary';
import {
  type ApprovalDecision,
  type ApprovalRegistry,
  type ApprovalRequest,
  type ConfirmOptions,
  confirmOptionsOf,
  emitApprovalRequest,
} from './approval-registry';
import { redisChannels } from './redis-channels';
import { ensureRedisReady, type RedisClient, toStoreUnavailable } from './redis-client';
import { createRedisSubscription } from './redis-subscription';

/** Options of {@link createRedisApprovalRegistry}. */
export type RedisApprovalRegistryOptions = {
  /** A node-redis v6 client (see `getRedisClient`); connected on first use if it is not yet. */
  client: RedisClient;
  /**
   * A connection for pub/sub (a connection in subscriber mode can run nothing
   * else). Default: `client.duplicate()`, created on the first confirm and closed by `close()`.
   */
  subscriber?: RedisClient;
  /** Namespace of every key and of the channel. Default `'toolgate:approval:'`. */
  prefix?: string;
  /** The clock for `expiresAt`, in epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Makes approval ids. Default `crypto.randomUUID` (122 random bits): ids must be unguessable. */
  generateId?: () => string;
  /**
   * After a local timeout finds the record already gone, a decision is on its way over
   * pub/sub: how long to wait for it before denying with `timeout`. Default 1000.
   */
  decisionGraceMs?: number;
};

/** The Redis registry, plus `close()` to release the subscriber connection it opened. */
export type RedisApprovalRegistry = ApprovalRegistry & {
  /** Unsubscribes, and quits the subscriber connection if the registry created it. */
  close(): Promise<void>;
};

type Verdict = 'approved' | 'denied' | 'closed';
type Waiter = {
  sessionId: string;
  settle: (decision: ApprovalDecision) => void;
  /** Re-arms the local timer for a new deadline. */
  extendTo: (expiresAt: number) => void;
};

/* Records a pending call and indexes it by session. Returns 0 if the id is taken. */
const createScript = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'sessionId', ARGV[1], 'toolName', ARGV[2], 'expiresAt', ARGV[3])
if ARGV[5] == '1' then redis.call('HSET', KEYS[1], 'ownerId', ARGV[6]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[7])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return 1
`;

/*
 * Checks session and owner, deletes the record and publishes the decision in one
 * step, so two instances can never both settle one call. A mismatch leaves the
 * record pending and answers like an unknown id.
 */
const resolveScript = `
local fields = redis.call('HMGET', KEYS[1], 'sessionId', 'ownerId')
if not fields[1] or fields[1] ~= ARGV[1] then return 0 end
if fields[2] and (ARGV[2] ~= '1' or fields[2] ~= ARGV[3]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
`;

/*
 * Moves a pending call's deadline (with the same session and owner checks as resolve),
 * keeps the record alive until then, and tells the holder to re-arm its timer.
 */
const extendScript = `
local fields = redis.call('HMGET', KEYS[1], 'sessionId', 'ownerId')
if not fields[1] or fields[1] ~= ARGV[1] then return 0 end
if fields[2] and (ARGV[2] ~= '1' or fields[2] ~= ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], 'expiresAt', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[2], ARGV[5]) end
redis.call('PUBLISH', ARGV[6], ARGV[7])
return 1
`;

/* Removes a record whatever its state (timeout, abort); 1 if it was still pending. */
const takeScript = `
local taken = redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return taken
`;

/* Denies every pending call of a session with 'closed', wherever it waits. */
const closeSessionScript = `
local closed = 0
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('DEL', ARGV[1] .. id) == 1 then
    closed = closed + 1
    redis.call('PUBLISH', ARGV[2], cjson.encode({ id = id, verdict = 'closed' }))
  end
end
redis.call('DEL', KEYS[1])
return closed
`;

/**
 * An approval registry shared by every instance that points at one Redis.
 *
 * A pending call is a hash `{sessionId, ownerId?, toolName, expiresAt}` with PX
 * = the timeout, indexed in a per-session set. The call itself waits in the
 * process that made it; a decision taken on any instance checks the session and
 * owner, deletes the record and publishes the verdict in one Lua script, and
 * the holder's single subscription wakes it. Every failure path denies:
 * timeout (local timer), abort, a failed emit, and Redis unreachable while the
 * request is being recorded (reason `aborted`, as for a failed emit: the request
 * never reached a person, so no card is emitted).
 *
 * Differences from the memory registry:
 * - `resolve` and `closeSession` return promises, and reject with
 *   `StoreUnavailableError` when Redis is unreachable (nothing is decided then;
 *   `closeSession` still denies this instance's own calls of that session);
 * - `confirm` resolves a little later than a memory one after `resolve`: the
 *   verdict travels over pub/sub;
 * - a verdict published while the holder's subscriber was disconnected is lost,
 *   and the call ends with `timeout` (fail-closed);
 * - when the local timer fires just as another instance resolves, the timer
 *   yields for up to `decisionGraceMs` (one second) to the verdict in flight, so `resolve` returning
 *   true always means the call received that verdict (abort, by contrast, wins at once);
 * - the scripts touch several keys: a single Redis (not Cluster) is assumed.
 */
export function createRedisApprovalRegistry({
  client,
  subscriber,
  prefix = 'toolgate:approval:',
  now = Date.now,
  generateId = () => crypto.randomUUID(),
  decisionGraceMs = 1_000,
}: RedisApprovalRegistryOptions): RedisApprovalRegistry {
  if (client === undefined || client === null || typeof client.eval !== 'function') {
    throw new TypeError(`Expected \`client\` to be a node-redis client, got \`${String(client)}\``);
  }
  if (typeof prefix !== 'string') {
    throw new TypeError(`Expected \`prefix\` to be a string, got \`${String(prefix)}\` (${typeof prefix})`);
  }

  // Untrusted ids and session ids stay inside their own sub-namespace, so no
  // value of one can name a key of the other.
  const pendingPrefix = `${prefix}pending:`;
  const pendingKey = (approvalId: string) => `${pendingPrefix}${approvalId}`;
  const sessionKey = (sessionId: string) => `${prefix}session:${sessionId}`;
  const channel = redisChannels.approvalRegistry(prefix);

  const waitersById = new Map<string, Waiter>();

  const onMessage = (message: string) => {
    let parsed: { id?: unknown; verdict?: unknown };
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    if (typeof parsed.id !== 'string') return;
    const waiter = waitersById.get(parsed.id);
    if (waiter === undefined) return;
    if (parsed.verdict === 'extend') {
      const { expiresAt } = parsed as { expiresAt?: unknown };
      if (typeof expiresAt === 'number') waiter.extendTo(expiresAt);
      return;
    }
    if (parsed.verdict === 'approved') waiter.settle({ approved: true });
    else if (parsed.verdict === 'closed') waiter.settle(denial('closed'));
    else waiter.settle(denial('denied'));
  };

  // One subscription per registry, established before any request is recorded.
  const subscription = createRedisSubscription({
    client,
    subscriber,
    channel,
    onMessage,
    label: 'approval subscriber',
  });

  function take(approvalId: string, sessionId: string): Promise<unknown> {
    return client.eval(takeScript, {
      keys: [pendingKey(approvalId), sessionKey(sessionId)],
      arguments: [approvalId],
    });
  }

  async function confirm(
    request: ApprovalRequest,
    emitOrOptions: ConfirmOptions | ConfirmOptions['emit'],
    positionalTimeoutMs?: number,
    positionalSignal?: AbortSignal,
  ): Promise<ApprovalDecision> {
    const { emit, timeoutMs, signal } = confirmOptionsOf(
      emitOrOptions,
      positionalTimeoutMs,
      positionalSignal,
    );
    // The client is already gone: nobody could answer, so do not show a card.
    if (signal?.aborted) return denial('aborted');

    const { sessionId } = request;
    const approvalId = generateId();
    const expiresAt = now() + timeoutMs;
    if (waitersById.has(approvalId))
      throw new Error('generateId returned an approval id that is still pending');

    let finish!: (decision: ApprovalDecision) => void;
    const decided = new Promise<ApprovalDecision>((resolvePromise) => {
      finish = resolvePromise;
    });
    let settled = false;
    let recorded = false;
    function settle(decision: ApprovalDecision, { release }: { release: boolean }) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      signal?.removeEventListener('abort', onAbort);
      waitersById.delete(approvalId);
      // Best effort: if Redis is gone the record still expires with the timeout.
      if (release && recorded) take(approvalId, sessionId).catch(() => {});
      finish(decision);
    }
    const onAbort = () => settle(denial('aborted'), { release: true });
    let graceTimer: NodeJS.Timeout | undefined;
    // The deadline starts now, before any round trip, as in memory.
    const onDeadline = async () => {
      if (settled) return;
      if (!recorded) return settle(denial('timeout'), { release: true });
      let taken = 1;
      try {
        taken = Number(await take(approvalId, sessionId));
      } catch {
        // Redis is gone: deny now.
      }
      if (taken === 1) return settle(denial('timeout'), { release: false });
      graceTimer = setTimeout(() => settle(denial('timeout'), { release: false }), decisionGraceMs);
    };
    let timer = setTimeout(onDeadline, timeoutMs);
    const extendTo = (nextExpiresAt: number) => {
      if (settled) return;
      clearTimeout(timer);
      timer = setTimeout(onDeadline, Math.max(0, nextExpiresAt - now()));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    waitersById.set(approvalId, {
      sessionId,
      settle: (decision) => settle(decision, { release: false }),
      extendTo,
    });

    try {
      // Subscribed before the record exists, so no verdict can be published unheard.
      await ensureRedisReady(client);
      await subscription.listen();
      const created = await client.eval(createScript, {
        keys: [pendingKey(approvalId), sessionKey(sessionId)],
        arguments: [
          sessionId,
          request.toolName,
          String(expiresAt),
          String(Math.ceil(timeoutMs)),
          request.ownerId === undefined ? '0' : '1',
          request.ownerId ?? '',
          approvalId,
        ],
      });
      if (Number(created) !== 1) throw new Error('approval id already recorded');
      recorded = true;
    } catch {
      // Fail-closed: a request that could not be recorded can never be approved.
      settle(denial('aborted'), { release: false });
      return decided;
    }
    if (settled) {
      // Aborted or timed out while the record was being written.
      take(approvalId, sessionId).catch(() => {});
      return decided;
    }

    emitApprovalRequest(emit, request, { approvalId, expiresAt }, () =>
      settle(denial('aborted'), { release: true }),
    );
    return decided;
  }

  async function resolve(
    approvalId: string,
    sessionId: string,
    approved: boolean,
    ownerId?: string,
  ): Promise<boolean> {
    if (typeof approvalId !== 'string' || typeof sessionId !== 'string') return false;
    const verdict: Verdict = approved === true ? 'approved' : 'denied';
    try {
      await ensureRedisReady(client);
      const woken = await client.eval(resolveScript, {
        keys: [pendingKey(approvalId), sessionKey(sessionId)],
        arguments: [
          sessionId,
          ownerId === undefined ? '0' : '1',
          ownerId ?? '',
          approvalId,
          channel,
          JSON.stringify({ id: approvalId, verdict }),
        ],
      });
      return Number(woken) === 1;
    } catch (error) {
      throw toStoreUnavailable(error, 'resolving an approval');
    }
  }

  async function extend(
    approvalId: string,
    sessionId: string,
    expiresAt: number,
    ownerId?: string,
  ): Promise<boolean> {
    if (typeof approvalId !== 'string' || typeof sessionId !== 'string') return false;
    try {
      await ensureRedisReady(client);
      const extended = await client.eval(extendScript, {
        keys: [pendingKey(approvalId), sessionKey(sessionId)],
        arguments: [
          sessionId,
          ownerId === undefined ? '0' : '1',
          ownerId ?? '',
          String(expiresAt),
          String(Math.max(1, Math.ceil(expiresAt - now()))),
          channel,
          JSON.stringify({ id: approvalId, verdict: 'extend', expiresAt }),
        ],
      });
      return Number(extended) === 1;
    } catch (error) {
      throw toStoreUnavailable(error, 'extending an approval');
    }
  }

  async function closeSession(sessionId: string): Promise<number> {
    try {
      await ensureRedisReady(client);
      return Number(
        await client.eval(closeSessionScript, {
          keys: [sessionKey(sessionId)],
          arguments: [pendingPrefix, channel],
        }),
      );
    } catch (error) {
      // The session is going away: at least the calls waiting here end now.
      for (const waiter of [...waitersById.values()]) {
        if (waiter.sessionId === sessionId) waiter.settle(denial('closed'));
      }
      throw toStoreUnavailable(error, 'closing a session');
    }
  }

  function close(): Promise<void> {
    return subscription.close();
  }

  return { confirm, resolve, closeSession, extend, close };
}

function denial(reason: DenialReason): ApprovalDecision {
  return { approved: false, reason };
}
