import { withSession } from '@/lib/auth/with-session';
import { jsonError } from '@/lib/http/json';
import { liveTimerCount, startTimerCensus } from './timer-census';

export const dynamic = 'force-dynamic';

/**
 * Benchmark probe: the server's heap after a full collection (`--expose-gc` on the
 * server's Node) and its live timers, so a benchmark can measure what waiting work costs. Mounted only in a
 * bench build (`app/api/bench/README.md`). The timer census starts when this module first
 * loads, on the bench's first probe, before the workload it measures.
 */
startTimerCensus();

export const GET = withSession(async () => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) return jsonError(409, 'Start the server with --expose-gc');
  collect();
  collect();
  const { heapUsed, rss } = process.memoryUsage();
  // Timers alive in the process, unref'd ones included: what waiting work would add per row.
  const timers = liveTimerCount() ?? null;
  return Response.json({ heapUsed, rss, timers });
});
