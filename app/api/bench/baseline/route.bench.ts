import { streamText } from 'ai';
import type { NextRequest } from 'next/server';
import { withSession } from '@/lib/auth/with-session';
import { prepareChatTurn } from '@/lib/chat/prepare-chat-turn';
import { turnModelCall } from '@/lib/chat/turn-model-call';
import type { ChatMessageMetadata } from '@/lib/chat/types';
import { upsertMessage } from '@/lib/db';
import { jsonError, readJsonBody } from '@/lib/http/json';
import { parseChatRequest } from '../../chat/schema';

/**
 * Benchmark baseline for `/api/chat`: the same request handling, worker, model
 * and worker tools, persisted the same way, but the tools are the bare worker
 * table (no shells: no approval, idempotency, audit or rate limit) and the
 * stream is streamText's own `toUIMessageStreamResponse` (no side channel).
 * The difference between the two is what the shells cost. Mounted only in
 * a bench build (`app/api/bench/README.md`).
 */
export const POST = withSession(async (request: NextRequest, user) => {
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const parsed = await parseChatRequest(body.value);
  if (!parsed.success) return jsonError(400, parsed.error);

  const { id: chatId, ...fields } = parsed.data;
  const turn = await prepareChatTurn(
    { ...fields, chatId, ownerId: user.id, signal: request.signal },
    { saveUserMessage: true },
  );
  if ('rejection' in turn) {
    const { status, error } = turn.rejection;
    return jsonError(status, error);
  }
  const { db, model, modelLabel, worker, table, history } = turn;
  const metadata: ChatMessageMetadata = { worker, model: modelLabel };

  const result = streamText(
    await turnModelCall({ model, worker, history, tools: table.tools, abortSignal: request.signal }),
  );
  return result.toUIMessageStreamResponse({
    originalMessages: history,
    messageMetadata: ({ part }) => (part.type === 'start' ? metadata : undefined),
    onEnd: async ({ messages }) => {
      const reply = messages.at(-1);
      if (reply !== undefined) await upsertMessage(db, chatId, reply);
    },
  });
});
