import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { stopChatTurn } from '@/lib/chat/stop-chat-turn';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** The Stop button: pending approvals deny `aborted`, the model stops, the partial message is saved settled. */
export const POST = withUnavailableAs503(
  withSession(async (_request: NextRequest, user, { params }: { params: Promise<{ id: string }> }) => {
    const { id } = await params;
    const result = await stopChatTurn({ chatId: id, ownerId: user.id });
    return result === undefined ? jsonError(404, 'Chat not found') : Response.json(result);
  }),
);
