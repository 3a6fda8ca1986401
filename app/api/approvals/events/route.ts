import type { NextRequest } from 'next/server';
import { z } from 'zod';
import { localeOfRequest } from '@/app/request-locale';
import { localeStorageKey } from '@/components/i18n';
import { approvalEventStream } from '@/lib/approvals';
import { rememberUserLocale } from '@/lib/auth/remember-user-locale';
import { withSession } from '@/lib/auth/with-session';
import { describeZodError, jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { endsAtShutdown } from '@/lib/server/shutdown';

const querySchema = z.union([
  z.strictObject({ chatId: z.string().min(1).max(128) }),
  z.strictObject({ approvalId: z.string().min(1).max(128) }),
  z.strictObject({ inbox: z.literal('1').transform(() => true as const) }),
]);

/**
 * Server-sent events when an approval of a chat (`?chatId=`, its owner), one approval
 * (`?approvalId=`, whoever may see it) or any approval this user may see (`?inbox=1`, the
 * approvers' inbox) changes: asked, a step decided, settled, more time. Opening one also
 * remembers the page's language for mail to this user: a role holder's chat and approvals
 * pages open the inbox's.
 */
export const GET = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const parsed = querySchema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
    if (!parsed.success) return jsonError(400, describeZodError(parsed.error));
    // Only a language the request states (a browser always does): a script's default is nobody's choice.
    if (request.cookies.has(localeStorageKey) || request.headers.has('accept-language'))
      await rememberUserLocale(user, localeOfRequest(request));
    const stream = await approvalEventStream(parsed.data, user, request.signal);
    if (stream === undefined) return jsonError(404, 'Nothing to follow with that id');
    if (stream === 'too-many') {
      return Response.json(
        { error: 'Too many open event streams: close another tab or page first' },
        { status: 429, headers: { 'retry-after': '30' } },
      );
    }
    return new Response(endsAtShutdown(stream.pipeThrough(new TextEncoderStream())), {
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      },
    });
  }),
);
