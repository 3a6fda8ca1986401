import 'server-only';
import { reportError } from '@toolgate/engine';
import { hashToolArguments } from '@toolgate/engine/shells';
import type { UIMessage } from 'ai';
import { z } from 'zod';
import { undoRightsOf } from '@/lib/approvals';
import { getConfig } from '@/lib/config';
import { getChatMessages, insertAuditRow, updateChatMessage } from '@/lib/db';
import type { Db } from '@/lib/db/engine';
import { getDb } from '@/lib/db/get-db';
import {
  findToolEffect,
  findUndoneToolEffects,
  markToolEffectUndone,
  type ToolEffectRecord,
} from '@/lib/db/tool-effects';
import { describeZodError } from '@/lib/http/json';
import { getIdempotencyStore } from '@/lib/server/stores';
import { observeAuditedCall } from '@/lib/telemetry/observe-audited-call';
import { toolRegistry } from '@/lib/tools/registry';
import { summarizeToolCall } from '@/lib/tools/tool-summaries';

/** Which call to undo: by its card, or (a call without a card) by chat and tool call id. */
export const undoRequestSchema = z.union([
  z.object({ approvalId: z.string().min(1).max(200) }).strict(),
  z.object({ chatId: z.string().min(1).max(200), toolCallId: z.string().min(1).max(200) }).strict(),
]);

/** What the saved tool part's output gains once its call is undone (the model reads it next turn). */
export type UndoneOutput = { undone: true; undoneMessage: string };

/** An HTTP answer: status and JSON body. */
export type UndoResult = { status: number; body: Record<string, unknown> };

const notFound: UndoResult = { status: 404, body: { error: 'No such tool call' } };

/** Who asks to undo: their user id and the roles they hold now. */
export type Undoer = { id: string; roles: readonly string[] };

/**
 * The call's effect record and its tool's undo, when `undoer` may see the call (its requester,
 * or a holder of a role that allowed it), with whether they may undo it: a write a role step
 * allowed belongs to that role (`undoBy` names it), one its requester approved to the requester.
 * Undefined for a call they may not see.
 */
async function locate(db: Db, input: z.output<typeof undoRequestSchema>, undoer: Undoer) {
  const rights = await undoRightsOf(db, input);
  // Someone else's card answers exactly like an unknown one.
  if ('approvalId' in input && rights === undefined) return undefined;
  const chatId = rights?.chatId ?? ('chatId' in input ? input.chatId : '');
  const toolCallId = rights?.toolCallId ?? ('toolCallId' in input ? input.toolCallId : '');
  const byRole = rights !== undefined && rights.approvedByRoles.length > 0;
  const holdsRole = byRole && rights.approvedByRoles.some((role) => undoer.roles.includes(role));
  const isOwner = rights === undefined || rights.ownerId === undoer.id;
  if (!isOwner && !holdsRole) return undefined;
  if (rights !== undefined && rights.chatId !== chatId) return undefined;
  const ownerId = rights?.ownerId ?? undoer.id;
  const record = await findToolEffect(db, { scope: chatId, toolCallId, userId: ownerId ?? undoer.id });
  if (record === undefined) return undefined;
  const descriptor = toolRegistry.find((candidate) => candidate.name === record.toolName);
  return {
    record,
    undo: descriptor?.undo,
    mayUndo: byRole ? holdsRole && rights.ownerId !== undoer.id : true,
    undoBy: byRole ? rights.approvedByRoles : undefined,
  };
}

/** The undo window of `record`, in epoch ms. */
const deadlineOf = (record: ToolEffectRecord) => record.createdAt + getConfig().TOOLGATE_UNDO_WINDOW_MS;

/**
 * Whether a call can still be undone, for the card's Undo button: `remainingMs` counts
 * from now on the server's clock (the page counts down from when it received it).
 */
export async function readUndoState(input: unknown, undoer: Undoer): Promise<UndoResult> {
  const parsed = undoRequestSchema.safeParse(input);
  if (!parsed.success) return { status: 400, body: { error: describeZodError(parsed.error) } };
  const located = await locate(await getDb(), parsed.data, undoer);
  if (located === undefined) return notFound;
  const remainingMs = Math.max(0, deadlineOf(located.record) - Date.now());
  const undone = located.record.undoneAt !== null;
  const open = located.undo !== undefined && !undone && remainingMs > 0;
  return {
    status: 200,
    body: {
      undoable: open && located.mayUndo,
      undone,
      remainingMs,
      // Someone else may undo it (a role allowed it): the requester's card says who.
      ...(located.undoBy !== undefined && { undoBy: { roles: located.undoBy } }),
    },
  };
}

/**
 * Takes back a write that ran, within `TOOLGATE_UNDO_WINDOW_MS` of its commit: the tool's
 * undo and the record's mark commit in one transaction, first come only (a second undo,
 * even at the same moment, answers 409). Then the idempotency store forgets the call, so a
 * repeat executes anew; the audit log gets an `undone` row; the saved tool part's output
 * says `undone: true`, which the card shows and the model reads on the next turn.
 */
export async function undoToolCall(input: unknown, undoer: Undoer): Promise<UndoResult> {
  const parsed = undoRequestSchema.safeParse(input);
  if (!parsed.success) return { status: 400, body: { error: describeZodError(parsed.error) } };
  const db = await getDb();
  const userId = undoer.id;
  const located = await locate(db, parsed.data, undoer);
  if (located === undefined) return notFound;
  const { record, undo } = located;
  if (!located.mayUndo) {
    const roles = located.undoBy?.join(' or ') ?? 'its approver';
    return {
      status: 403,
      body: { error: `A ${roles} approved this call, so only a ${roles} can undo it` },
    };
  }
  if (undo === undefined) return { status: 409, body: { error: `${record.toolName} cannot be undone` } };
  if (record.undoneAt !== null) return { status: 409, body: { error: 'This call was already undone' } };
  const started = Date.now();
  // The tool's rows are the requester's, whoever undoes them (a supervisor who approved it).
  const owner = record.userId ?? userId;
  const context = { userId: owner, chatId: record.scope };
  const won = await markToolEffectUndone(
    db,
    { id: record.id, now: started, deadline: deadlineOf(record) },
    (transaction) => undo(transaction, record.output, context),
  );
  if (!won) {
    const latest = await findToolEffect(db, {
      scope: record.scope,
      toolCallId: record.toolCallId,
      userId: record.userId ?? userId,
    });
    return latest?.undoneAt != null
      ? { status: 409, body: { error: 'This call was already undone' } }
      : { status: 409, body: { error: 'The undo window of this call has passed' } };
  }
  const auditRow = {
    userId: owner,
    chatId: record.scope,
    worker: workerOf(record.toolName),
    toolName: record.toolName,
    toolCallId: record.toolCallId,
    argsHash: hashToolArguments(record.input),
    outcome: 'undone' as const,
    durationMs: Date.now() - started,
    createdAt: new Date(started).toISOString(),
    summary: summarizeToolCall(record.toolName, record.input),
    ...(owner !== userId && { detail: { deciders: [userId] } }),
  };
  // Counted like every audited outcome (toolgate_tool_calls_total{outcome="undone"}).
  observeAuditedCall(auditRow);
  // The undo stands once committed; what follows is reported when it fails, never undone.
  const followUps = await Promise.allSettled([
    Promise.resolve(getIdempotencyStore().forget(record.scope, record.toolName, record.input)),
    insertAuditRow(db, auditRow),
    markSavedPartUndone(db, record),
  ]);
  const steps = ['forgetting the idempotency entry', 'auditing', 'marking the saved tool part'];
  followUps.forEach((result, index) => {
    if (result.status === 'rejected')
      reportError(result.reason, `undo of ${record.toolName}: ${steps[index]}`);
  });
  return { status: 200, body: { undone: true } };
}

function workerOf(toolName: string): string {
  return toolRegistry.find((candidate) => candidate.name === toolName)?.workers[0] ?? 'unknown';
}

/** What the model is told about an undone call, in its saved output. */
function undoneMessageOf(record: ToolEffectRecord): string {
  const output = record.output as { ticketId?: unknown; title?: unknown };
  const what =
    typeof output.ticketId === 'string' ? `ticket ${output.ticketId}` : `this ${record.toolName} call`;
  return `The user undid ${what}: it no longer stands. Do not repeat the call unless the user asks again.`;
}

/**
 * Keeps the undone marks on a message a turn has just saved. An undo that lands while its
 * turn still streams marks the stored copy, which the turn's final save then replaces; read
 * after that save, the records put the marks back (an undo committed later than this read
 * marks the saved copy itself).
 */
export async function keepUndoneMarks(db: Db, chatId: string, message: UIMessage): Promise<void> {
  const toolCallIds = message.parts.flatMap((part) =>
    'output' in part && 'toolCallId' in part ? [part.toolCallId] : [],
  );
  for (const record of await findUndoneToolEffects(db, { scope: chatId, toolCallIds }))
    await markSavedPartUndone(db, record, message.id);
}

/** Marks the call's saved tool part undone (its output gains `undone: true`). */
async function markSavedPartUndone(db: Db, record: ToolEffectRecord, messageId?: string): Promise<void> {
  const holderId =
    messageId ??
    (await getChatMessages(db, record.scope)).find((message) =>
      message.parts.some((part) => isCallPart(part, record.toolCallId)),
    )?.id;
  if (holderId === undefined) return;
  const undone: UndoneOutput = { undone: true, undoneMessage: undoneMessageOf(record) };
  await updateChatMessage(db, record.scope, holderId, (message) => ({
    ...message,
    parts: message.parts.map((part) => {
      if (!isCallPart(part, record.toolCallId) || !('output' in part)) return part;
      const output = part.output;
      return {
        ...part,
        output:
          output !== null && typeof output === 'object' && !Array.isArray(output)
            ? { ...output, ...undone }
            : { value: output, ...undone },
      } as typeof part;
    }),
  }));
}

function isCallPart(part: UIMessage['parts'][number], toolCallId: string): boolean {
  return (part as { toolCallId?: unknown }).toolCallId === toolCallId;
}
