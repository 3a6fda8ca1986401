import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { readWebhookDeliveries } from '@/lib/webhooks/read-webhook-deliveries';
import { parseWebhookDeliveriesQuery } from './schema';

export const dynamic = 'force-dynamic';

/**
 * The approval webhook's latest deliveries, newest first, for admins: `?status=` (pending,
 * delivered, failed) and `?limit=` (1–500, default 100). Anyone else gets 404, as for a
 * route that does not exist.
 */
export const GET = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    if (!user.isAdmin) return jsonError(404, 'Not found');
    const parsed = parseWebhookDeliveriesQuery(request.nextUrl.searchParams);
    if (!parsed.success) return jsonError(400, parsed.error);
    return Response.json(await readWebhookDeliveries(parsed.data), {
      headers: { 'Cache-Control': 'no-store' },
    });
  }),
);
