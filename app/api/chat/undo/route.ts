import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { readJsonBody } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { readUndoState, undoToolCall } from '@/lib/undo/undo-tool-call';

/**
 * Undoes a write within its window: `{ approvalId }` or `{ chatId, toolCallId }` →
 * 200 `{ undone: true }`; 409 past the window or when already undone; 404 for an unknown
 * call or someone else's.
 */
export const POST = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const body = await readJsonBody(request, { maxBytes: 1024 });
    if (!body.ok) return body.response;
    const result = await undoToolCall(body.value, user);
    return Response.json(result.body, { status: result.status });
  }),
);

/** Whether a call can still be undone (`?approvalId=` or `?chatId=&toolCallId=`): `{ undoable, undone, remainingMs }`. */
export const GET = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const query = Object.fromEntries(request.nextUrl.searchParams);
    const result = await readUndoState(query, user);
    return Response.json(result.body, { status: result.status });
  }),
);
