import 'server-only';
import {
  type ApprovalRegistry,
  createMemoryApprovalRegistry,
  createMemoryIdempotencyStore,
  type IdempotencyStore,
} from '@toolgate/engine';
import {
  createRedisApprovalRegistry,
  createRedisIdempotencyStore,
  getRedisClient,
} from '@toolgate/engine/redis';
import { getConfig } from '@/lib/config';

/*
 * In Next.js the route handlers and the server actions load separate module
 * instances, so a module-level variable would give each its own registry and a
 * decision from the card would never reach the waiting call. The singletons live
 * on globalThis instead.
 */
const globalForStores = globalThis as typeof globalThis & {
  __toolgateIdempotencyStore?: IdempotencyStore;
  __toolgateApprovalRegistry?: ApprovalRegistry;
};

/** The process-wide idempotency store: Redis when `REDIS_URL` is set, memory otherwise. */
export function getIdempotencyStore(): IdempotencyStore {
  let store = globalForStores.__toolgateIdempotencyStore;
  if (store === undefined) {
    const config = getConfig();
    const options = { ttlMs: config.IDEMPOTENCY_TTL_MS, maxEntries: config.IDEMPOTENCY_MAX_ENTRIES };
    store = config.REDIS_URL
      ? createRedisIdempotencyStore({ client: getRedisClient(config.REDIS_URL), ...options })
      : createMemoryIdempotencyStore(options);
    globalForStores.__toolgateIdempotencyStore = store;
  }
  return store;
}

/** The process-wide approval registry: Redis when `REDIS_URL` is set, memory otherwise. */
export function getApprovalRegistry(): ApprovalRegistry {
  let registry = globalForStores.__toolgateApprovalRegistry;
  if (registry === undefined) {
    const config = getConfig();
    registry = config.REDIS_URL
      ? createRedisApprovalRegistry({ client: getRedisClient(config.REDIS_URL) })
      : createMemoryApprovalRegistry();
    globalForStores.__toolgateApprovalRegistry = registry;
  }
  return registry;
}
