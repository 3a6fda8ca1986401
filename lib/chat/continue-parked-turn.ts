import 'server-only';
import { reportError } from '@toolgate/engine';
import { finalOutput, type ToolExecute } from '@toolgate/engine/shells';
import { getChatModel } from '@/lib/ai/models';
import { type ParkedCall, type RequesterOutcome, takeParkedCall, tellRequester } from '@/lib/approvals';
import { getConfig } from '@/lib/config';
import { type Db, getChatMessages, upsertMessage } from '@/lib/db';
import { trustOfTool } from '@/lib/mcp/merge-mcp-tools';
import { getEffectRecorder } from '@/lib/server/effect-recorder';
import { getIdempotencyStore } from '@/lib/server/stores';
import { startTurnTelemetry } from '@/lib/telemetry/turn-telemetry';
import { assembleTurnTools } from '@/lib/turn-table/assemble-turn-tools';
import { buildWorkerTable, type WorkerTable } from '@/lib/turn-table/build-worker-table';
import { createAuditWriter } from '@/lib/turn-table/create-audit-writer';
import { keepUndoneMarks } from '@/lib/undo/undo-tool-call';
import { replayMessage } from './replay-message';
import { runChatTurn } from './run-chat-turn';

/**
 * Continues a turn whose process is gone, from the decision on its approval row.
 *
 * The row is claimed first (compare-and-set): of all instances and requests that
 * try, one continues and the rest return false. On allow the call runs through the
 * same shells as in a live turn — audit, rate limit, idempotency; not approval, the
 * person just gave it — exactly once; on a denial nobody runs anything. The saved
 * tool part is settled, and when the approval was answered by a person the model
 * writes its reply in a new stream (`GET /api/chat/:id/stream`) that is saved too.
 */
export async function continueParkedTurn(db: Db, approvalId: string, chatId: string): Promise<boolean> {
  // One continuation of a chat at a time in this process: two cards of one message
  // decided at once (Allow all) each settle their own part of the same saved message.
  return withChatLock(chatId, () => continueLocked(db, approvalId));
}

async function continueLocked(db: Db, approvalId: string): Promise<boolean> {
  const parked = await takeParkedCall(db, approvalId);
  if (parked === undefined) return false;
  const { call } = parked;
  // Its own trace: the asking turn's has ended, maybe in another process; a link joins them.
  const telemetry = startTurnTelemetry({
    name: 'toolgate.continuation',
    chatId: call.chatId,
    worker: call.worker,
    kind: 'continuation',
    linkTo: call.traceParent,
    parked: { toolCallId: call.toolCallId, waitMs: Math.max(0, Date.now() - Date.parse(call.createdAt)) },
    timed: false,
  });
  try {
    return await telemetry.run(() => carryOut(db, parked));
  } catch (error) {
    telemetry.end({ error });
    throw error;
  } finally {
    telemetry.end();
  }
}

/** Runs or denies the claimed call, settles its saved part, and lets the model reply when it should. */
async function carryOut(db: Db, parked: ParkedCall): Promise<boolean> {
  const { call } = parked;
  const { chatId, ownerId, worker } = call;
  const messages = await getChatMessages(db, chatId);
  const index = messages.findIndex((message) => message.id === call.messageId);
  const config = getConfig();
  const table = buildWorkerTable(db, worker, { chatId, ownerId }, config);
  const end = parked.approved ? await runAllowed(db, parked, table) : await parked.deny();

  if (index === -1) return true; // The chat was deleted meanwhile: nothing to write into.
  const message = messages[index];
  // Labelled as a live turn labels its outputs, so a later turn reads the same trust.
  const settled = parked.settle(message, end, { trust: trustOfTool(call.toolName) });
  await upsertMessage(db, chatId, settled);
  await keepUndoneMarks(db, chatId, settled).catch((error) => reportError(error, 'keeping undone marks'));
  // A request that waited for someone else: its requester hears of it — in the chat when the
  // model will not reply (the conversation went on meanwhile), and by mail.
  const outcome: RequesterOutcome | undefined =
    end.kind === 'output'
      ? { kind: 'executed', output: end.output }
      : end.kind === 'error'
        ? { kind: 'failed' }
        : end.reason === 'denied'
          ? { kind: 'denied' }
          : undefined;
  if (outcome !== undefined)
    await tellRequester(db, call.approvalId, outcome, { notice: index !== messages.length - 1 });
  // A page that waits on this chat reads it again now (and follows the reply, if one comes).
  // Only the latest message earns a reply, once, when the last card of its step is settled:
  // the model then reads every result.
  if (index !== messages.length - 1 || !(await parked.replyDue())) {
    parked.announce();
    return true;
  }

  const { model, label } = getChatModel(config);
  // A client that resumes reads a stream as a replay from its start: the continuation
  // begins by rebuilding the settled message, this call's decision and output included.
  const prelude = replayMessage(settled);
  const stream = await runChatTurn({
    db,
    config,
    chatId,
    ownerId,
    worker,
    model,
    modelLabel: label,
    table,
    history: [...messages.slice(0, index), settled],
    messageId: message.id,
    baseParts: -1,
    prelude,
  });
  // Nobody may be reading: drain it, so the turn runs to its end and readers resume from the buffer.
  void stream.pipeTo(new WritableStream()).catch(() => undefined);
  parked.announce();
  return true;
}

/**
 * Runs the allowed call exactly once, through the same shells as in a live turn (audit,
 * idempotency; not approval, the person just gave it), and records how it ended.
 */
async function runAllowed(db: Db, parked: Extract<ParkedCall, { approved: true }>, table: WorkerTable) {
  const { call } = parked;
  const auditWriter = createAuditWriter(db, call.ownerId);
  const tools = assembleTurnTools({
    baseTools: table.tools,
    worker: call.worker,
    chatId: call.chatId,
    ownerId: call.ownerId,
    approval: await parked.approvalShell(table),
    store: getIdempotencyStore(),
    effects: getEffectRecorder(),
    writeTools: table.writeTools,
    audit: auditWriter.record,
    // No rate limit: this call was counted when it first ran up to its card.
    ...(call.provenance !== undefined && {
      knownProvenance: { toolCallId: call.toolCallId, provenance: call.provenance },
    }),
  });
  const tool = Object.hasOwn(tools, call.toolName) ? tools[call.toolName] : undefined;
  let run: { output: unknown } | { error: unknown };
  try {
    if (tool?.execute === undefined) throw new Error(`The tool ${call.toolName} is no longer available`);
    const execute = tool.execute as ToolExecute;
    const context = { toolCallId: call.toolCallId, messages: [], context: undefined };
    run = { output: await finalOutput(execute(call.input, context)) };
  } catch (error) {
    run = { error };
  }
  const end = await parked.finish(run);
  await auditWriter.flush();
  return end;
}

const globalForLocks = globalThis as typeof globalThis & {
  __toolgateChatLocks?: Map<string, Promise<unknown>>;
};

/** Runs `task` after every earlier task of `chatId` in this process has ended. */
async function withChatLock<T>(chatId: string, task: () => Promise<T>): Promise<T> {
  globalForLocks.__toolgateChatLocks ??= new Map();
  const locks = globalForLocks.__toolgateChatLocks;
  const previous = locks.get(chatId) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(task);
  const tail = run.catch(() => undefined);
  locks.set(chatId, tail);
  void tail.then(() => {
    if (locks.get(chatId) === tail) locks.delete(chatId);
  });
  return run;
}
