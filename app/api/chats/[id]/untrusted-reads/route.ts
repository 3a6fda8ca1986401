import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { clearChatMark, listChatMark } from '@/lib/chats/chat-mark';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/**
 * The untrusted reads that mark this chat (`{ reads: [{ tool, toolCallId, unreadable, readAt }] }`,
 * newest first): while any is listed, a write whose values the person did not all type waits
 * for their card.
 */
export const GET = withUnavailableAs503(
  withSession(async (_request: NextRequest, user, { params }: { params: Promise<{ id: string }> }) => {
    const { id } = await params;
    const reads = await listChatMark({ chatId: id, ownerId: user.id });
    return reads === undefined ? jsonError(404, 'Chat not found') : Response.json({ reads });
  }),
);

/**
 * "I have checked what was read": clears the chat's mark, audited (`taint_cleared`). A file
 * whose text could not be read stays. `{ cleared, reads }` with the reads that still mark it.
 */
export const DELETE = withUnavailableAs503(
  withSession(async (_request: NextRequest, user, { params }: { params: Promise<{ id: string }> }) => {
    const { id } = await params;
    const result = await clearChatMark({ chatId: id, ownerId: user.id });
    return result === undefined
      ? jsonError(404, 'Chat not found')
      : Response.json({ cleared: result.cleared, reads: result.remaining });
  }),
);
