import { streamText } from 'ai';
import type { NextRequest } from 'next/server';
import { getChatModel } from '@/lib/ai/models';
import { turnModelCall } from '@/lib/chat/turn-model-call';
import { getConfig } from '@/lib/config';
import { jsonError, readJsonBody } from '@/lib/http/json';
import { parseChatRequest } from '../../chat/schema';

/**
 * Benchmark floor for `/api/chat`: the AI SDK by itself in the same build. The
 * same offline model and worker instructions answer the one message in the body
 * with `streamText` and `toUIMessageStreamResponse`, and nothing else runs: no
 * session lookup, no database (no history, no routing, nothing saved), no tools,
 * no shells, no resumable stream. A hardened turn against this is what the whole
 * product costs on top of the SDK. Mounted only in a bench build
 * (`app/api/bench/README.md`).
 */
export async function POST(request: NextRequest): Promise<Response> {
  const config = getConfig();
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const parsed = await parseChatRequest(body.value);
  if (!parsed.success) return jsonError(400, parsed.error);
  const { message, worker = 'knowledge' } = parsed.data;
  const result = streamText(
    await turnModelCall({
      model: getChatModel(config).model,
      worker: worker === 'auto' ? 'knowledge' : worker,
      history: [message],
      tools: {},
      abortSignal: request.signal,
    }),
  );
  return result.toUIMessageStreamResponse();
}
