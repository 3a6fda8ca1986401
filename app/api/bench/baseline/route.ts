import { convertToModelMessages, stepCountIs, streamText } from 'ai';
import type { NextRequest } from 'next/server';
import { prepareChatTurn } from '@/lib/chat/prepare-chat-turn';
import { sanitizeUIMessages } from '@/lib/chat/sanitize-ui-messages';
import { maxTurnSteps } from '@/lib/chat/stream-chat-turn';
import type { ChatMessageMetadata } from '@/lib/chat/types';
import { workerInstructions } from '@/lib/chat/worker-instructions';
import { getConfig } from '@/lib/config';
import { upsertMessage } from '@/lib/db';
import { jsonError, readJsonBody } from '@/lib/http/json';
import { withSession } from '@/lib/http/with-session';
import { parseChatRequest } from '../../chat/schema';

/**
 * Benchmark baseline for `/api/chat`: the same request handling, worker, model
 * and worker tools, persisted the same way, but the tools are the bare worker
 * table (no shells: no approval, idempotency, audit or rate limit) and the
 * stream is streamText's own `toUIMessageStreamResponse` (no side channel).
 * The difference between the two is what the shells cost. Served only with
 * `TOOLGATE_BENCH_BASELINE=1`; 404 otherwise.
 */
export const POST = withSession(async (request: NextRequest, user) => {
  if (!getConfig().TOOLGATE_BENCH_BASELINE) return jsonError(404, 'Not found');
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const parsed = await parseChatRequest(body.value);
  if (!parsed.success) return jsonError(400, parsed.error);

  const turn = await prepareChatTurn(
    { ...parsed.data, ownerId: user.id, signal: request.signal },
    { saveUserMessage: true },
  );
  if ('rejection' in turn) {
    const { status, error } = turn.rejection;
    return jsonError(status, error);
  }
  const { db, model, modelLabel, worker, baseTools, history } = turn;
  const metadata: ChatMessageMetadata = { worker, model: modelLabel };

  const result = streamText({
    model,
    system: workerInstructions(worker),
    messages: await convertToModelMessages(sanitizeUIMessages(history), {
      tools: baseTools,
      ignoreIncompleteToolCalls: true,
    }),
    tools: baseTools,
    stopWhen: stepCountIs(maxTurnSteps),
    abortSignal: request.signal,
  });
  return result.toUIMessageStreamResponse({
    originalMessages: history,
    messageMetadata: ({ part }) => (part.type === 'start' ? metadata : undefined),
    onEnd: async ({ messages }) => {
      const reply = messages.at(-1);
      if (reply !== undefined) await upsertMessage(db, parsed.data.id, reply);
    },
  });
});
