import type { NextRequest } from 'next/server';
import { stopChatTurn } from '@/lib/chat/stop-chat-turn';
import { jsonError } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { ownerIdFromRequest } from '@/lib/server/owner';

/** The Stop button: pending approvals deny `aborted`, the model stops, the partial message is saved settled. */
export const POST = withUnavailableAs503(
  async (request: NextRequest, { params }: { params: Promise<{ id: string }> }) => {
    const { id } = await params;
    const result = await stopChatTurn({ chatId: id, ownerId: ownerIdFromRequest(request) });
    return result === undefined ? jsonError(404, 'Chat not found') : Response.json(result);
  },
);
