import { getConfig } from '@/lib/config';
import { jsonError } from '@/lib/http/json';
import { withSession } from '@/lib/http/with-session';
import { liveTimerCount } from '@/lib/server/timer-census';

export const dynamic = 'force-dynamic';

/**
 * Benchmark probe: the server's heap after a full collection (`--expose-gc` on the
 * server's Node) and its live timers, so a benchmark can measure what waiting work costs. Served only with
 * `TOOLGATE_BENCH_BASELINE=1`; 404 otherwise.
 */
export const GET = withSession(async () => {
  if (!getConfig().TOOLGATE_BENCH_BASELINE) return jsonError(404, 'Not found');
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) return jsonError(409, 'Start the server with --expose-gc');
  collect();
  collect();
  const { heapUsed, rss } = process.memoryUsage();
  // Timers alive in the process, unref'd ones included: what waiting work would add per row.
  const timers = liveTimerCount() ?? null;
  return Response.json({ heapUsed, rss, timers });
});
