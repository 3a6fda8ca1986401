import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { streamChatTurn } from '@/lib/chat/stream-chat-turn';
import { jsonError, readJsonBody } from '@/lib/http/json';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { checkClientLimit } from '@/lib/server/client-rate-limits';
import { endsAtShutdown } from '@/lib/server/shutdown';
import { checkUserTurnLimit } from '@/lib/server/user-rate-limits';
import { parseChatRequest } from './schema';

// The response follows a turn that may wait for a person up to the confirm timeout.
export const maxDuration = 300;

/** The streaming chat endpoint `useChat` talks to. */
export const POST = withUnavailableAs503(
  withSession(async (request: NextRequest, user) => {
    const limited = await checkClientLimit(request, 'turn');
    if (limited !== undefined) return limited;
    const userLimited = await checkUserTurnLimit(user.id);
    if (userLimited !== undefined) return userLimited;
    const body = await readJsonBody(request);
    if (!body.ok) return body.response;
    const parsed = parseChatRequest(body.value);
    if (!parsed.success) return jsonError(400, parsed.error);

    // No request.signal: the turn is detached, a client that goes away is not a decision.
    const { id: chatId, ...turn } = parsed.data;
    const result = await streamChatTurn({ ...turn, chatId, ownerId: user.id });
    if (!(result instanceof Response)) return jsonError(result.status, result.error);
    // A stop of the process ends the stream; the turn goes on as when a tab closes.
    if (result.body === null) return result;
    return new Response(endsAtShutdown(result.body), { status: result.status, headers: result.headers });
  }),
);
