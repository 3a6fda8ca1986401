import 'server-only';
import { z } from 'zod';
import { getConfig } from '@/lib/config';
import {
  type ApprovalRecord,
  addApprovalRule,
  type Db,
  extendApproval,
  getApproval,
  getDb,
  transitionApproval,
} from '@/lib/db';
import { describeZodError } from '@/lib/http/json';
import { maxJsonDepth, nestsDeeperThan } from '@/lib/http/json-depth';
import { getApprovalRegistry } from '@/lib/server/stores';
import { buildWorkerTable } from './build-worker-table';
import { continueParkedTurn } from './continue-parked-turn';
import { settleChatApprovals } from './settle-tool-parts';
import { validateToolInput } from './validate-tool-input';

/** The longest note a person can give with a "no". */
export const maxDenialReasonLength = 500;

const chatIdField = z.string().min(1).max(128);

/**
 * The chat an approval belongs to: `chatId`, or `sessionId`, the name earlier clients
 * (and the engine) use for it. Both may be sent only when they agree.
 */
const chatIdFields = {
  chatId: chatIdField.optional(),
  sessionId: chatIdField.optional(),
};

function requireChatId(fields: { chatId?: string; sessionId?: string }, context: z.RefinementCtx): void {
  if (fields.chatId === undefined && fields.sessionId === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['chatId'],
      message: 'chatId is required: the chat the approval is in',
    });
  } else if (
    fields.chatId !== undefined &&
    fields.sessionId !== undefined &&
    fields.chatId !== fields.sessionId
  ) {
    context.addIssue({
      code: 'custom',
      path: ['sessionId'],
      message: 'sessionId is another name for chatId: send one',
    });
  }
}

/** The body with `sessionId` read as `chatId`. */
function withChatId<FIELDS extends { chatId?: string; sessionId?: string }>({
  chatId,
  sessionId,
  ...rest
}: FIELDS): Omit<FIELDS, 'chatId' | 'sessionId'> & { chatId: string } {
  return { ...rest, chatId: (chatId ?? sessionId) as string };
}

/**
 * A person's decision on one approval card: the `/api/chat/approve` body and the
 * server action's input. `input` (a full replacement of the call's input) and
 * `remember` go with an allow; `reason` with a deny. There is no tool name: an edit
 * cannot turn one tool into another.
 */
export const approvalDecisionSchema = z
  .strictObject({
    approvalId: z.string().min(1).max(128),
    ...chatIdFields,
    approved: z.boolean(),
    input: z.record(z.string(), z.unknown()).optional(),
    remember: z.literal('chat').optional(),
    reason: z.string().trim().max(maxDenialReasonLength).optional(),
  })
  .superRefine((decision, context) => {
    requireChatId(decision, context);
    if (decision.approved && decision.reason !== undefined) {
      context.addIssue({ code: 'custom', path: ['reason'], message: 'reason goes with approved: false' });
    }
    if (!decision.approved && decision.input !== undefined) {
      context.addIssue({ code: 'custom', path: ['input'], message: 'input goes with approved: true' });
    }
    if (!decision.approved && decision.remember !== undefined) {
      context.addIssue({ code: 'custom', path: ['remember'], message: 'remember goes with approved: true' });
    }
  })
  .transform(withChatId);

/** How a decision was answered: the route sends `body` with `status`; the server action returns `body`. */
export type ApprovalDecisionResult =
  | { status: 200; body: { status: 'approved' | 'denied' } }
  | { status: 400; body: { error: string; fieldErrors?: Record<string, string[]> } }
  | { status: 404 | 503; body: { error: string } };

/** How long a woken turn has to take its decision on before this request continues it instead. */
const takeOverAfterMs = 2_000;

const notFound = {
  status: 404,
  body: { error: 'No pending approval with that id in this chat' },
} as const;

/** The row if this caller may decide it (same chat, same owner); else undefined, answered as 404. */
async function ownedApproval(
  db: Db,
  approvalId: string,
  chatId: string,
  ownerId: string | undefined,
): Promise<ApprovalRecord | undefined> {
  const row = await getApproval(db, approvalId);
  if (row === undefined || row.chatId !== chatId || (row.ownerId !== null && row.ownerId !== ownerId)) {
    return undefined;
  }
  return row;
}

/** The tool the approval is for, from the worker table its turn had. */
function toolOf(db: Db, row: ApprovalRecord) {
  const { tools } = buildWorkerTable(
    db,
    row.worker,
    { chatId: row.chatId, ownerId: row.ownerId ?? '' },
    getConfig(),
  );
  return Object.hasOwn(tools, row.toolName) ? tools[row.toolName] : undefined;
}

/**
 * Records a decision and sees that it is carried out. The route and the server
 * action both come here, so they cannot disagree.
 *
 * The decision is a compare-and-set on the approval row (pending → approved / denied,
 * only before the deadline, only for its chat and owner): of double clicks, two tabs
 * and ten concurrent requests exactly one wins; the rest, an unknown id, another
 * chat or owner, a settled or expired approval all answer the same 404. An edited
 * input is validated with the tool's own schema first (400, and the call stays
 * pending) and recorded on the row with the decision, as is a note with a "no".
 * The winner wakes the waiting call wherever it waits; if no turn takes the
 * decision on (its process is gone), the turn is continued here from the database.
 */
export async function decideApproval(input: unknown, ownerId?: string): Promise<ApprovalDecisionResult> {
  // The server action's input never passed through `readJsonBody`: the same depth limit here.
  if (nestsDeeperThan(input, maxJsonDepth)) {
    return { status: 400, body: { error: `Input nests deeper than ${maxJsonDepth} levels` } };
  }
  const parsed = approvalDecisionSchema.safeParse(input);
  if (!parsed.success) return { status: 400, body: { error: describeZodError(parsed.error) } };
  const { approvalId, chatId, approved, remember } = parsed.data;
  const reason = parsed.data.reason === '' ? undefined : parsed.data.reason;
  const db = await getDb();
  const row = await ownedApproval(db, approvalId, chatId, ownerId);
  if (row === undefined) return notFound;

  let editedInput: unknown;
  if (parsed.data.input !== undefined) {
    // A settled approval answers 404 before its input is judged, as for any other decision.
    if (row.status !== 'pending') return notFound;
    const tool = toolOf(db, row);
    if (tool === undefined) return notFound;
    const validation = await validateToolInput(tool, parsed.data.input);
    if (!validation.ok) {
      return { status: 400, body: { error: validation.error, fieldErrors: validation.fieldErrors } };
    }
    editedInput = validation.value;
  }

  const now = Date.now();
  const won = await transitionApproval(db, approvalId, 'pending', approved ? 'approved' : 'denied', {
    chatId,
    ownerId: ownerId ?? null,
    before: now,
    decision: { editedInput, note: approved ? undefined : reason },
  });
  if (!won) {
    // Past its deadline: settle it now, the timer that would have may be gone with its server.
    if (row.status === 'pending' && row.expiresAt <= now) await settleChatApprovals(db, chatId, { now });
    return notFound;
  }
  // Stored before the call wakes, so a call of the same tool right after already finds it.
  if (approved && remember === 'chat' && ownerId !== undefined) {
    await addApprovalRule(db, { chatId, ownerId, toolName: row.toolName });
  }

  let woken = false;
  try {
    // The registry's session is the chat id.
    woken = await getApprovalRegistry().resolve(approvalId, chatId, approved, row.ownerId ?? undefined);
  } catch {
    // Redis unreachable: the call cannot be woken; the decision is on the row, so continue here.
  }
  if (!(woken && (await takenOn(approvalId)))) await continueParkedTurn(db, approvalId, chatId);
  return { status: 200, body: { status: approved ? 'approved' : 'denied' } };
}

/** The `/api/chat/approve/extend` body. */
export const approvalExtensionSchema = z
  .strictObject({ approvalId: z.string().min(1).max(128), ...chatIdFields })
  .superRefine(requireChatId)
  .transform(withChatId);

/** How much time one "+60 s" adds. */
export const approvalExtensionMs = 60_000;

/** How an extension was answered. */
export type ApprovalExtensionResult =
  | { status: 200; body: { expiresAt: number; remainingMs: number } }
  | { status: 400 | 404 | 409 | 503; body: { error: string } };

/**
 * Gives a pending approval more time: its deadline moves by {@link approvalExtensionMs},
 * on the row (compare-and-set, at most three times) and for the call that waits, in
 * whichever process it waits. Unknown, foreign and settled approvals answer 404, as
 * for a decision; a fourth extension answers 409.
 */
export async function extendApprovalDeadline(
  input: unknown,
  ownerId?: string,
): Promise<ApprovalExtensionResult> {
  const parsed = approvalExtensionSchema.safeParse(input);
  if (!parsed.success) return { status: 400, body: { error: describeZodError(parsed.error) } };
  const { approvalId, chatId } = parsed.data;
  const db = await getDb();
  const row = await ownedApproval(db, approvalId, chatId, ownerId);
  const now = Date.now();
  if (row === undefined || row.status !== 'pending' || row.expiresAt <= now) return notFound;
  const expiresAt = await extendApproval(db, approvalId, {
    chatId,
    ownerId: ownerId ?? null,
    now,
    byMs: approvalExtensionMs,
  });
  if (expiresAt === undefined) {
    const latest = await getApproval(db, approvalId);
    if (latest?.status === 'pending' && latest.expiresAt > now) {
      return { status: 409, body: { error: 'This approval has already been given more time three times' } };
    }
    return notFound;
  }
  try {
    await getApprovalRegistry().extend(approvalId, chatId, expiresAt, row.ownerId ?? undefined);
  } catch {
    // Redis unreachable: the row holds the new deadline; the waiting call's own timer may
    // still end it early, which fails closed.
  }
  return { status: 200, body: { expiresAt, remainingMs: Math.max(0, expiresAt - Date.now()) } };
}

/** Whether the woken turn took the decision on within `takeOverAfterMs` (else its server is gone). */
async function takenOn(approvalId: string): Promise<boolean> {
  const db = await getDb();
  const deadline = Date.now() + takeOverAfterMs;
  for (;;) {
    const row = await getApproval(db, approvalId);
    if (row === undefined || row.claimed) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
