import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { completeChatTurn } from '@/lib/chat/complete-chat-turn';
import { jsonError, readJsonBody } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { checkUserTurnLimit } from '@/lib/server/user-rate-limits';
import { parseChatRequest } from '../schema';

/** One chat turn without streaming; refused while any tool needs approval. */
export const POST = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const limited = await checkUserTurnLimit(user.id);
    if (limited !== undefined) return limited;
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const parsed = parseChatRequest(body.value);
    if (!parsed.success) return jsonError(400, parsed.error);

    const { id: chatId, ...turn } = parsed.data;
    const result = await completeChatTurn({
      ...turn,
      chatId,
      ownerId: user.id,
      signal: request.signal,
    });
    return 'error' in result ? jsonError(result.status, result.error) : Response.json(result);
  }),
);
