import 'server-only';
import {
  convertToModelMessages,
  createUIMessageStream,
  createUIMessageStreamResponse,
  stepCountIs,
  streamText,
} from 'ai';
import { insertAuditRow, saveMessages } from '@/lib/db';
import { getToolRateLimiter } from '@/lib/server/rate-limiter';
import { getApprovalRegistry, getIdempotencyStore } from '@/lib/server/stores';
import { createApprovalChunkSequencer } from './approval-chunk-sequencer';
import { assembleTurnTools } from './assemble-turn-tools';
import { prepareChatTurn } from './prepare-chat-turn';
import type { ChatMessageMetadata, ChatTurnRejection, ChatTurnRequest } from './types';
import { workerInstructions } from './worker-instructions';

/** The most model steps one turn may take (tool call → result → answer, twice). */
export const maxTurnSteps = 6;

/**
 * Runs one streaming chat turn and answers the AI SDK UI message stream.
 *
 * A listed tool suspends inside this response: its approval request is written to
 * the stream as a native `tool-approval-request` chunk, and the same response
 * continues with the output (or the denial) once a person decides, the timeout
 * passes, or the client goes away.
 */
export async function streamChatTurn(request: ChatTurnRequest): Promise<Response | ChatTurnRejection> {
  const turn = await prepareChatTurn(request);
  if ('rejection' in turn) return turn.rejection as ChatTurnRejection;
  const { config, db, model, modelLabel, worker, baseTools, history } = turn;

  const timeoutMs = config.AGENT_CONFIRM_TIMEOUT_MS;
  // Set once the stream starts; a replay can only happen inside a tool's execute, after that.
  let writeReplay: ((toolCallId: string) => void) | undefined;
  // Approval (and the sequencer that orders its chunks) only where this worker's table
  // holds a listed tool: the other workers' turns pay nothing for it.
  const confirmTools = new Set(
    [...config.AGENT_CONFIRM_TOOLS].filter((name) => Object.hasOwn(baseTools, name)),
  );
  const sequencer = confirmTools.size > 0 ? createApprovalChunkSequencer({ timeoutMs }) : undefined;
  const tools = assembleTurnTools({
    baseTools,
    worker,
    sessionId: request.id,
    ownerId: request.ownerId,
    approval: sequencer && { confirmTools, registry: getApprovalRegistry(), emit: sequencer.emit, timeoutMs },
    store: getIdempotencyStore(),
    audit: (row) => insertAuditRow(db, row),
    rateLimiter: getToolRateLimiter(),
    signal: request.signal,
    // The result of a replay is the same on purpose; the UI learns it was one from this data part.
    onReplay: ({ toolCallId }) => writeReplay?.(toolCallId),
  });
  const modelMessages = await convertToModelMessages(history, { tools, ignoreIncompleteToolCalls: true });
  const metadata: ChatMessageMetadata = { worker, model: modelLabel };

  const stream = createUIMessageStream({
    originalMessages: history,
    execute: ({ writer }) => {
      writeReplay = (toolCallId) =>
        writer.write({ type: 'data-replay', id: toolCallId, data: { toolCallId } });
      const result = streamText({
        model,
        system: workerInstructions(worker),
        messages: modelMessages,
        tools,
        stopWhen: stepCountIs(maxTurnSteps),
        abortSignal: request.signal,
      });
      const chunks = result.toUIMessageStream({
        messageMetadata: ({ part }) => (part.type === 'start' ? metadata : undefined),
      });
      writer.merge(sequencer ? chunks.pipeThrough(sequencer.transform) : chunks);
    },
    onError: (error) => (error instanceof Error ? error.message : 'The model failed to answer.'),
    onEnd: ({ messages }) => {
      saveMessages(db, request.id, messages);
    },
  });
  return createUIMessageStreamResponse({ stream });
}
