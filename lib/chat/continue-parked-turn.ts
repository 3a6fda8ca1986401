import 'server-only';
import { getChatModel } from '@/lib/ai/models';
import {
  type ApprovalEnd,
  type ApprovalRecord,
  auditApprovalEnd,
  type DeniedStatus,
  decisionRecordOf,
  denialReasonOf,
  deniedStatuses,
  finishExecution,
  isDeniedStatus,
  listChatApprovals,
  mapToolPart,
  policyAsk,
  publishApprovalChange,
  settleApprovalPart,
  takeParkedDecision,
} from '@/lib/approvals';
import { getConfig } from '@/lib/config';
import { type Db, getChatMessages, upsertMessage } from '@/lib/db';
import { reportError } from '@/lib/errors/report-error';
import { trustOfTool } from '@/lib/mcp/merge-mcp-tools';
import { getEffectRecorder } from '@/lib/server/effect-recorder';
import { getIdempotencyStore } from '@/lib/server/stores';
import { toolDenial } from '@/lib/shells';
import { finalOutput, type ToolExecute } from '@/lib/shells/wrap-execute';
import type { ApprovalDecision, ApprovalRegistry } from '@/lib/stores';
import { startTurnTelemetry } from '@/lib/telemetry/turn-telemetry';
import { assembleTurnTools } from '@/lib/turn-table/assemble-turn-tools';
import { buildWorkerTable } from '@/lib/turn-table/build-worker-table';
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
  const taken = await takeParkedDecision(db, approvalId);
  if (taken === undefined) return false;
  const { row, approved } = taken;
  // Its own trace: the asking turn's has ended, maybe in another process; a link joins them.
  const telemetry = startTurnTelemetry({
    name: 'toolgate.continuation',
    chatId: row.chatId,
    worker: row.worker,
    kind: 'continuation',
    linkTo: row.traceParent,
    parked: { toolCallId: row.toolCallId, waitMs: Math.max(0, Date.now() - Date.parse(row.createdAt)) },
    timed: false,
  });
  try {
    return await telemetry.run(() => carryOut(db, row, approved));
  } catch (error) {
    telemetry.end({ error });
    throw error;
  } finally {
    telemetry.end();
  }
}

/** Runs or denies the claimed call, settles its saved part, and lets the model reply when it should. */
async function carryOut(db: Db, row: ApprovalRecord, approved: boolean): Promise<boolean> {
  const messages = await getChatMessages(db, row.chatId);
  const index = messages.findIndex((message) => message.id === row.messageId);
  const config = getConfig();
  const worker = row.worker;
  // Every approval row is written with its owner; one without (none exist) belongs to nobody.
  const ownerId = row.ownerId ?? '';
  const table = buildWorkerTable(db, worker, { chatId: row.chatId, ownerId }, config);

  let end: ApprovalEnd;
  if (approved) {
    const auditWriter = createAuditWriter(db, ownerId);
    const tools = assembleTurnTools({
      baseTools: table.tools,
      worker,
      chatId: row.chatId,
      ownerId,
      // The same approval shell as a live turn, answered from the row: the person's
      // edit reaches the tool, the idempotency key and the model the same way.
      approval: {
        confirmTools: new Set([row.toolName]),
        registry: decidedRegistry({
          approved: true,
          approvalId: row.id,
          ...(row.editedInput !== undefined && { input: row.editedInput }),
          ...(await decisionRecordOf(db, row)),
        }),
        emit: () => undefined,
        timeoutMs: 1,
        // A rule's quota is counted when the call runs, here as in a live turn.
        askFor: async (toolName, input, facts) => {
          const ask = await policyAsk(table.defaultConfirmTools, {
            db,
            requesterId: ownerId,
            chatId: row.chatId,
          })(toolName, input, facts);
          return ask.kind === 'deny'
            ? ask
            : { kind: 'confirm', ...(ask.quota !== undefined && { quota: ask.quota }) };
        },
      },
      store: getIdempotencyStore(),
      effects: getEffectRecorder(),
      writeTools: table.writeTools,
      audit: auditWriter.record,
      // No rate limit: this call was counted when it first ran up to its card.
      ...(row.provenance !== undefined && {
        knownProvenance: { toolCallId: row.toolCallId, provenance: row.provenance },
      }),
    });
    const tool = Object.hasOwn(tools, row.toolName) ? tools[row.toolName] : undefined;
    try {
      if (tool?.execute === undefined) throw new Error(`The tool ${row.toolName} is no longer available`);
      const execute = tool.execute as ToolExecute;
      const output = await finalOutput(
        execute(row.input, { toolCallId: row.toolCallId, messages: [], context: undefined }),
      );
      end = { kind: 'output', output };
      await finishExecution(db, row.id, true);
    } catch (error) {
      end = { kind: 'error', errorText: error instanceof Error ? error.message : String(error) };
      await finishExecution(db, row.id, false);
    }
    await auditWriter.flush();
  } else {
    await auditApprovalEnd(db, row, row.status as DeniedStatus);
    const denial = toolDenial(
      denialReasonOf({ ...row, status: row.status as DeniedStatus }),
      row.toolName,
      row.note,
    );
    end = { kind: 'denied', reason: denial.reason, message: denial.message };
  }

  if (index === -1) return true; // The chat was deleted meanwhile: nothing to write into.
  const message = messages[index];
  const settled = mapToolPart(message, row.toolCallId, (part) => {
    const ended = settleApprovalPart(part, row.id, end);
    // Labelled as a live turn labels its outputs, so a later turn reads the same trust.
    if (ended.state !== 'output-available') return ended;
    return {
      ...ended,
      toolMetadata: { ...ended.toolMetadata, trust: trustOfTool(row.toolName) },
    } as typeof ended;
  });
  await upsertMessage(db, row.chatId, settled);
  await keepUndoneMarks(db, row.chatId, settled).catch((error) => reportError(error, 'keeping undone marks'));
  // A page that waits on this chat reads it again now (and follows the reply, if one comes).
  const told = () => publishApprovalChange(db, row);
  // Only a person's answer to the latest message earns a reply; any other end just settles the card.
  const answered = approved || row.status === 'denied';
  if (!answered || index !== messages.length - 1) {
    told();
    return true;
  }
  // The model replies once, when the last card of its step is settled: it then reads every result.
  if (await othersUnsettled(db, row)) {
    told();
    return true;
  }

  const { model, label } = getChatModel(config);
  // A client that resumes reads a stream as a replay from its start: the continuation
  // begins by rebuilding the settled message, this call's decision and output included.
  const prelude = replayMessage(settled);
  const stream = await runChatTurn({
    db,
    config,
    chatId: row.chatId,
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
  told();
  return true;
}

/** Whether another card of the same message is still waiting, or decided but not yet carried out. */
async function othersUnsettled(db: Db, row: ApprovalRecord): Promise<boolean> {
  const rows = await listChatApprovals(db, row.chatId, [
    'pending',
    'approved',
    'executing',
    ...deniedStatuses,
  ]);
  return rows.some(
    (other) =>
      other.id !== row.id &&
      other.messageId === row.messageId &&
      !(isDeniedStatus(other.status) && other.claimed),
  );
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

/** A registry that answers every call with a decision already taken (and read from the row). */
function decidedRegistry(decision: ApprovalDecision): ApprovalRegistry {
  return {
    confirm: (async () => decision) as ApprovalRegistry['confirm'],
    resolve: () => false,
    extend: () => false,
    closeSession: () => 0,
  };
}
