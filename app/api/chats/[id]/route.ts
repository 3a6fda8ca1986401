import { StoreUnavailableError } from '@toolgate/engine';
import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { readOwnedChat } from '@/lib/chat/read-chat';
import { deleteOwnedChat } from '@/lib/chats/delete-chat';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';

/** One chat with its messages; another owner's chat answers like an unknown one. */
export const GET = withUnavailableAs503(
  withSession(async (_request: NextRequest, user, { params }: { params: Promise<{ id: string }> }) => {
    const { id } = await params;
    const chat = await readOwnedChat({ chatId: id, ownerId: user.id });
    return chat === undefined ? jsonError(404, 'Chat not found') : Response.json(chat);
  }),
);

/** Deletes a chat, denies its pending approvals (`closed`) and clears its idempotency scope. */
export const DELETE = withUnavailableAs503(
  withSession(async (_request: NextRequest, user, { params }: { params: Promise<{ id: string }> }) => {
    const { id } = await params;
    try {
      const deleted = await deleteOwnedChat({ chatId: id, ownerId: user.id });
      return deleted ? Response.json({ deleted: true }) : jsonError(404, 'Chat not found');
    } catch (error) {
      // The chat stays until its approvals and idempotency scope can be closed with it.
      if (error instanceof StoreUnavailableError)
        return jsonError(503, 'Cannot delete the chat right now; try again');
      throw error;
    }
  }),
);
