import 'server-only';
import { convertToModelMessages, generateText, stepCountIs } from 'ai';
import { getConfig } from '@/lib/config';
import { mcpConfirmToolNames, waitForMcpServers } from '@/lib/mcp/merge-mcp-tools';
import { getToolRateLimiter } from '@/lib/server/rate-limiter';
import { getIdempotencyStore } from '@/lib/server/stores';
import { writeToolNames } from '@/lib/shells';
import { startTurnTelemetry } from '@/lib/telemetry/turn-telemetry';
import { assembleTurnTools } from './assemble-turn-tools';
import { createAuditWriter } from './create-audit-writer';
import { prepareChatTurn } from './prepare-chat-turn';
import { sanitizeUIMessages } from './sanitize-ui-messages';
import { maxTurnSteps } from './stream-chat-turn';
import type { ChatTurnRejection, ChatTurnRequest } from './types';
import { workerInstructions } from './worker-instructions';

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
 * out the timeout for nothing.
 */
export async function completeChatTurn(request: ChatTurnRequest): Promise<CompletedTurn | ChatTurnRejection> {
  await waitForMcpServers();
  const confirmTools = [...getConfig().AGENT_CONFIRM_TOOLS, ...mcpConfirmToolNames()];
  if (confirmTools.length > 0) {
    return {
      status: 400,
      error: `Tools ${confirmTools.join(', ')} need a person's approval, which only the streaming endpoint POST /api/chat can ask for. Use it, or set AGENT_CONFIRM_TOOLS= to turn approvals off.`,
    };
  }
  const turn = await prepareChatTurn(request);
  if ('rejection' in turn) return turn.rejection;
  const { db, model, worker, baseTools, mcpWriteTools, history } = turn;

  // No approval shell: the turn was refused above while any tool needs one.
  const auditWriter = createAuditWriter(db, request.ownerId);
  const tools = assembleTurnTools({
    baseTools,
    worker,
    sessionId: request.id,
    ownerId: request.ownerId,
    store: getIdempotencyStore(),
    writeTools: [...writeToolNames, ...mcpWriteTools],
    audit: auditWriter.record,
    rateLimiter: getToolRateLimiter(),
    signal: request.signal,
  });
  const messages = await convertToModelMessages(sanitizeUIMessages(history), {
    tools,
    ignoreIncompleteToolCalls: true,
  });
  const telemetry = startTurnTelemetry({
    name: 'toolgate.turn',
    chatId: request.id,
    worker,
    kind: 'complete',
  });
  const result = await telemetry
    .run(() =>
      generateText({
        model,
        system: workerInstructions(worker),
        messages,
        tools,
        stopWhen: stepCountIs(maxTurnSteps),
        abortSignal: request.signal,
        ...(telemetry.aiTelemetry !== undefined && { experimental_telemetry: telemetry.aiTelemetry }),
      }),
    )
    .catch((error: unknown) => {
      telemetry.end({ error });
      throw error;
    });
  await auditWriter.flush();
  telemetry.end();
  return {
    text: result.text,
    worker,
    toolCalls: result.steps.flatMap((step) =>
      step.toolCalls.map((call) => ({ toolName: call.toolName, input: call.input })),
    ),
    toolResults: result.steps.flatMap((step) =>
      step.toolResults.map((toolResult) => ({ toolName: toolResult.toolName, output: toolResult.output })),
    ),
  };
}
