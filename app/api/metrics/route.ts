import type { NextRequest } from 'next/server';
import { countPendingApprovals } from '@/lib/approvals';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { isMetricsToken, readMetrics } from '@/lib/telemetry/read-metrics';

export const dynamic = 'force-dynamic';

/**
 * Prometheus metrics. No session: a scraper sends `Authorization: Bearer
 * $TOOLGATE_METRICS_TOKEN` instead (401 without it or with a wrong one). Without the
 * variable the endpoint does not exist (404), so nothing is exposed by default.
 */
export const GET = withUnavailableAs503(async (request: NextRequest) => {
  const token = getConfig().TOOLGATE_METRICS_TOKEN;
  if (token === undefined) return jsonError(404, 'Not found');
  if (!isMetricsToken(request.headers.get('authorization'), token)) {
    return Response.json(
      { error: 'Send Authorization: Bearer <TOOLGATE_METRICS_TOKEN>' },
      { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } },
    );
  }
  return new Response(readMetrics({ approvalsPending: await countPendingApprovals(await getDb()) }), {
    headers: { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' },
  });
});
