import 'server-only';
import {
  convertToModelMessages,
  createUIMessageStreamResponse,
  generateId,
  stepCountIs,
  streamText,
} from 'ai';
import { publicErrorText } from '@/lib/errors/public-error';
import { getToolRateLimiter } from '@/lib/server/rate-limiter';
import { getApprovalRegistry, getIdempotencyStore } from '@/lib/server/stores';
import { writeToolNames } from '@/lib/shells';
import { assembleTurnTools } from './assemble-turn-tools';
import { createAuditWriter } from './create-audit-writer';
import { prepareChatTurn } from './prepare-chat-turn';
import { saveTurnMessages } from './save-turn-messages';
import { createTurnSideChannel } from './turn-side-channel';
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
  if ('rejection' in turn) return turn.rejection;
  const { config, db, model, modelLabel, worker, baseTools, mcpConfirmTools, mcpWriteTools, history } = turn;
  const timeoutMs = config.AGENT_CONFIRM_TIMEOUT_MS;

  // Approval, and the side channel that streams its cards and replays, only where this
  // worker's table holds a listed or a write tool: read-only workers pay nothing for them.
  const inTable = (name: string) => Object.hasOwn(baseTools, name);
  const confirmTools = new Set([...config.AGENT_CONFIRM_TOOLS, ...mcpConfirmTools].filter(inTable));
  const writeTools = new Set([...writeToolNames, ...mcpWriteTools]);
  const sideChannel =
    confirmTools.size > 0 || [...writeTools].some(inTable) ? createTurnSideChannel({ timeoutMs }) : undefined;

  const auditWriter = createAuditWriter(db, request.ownerId);
  const tools = assembleTurnTools({
    baseTools,
    worker,
    sessionId: request.id,
    ownerId: request.ownerId,
    approval:
      sideChannel && confirmTools.size > 0
        ? { confirmTools, registry: getApprovalRegistry(), emit: sideChannel.emitApprovalRequest, timeoutMs }
        : undefined,
    store: getIdempotencyStore(),
    writeTools,
    audit: auditWriter.record,
    rateLimiter: getToolRateLimiter(),
    signal: request.signal,
    // The result of a replay is the same on purpose; the UI learns it was one from the side channel.
    onReplay: sideChannel?.markReplay,
  });
  const metadata: ChatMessageMetadata = { worker, model: modelLabel };

  const result = streamText({
    model,
    system: workerInstructions(worker),
    messages: await convertToModelMessages(history, { tools, ignoreIncompleteToolCalls: true }),
    tools,
    stopWhen: stepCountIs(maxTurnSteps),
    abortSignal: request.signal,
  });
  const chunks = result.toUIMessageStream({
    originalMessages: history,
    // The client keeps and sends back this id; without it the next turn's history is invalid.
    generateMessageId: generateId,
    // Tool and stream errors reach the client (and the saved chat) as a reference id; details go to the log.
    onError: publicErrorText,
    messageMetadata: ({ part }) => (part.type === 'start' ? metadata : undefined),
    onEnd: async ({ messages }) => {
      await auditWriter.flush();
      await saveTurnMessages(db, request.id, messages, sideChannel?.annotate);
    },
  });
  return createUIMessageStreamResponse({
    stream: sideChannel ? chunks.pipeThrough(sideChannel.transform) : chunks,
  });
}
