import 'server-only';
import type { Db } from '@/lib/db/engine';
import { signWebhookBody } from './sign-webhook-body';
import {
  claimDueWebhookDeliveries,
  type DeliveryChannel,
  pruneWebhookDeliveries,
  settleWebhookTry,
  type WebhookDelivery,
} from './webhook-deliveries';

/** Options of {@link createWebhookDeliveryLoop}; every duration in milliseconds. */
export type WebhookDeliveryLoopOptions = {
  /** The database whose `webhook_delivery` rows this loop sends (a getter: it may open lazily). */
  db: () => Promise<Db>;
  /** The receiver (`TOOLGATE_APPROVAL_WEBHOOK_URL`); unused with `send`. */
  url?: string;
  /** The HMAC key (`TOOLGATE_WEBHOOK_SECRET`); unused with `send`. */
  secret?: string;
  /** Which rows this loop sends. Default `webhook`. */
  channel?: DeliveryChannel;
  /** Makes one try of a row (mail goes out this way); default: the signed POST to `url`. */
  send?: (delivery: WebhookDelivery) => Promise<DeliveryAnswer>;
  /** How often due rows are looked for. Default 1000. */
  intervalMs?: number;
  /** At most this many tries in flight, and claimed per look. Default 10. */
  batchSize?: number;
  /** A try that has no answer after this long fails. Default 5000. */
  timeoutMs?: number;
  /** Tries per event before it is `failed`. Default 5. */
  maxAttempts?: number;
  /** The wait after failed try `attempt` (1, 2, …). Default 2^attempt s plus up to 1 s of jitter: 2, 4, 8, 16 s. */
  retryDelayMs?: (attempt: number) => number;
  /** Bytes of a failing answer's body kept as its error. Default 512. */
  responseBodyLimit?: number;
  /** Delivered and failed deliveries queued longer ago than this are deleted. Default 7 days (`TOOLGATE_WEBHOOK_RETENTION_MS`). */
  retentionMs?: number;
  /** How often old deliveries are looked for (at most 500 deleted per look). Default 60000. */
  pruneIntervalMs?: number;
  /** Where deliveries and failures are logged. Default `console`. */
  logger?: Pick<Console, 'info' | 'warn' | 'error'>;
  /** The clock, epoch ms. Default `Date.now`. */
  now?: () => number;
};

/** What one try of a delivery came to. */
export type DeliveryAnswer = { delivered: boolean; status?: number; error?: string };

/** A running delivery loop. */
export type WebhookDeliveryLoop = {
  /** Looks for due rows now (an enqueue in this process calls it so the first try leaves at once). */
  wake: () => void;
  /** Stops looking and waits for the tries in flight. */
  stop: () => Promise<void>;
};

/** How long delivered and failed deliveries are kept: 7 days. */
export const defaultWebhookRetentionMs = 7 * 24 * 60 * 60 * 1000;

/** Exponential backoff with jitter: about 30 s of waiting over the four retries of five tries. */
export const defaultRetryDelayMs = (attempt: number) =>
  2 ** attempt * 1000 + Math.floor(Math.random() * 1000);

// Every loop started in this process, so an enqueue wakes them (the start-up hook and the
// routes are bundled apart: one set on globalThis).
const globalForLoops = globalThis as typeof globalThis & {
  __toolgateWebhookLoops?: Set<WebhookDeliveryLoop>;
};
const runningLoops = () => {
  globalForLoops.__toolgateWebhookLoops ??= new Set();
  return globalForLoops.__toolgateWebhookLoops;
};

/** Wakes every delivery loop running in this process. */
export function wakeWebhookDeliveries(): void {
  for (const loop of runningLoops()) loop.wake();
}

/**
 * Starts a loop that POSTs due approval webhook events: one timer for the whole loop
 * (never one per row), at most `batchSize` tries in flight, each claimed by
 * compare-and-set so several instances on one database send each try once. A try is
 * the raw stored body with its signature; a 2xx answer delivers it, anything else (a
 * redirect too: none is followed) is retried after a backoff until `maxAttempts`.
 */
export function createWebhookDeliveryLoop({
  db,
  url = '',
  secret = '',
  channel = 'webhook',
  send,
  intervalMs = 1000,
  batchSize = 10,
  timeoutMs = 5000,
  maxAttempts = 5,
  retryDelayMs = defaultRetryDelayMs,
  responseBodyLimit = 512,
  retentionMs = defaultWebhookRetentionMs,
  pruneIntervalMs = 60_000,
  logger = console,
  now = Date.now,
}: WebhookDeliveryLoopOptions): WebhookDeliveryLoop {
  // A try's lease outlasts its timeout, so a slow answer is settled before another loop may take the row.
  const leaseMs = timeoutMs + 10_000;
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let looking: Promise<void> | undefined;
  let lookAgain = false;
  let prunedAt = Number.NEGATIVE_INFINITY;

  const look = async () => {
    const database = await db();
    if (now() - prunedAt >= pruneIntervalMs) {
      prunedAt = now();
      const pruned = await pruneWebhookDeliveries(database, { before: prunedAt - retentionMs, limit: 500 });
      if (pruned > 0)
        logger.info(`[toolgate] webhook: pruned ${pruned} deliveries older than ${retentionMs} ms`);
    }
    const limit = batchSize - inFlight.size;
    const claimed = await claimDueWebhookDeliveries(database, { now: now(), limit, leaseMs, channel });
    // A full batch may have left due rows behind: each freed slot looks again.
    const more = limit > 0 && claimed.length === limit;
    for (const delivery of claimed) {
      const sending = attempt(database, delivery).finally(() => {
        inFlight.delete(sending);
        if (more) wake();
      });
      inFlight.add(sending);
    }
  };

  const wake = () => {
    if (stopped) return;
    if (looking !== undefined) {
      lookAgain = true;
      return;
    }
    looking = look()
      .catch((error: unknown) => logger.error(`[toolgate] ${channel}: could not read due deliveries:`, error))
      .finally(() => {
        looking = undefined;
        if (lookAgain) {
          lookAgain = false;
          wake();
        }
      });
  };

  const attempt = async (database: Db, delivery: WebhookDelivery) => {
    const answer = await (send ?? post)(delivery);
    const at = now();
    const label = `${delivery.eventType} ${delivery.id} (approval ${delivery.approvalId}), try ${delivery.attempts} of ${maxAttempts}`;
    try {
      if (answer.delivered) {
        await settleWebhookTry(database, {
          id: delivery.id,
          attempt: delivery.attempts,
          delivered: true,
          status: answer.status,
          now: at,
        });
        logger.info(
          `[toolgate] ${channel}: delivered ${label}${answer.status === undefined ? '' : `: HTTP ${answer.status}`}`,
        );
        return;
      }
      const last = delivery.attempts >= maxAttempts;
      const retryAt = last ? undefined : at + retryDelayMs(delivery.attempts);
      await settleWebhookTry(database, {
        id: delivery.id,
        attempt: delivery.attempts,
        delivered: false,
        status: answer.status,
        error: answer.error,
        retryAt,
        now: at,
      });
      if (last) logger.error(`[toolgate] ${channel}: gave up on ${label}: ${answer.error}`);
      else
        logger.warn(
          `[toolgate] ${channel}: ${label} failed: ${answer.error}; next try in ${Math.round((retryAt as number) - at)} ms`,
        );
    } catch (error) {
      // The lease runs out and the try is made again: a receiver dedupes by event id.
      logger.error(`[toolgate] ${channel}: could not record ${label}:`, error);
    }
  };

  const post = async (delivery: WebhookDelivery): Promise<DeliveryAnswer> => {
    try {
      const response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Toolgate-Webhook/1',
          'X-Toolgate-Event': delivery.eventType,
          'X-Toolgate-Event-Id': delivery.id,
          'X-Toolgate-Timestamp': timestampOf(delivery),
          'X-Toolgate-Attempt': String(delivery.attempts),
          'X-Toolgate-Signature': signWebhookBody(secret, delivery.body),
        },
        body: delivery.body,
      });
      if (response.status >= 200 && response.status < 300) {
        await response.body?.cancel().catch(() => undefined);
        return { delivered: true, status: response.status };
      }
      const text = await readCapped(response, responseBodyLimit);
      return {
        delivered: false,
        status: response.status,
        error: `HTTP ${response.status}${text ? `: ${text}` : ''}`,
      };
    } catch (error) {
      return { delivered: false, error: describeFailure(error, timeoutMs) };
    }
  };

  const timer = setInterval(wake, intervalMs);
  timer.unref();
  const loop: WebhookDeliveryLoop = {
    wake,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      runningLoops().delete(loop);
      await looking;
      await Promise.allSettled([...inFlight]);
    },
  };
  runningLoops().add(loop);
  wake();
  return loop;
}

/** The event's `timestamp` from its body (seconds since the epoch), so the header matches what is signed. */
function timestampOf(delivery: WebhookDelivery): string {
  try {
    const { timestamp } = JSON.parse(delivery.body) as { timestamp?: string };
    const seconds = Math.floor(new Date(timestamp ?? delivery.createdAt).getTime() / 1000);
    return String(Number.isNaN(seconds) ? Math.floor(Date.parse(delivery.createdAt) / 1000) : seconds);
  } catch {
    return String(Math.floor(Date.parse(delivery.createdAt) / 1000));
  }
}

/** At most `limit` bytes of the answer's body as text; the rest is never read. */
async function readCapped(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body that breaks off still leaves its status as the error.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8').replace(/\s+/g, ' ').trim();
}

/** A failed request in a few words: a timeout, or the network error's code. */
function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code !== undefined) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
