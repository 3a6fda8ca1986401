import 'server-only';
import { generateText } from 'ai';
import { getConfig } from '@/lib/config';
import { mcpConfirmToolNames, waitForMcpServers } from '@/lib/mcp/merge-mcp-tools';
import { getToolRateLimiter } from '@/lib/server/rate-limiter';
import { getIdempotencyStore } from '@/lib/server/stores';
import { assembleTurnTools } from './assemble-turn-tools';
import { createAuditWriter } from './create-audit-writer';
import { prepareChatTurn } from './prepare-chat-turn';
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
  const { db, model, worker, table, history } = turn;

  // No approval shell: the turn was refused above while any tool needs one.
  const auditWriter = createAuditWriter(db, request.ownerId);
  const tools = assembleTurnTools({
    baseTools: table.tools,
    worker,
    chatId: request.chatId,
    ownerId: request.ownerId,
    store: getIdempotencyStore(),
    writeTools: table.writeTools,
    audit: auditWriter.record,
    rateLimiter: getToolRateLimiter(),
    signal: request.signal,
  });
  const result = await generateText(
    await turnModelCall({ model, worker, history, tools, abortSignal: request.signal }),
  );
  await auditWriter.flush();
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
