import 'server-only';
import type { EffectRecorder } from '@toolgate/engine/shells';
import { getConfig, testFault } from '@/lib/config';
import type { Db } from '@/lib/db/engine';
import { getDb } from '@/lib/db/get-db';
import { commitToolEffect } from '@/lib/db/tool-effects';

/**
 * The idempotency shell's effect recorder: each write's rows and the record of its result
 * commit in one transaction of the app's database (lib/db/tool-effects.ts), replayed for
 * `IDEMPOTENCY_TTL_MS`. The shell's partition is the user id. With the test-only
 * `TOOLGATE_FAULT=crash-after-effect` the process dies right after such a commit, before
 * the idempotency store has heard of it: the case the record exists for.
 */
export function getEffectRecorder(): EffectRecorder {
  return {
    async commit(call, effect) {
      const config = getConfig();
      const committed = await commitToolEffect(
        await getDb(),
        { ...call, userId: call.partition ?? null },
        (transaction: Db) => effect(transaction),
        { ttlMs: config.IDEMPOTENCY_TTL_MS },
      );
      if (!committed.replayed && testFault(config) === 'crash-after-effect') {
        console.error(
          '[toolgate] TOOLGATE_FAULT=crash-after-effect: killing the process after a committed write',
        );
        process.kill(process.pid, 'SIGKILL');
      }
      return committed;
    },
  };
}
