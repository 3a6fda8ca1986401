import 'server-only';
import { ProvenanceLedger, publicErrorText } from '@toolgate/engine';
import { generateId, streamText } from 'ai';
import { chatMarkOf } from '@/lib/chats/chat-mark';
import { getConfig } from '@/lib/config';
import { mcpConfirmToolNames, trustOfTool, waitForMcpServers } from '@/lib/mcp/merge-mcp-tools';
import { toolsWithRules } from '@/lib/policy';
import { getEffectRecorder } from '@/lib/server/effect-recorder';
import { getToolRateLimiter } from '@/lib/server/rate-limiter';
import { getIdempotencyStore } from '@/lib/server/stores';
import { startTurnTelemetry } from '@/lib/telemetry/turn-telemetry';
import { confirmToolNamesOf } from '@/lib/tools';
import { assembleTurnTools } from '@/lib/turn-table/assemble-turn-tools';
import { createAuditWriter } from '@/lib/turn-table/create-audit-writer';
import { prepareChatTurn } from './prepare-chat-turn';
import { saveTurnMessages } from './save-turn-messages';
import { turnModelCall } from './turn-model-call';
import type { ChatTurnRejection, ChatTurnRequest } from './types';

/** What `POST /api/chat/complete` answers. */
export type CompletedTurn = {
  text: string;
  worker: string;
  toolCalls: { toolName: string; input: unknown }[];
  toolResults: { toolName: string; output: unknown }[];
};

/**
 * Runs one chat turn without streaming. There is no channel to show an approval
 * card, so while any tool needs approval the turn is refused instead of waiting
 * out the timeout for nothing. The turn is saved like a streamed one (the user's
 * message, then the reply with its worker), so the next turn of the chat reads its
 * history from the server: a reply to the model's question stays with the worker
 * that asked.
 */
export async function completeChatTurn(request: ChatTurnRequest): Promise<CompletedTurn | ChatTurnRejection> {
  await waitForMcpServers();
  const confirmTools = [
    ...new Set([
      ...confirmToolNamesOf(getConfig().AGENT_CONFIRM_TOOLS),
      ...mcpConfirmToolNames(),
      ...toolsWithRules(),
    ]),
  ];
  if (confirmTools.length > 0) {
    return {
      status: 400,
      error: `Tools ${confirmTools.join(', ')} need a person's approval, which only the streaming endpoint POST /api/chat can ask for. Use it, or set AGENT_CONFIRM_TOOLS= to turn approvals off.`,
    };
  }
  const turn = await prepareChatTurn(request, { saveUserMessage: true });
  if ('rejection' in turn) return turn.rejection;
  const { db, model, modelLabel, worker, table, history } = turn;

  // No approval shell: the turn was refused above while any tool needs one, and a write whose
  // values an untrusted output supplied is refused (nobody could be asked).
  const traced =
    getConfig().TOOLGATE_PROVENANCE === 'on' &&
    ProvenanceLedger.couldTaint(history, Object.keys(table.tools), trustOfTool);
  const tracedWrites = new Set(
    traced ? [...table.writeTools].filter((name) => Object.hasOwn(table.tools, name)) : [],
  );
  const auditWriter = createAuditWriter(db, request.ownerId);
  const tools = assembleTurnTools({
    baseTools: table.tools,
    worker,
    chatId: request.chatId,
    ownerId: request.ownerId,
    store: getIdempotencyStore(),
    effects: getEffectRecorder(),
    writeTools: table.writeTools,
    audit: auditWriter.record,
    rateLimiter: getToolRateLimiter(),
    signal: request.signal,
    ...(traced && {
      provenance: {
        ledger: ProvenanceLedger.fromHistory(history, trustOfTool, { mark: chatMarkOf(db, request.chatId) }),
        tools: tracedWrites,
      },
    }),
  });
  const telemetry = startTurnTelemetry({
    name: 'toolgate.turn',
    chatId: request.chatId,
    worker,
    kind: 'complete',
  });
  // Streamed inside, so the reply is built as the same UI message a streamed turn saves.
  let failure: unknown;
  const call = await turnModelCall({ model, worker, history, tools, abortSignal: request.signal });
  const result = telemetry.run(() =>
    streamText({
      ...call,
      ...(telemetry.aiTelemetry !== undefined && { experimental_telemetry: telemetry.aiTelemetry }),
      onError: ({ error }) => {
        failure ??= error;
      },
    }),
  );
  let saved: Promise<void> = Promise.resolve();
  const chunks = result.toUIMessageStream({
    originalMessages: history,
    generateMessageId: generateId,
    onError: publicErrorText,
    messageMetadata: ({ part }) => (part.type === 'start' ? { worker, model: modelLabel } : undefined),
    onEnd: ({ messages }) => {
      saved = saveTurnMessages(db, request.chatId, messages);
      return saved;
    },
  });
  try {
    for await (const _ of chunks) {
      // Drained: the reply is complete once the stream ends.
    }
    await auditWriter.flush();
    await saved;
    if (failure !== undefined) throw failure;
  } catch (error) {
    telemetry.end({ error });
    throw error;
  }
  telemetry.end();
  const steps = await result.steps;
  return {
    text: await result.text,
    worker,
    toolCalls: steps.flatMap((step) =>
      step.toolCalls.map((call) => ({ toolName: call.toolName, input: call.input })),
    ),
    toolResults: steps.flatMap((step) =>
      step.toolResults.map((toolResult) => ({ toolName: toolResult.toolName, output: toolResult.output })),
    ),
  };
}
