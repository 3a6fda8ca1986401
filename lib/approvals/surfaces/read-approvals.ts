import 'server-only';
import { revealHiddenInSummary } from '@toolgate/engine/client';
import { provenanceAfterEdit } from '@toolgate/engine/provenance';
import { z } from 'zod';
import { getDb } from '@/lib/db';
import { describeZodError } from '@/lib/http/json';
import type { Language } from '@/lib/shared/language';
import { localizePreview } from '@/lib/tools/localize-preview';
import { mayView, stepOpenTo } from '../life-cycle/approval-life-cycle';
import { outcomeOf, resultsOfCalls } from '../life-cycle/approval-outcome';
import {
  type ApprovalRecord,
  type ApprovalStepRecord,
  getApproval,
  getApprovalSteps,
  getStepsOfApprovals,
  userNamesById,
} from '../life-cycle/approval-rows';
import { denialReasonOf, isDeniedStatus } from '../life-cycle/approval-states';
import { expireApproval } from '../life-cycle/settle-approvals';
import { approverText } from '../notices/approver-text';
import { type ListedApprovalRecord, listApprovalsDecidedBy, listDecidableApprovals } from './approval-lists';
import {
  type ApprovalQuestionRecord,
  askersOf,
  askingRoleOf,
  questionsOfApprovals,
  questionViews,
} from './approval-questions';
import type { ApprovalPage, ApprovalView, DecidedApproval, ListedApproval } from './approval-wire-types';
import { listedInputOf } from './listed-input';

/**
 * A person asking: their user id, the roles they hold now (`rolesOf`), and the language a
 * preview is given in (default English).
 */
export type ApprovalViewer = { id: string; roles: readonly string[]; language?: Language };

/**
 * What a view is made of: a whole approval, or the fields the approvers' list reads of one
 * (with the stored JSON text of the input it shows, which spares working one out).
 */
type ViewedApproval = Omit<ListedApprovalRecord, 'shownInputText'> & { shownInputText?: string };

function viewOf(
  row: ViewedApproval,
  steps: readonly ApprovalStepRecord[],
  viewer: ApprovalViewer,
  names: ReadonlyMap<string, string>,
  now: number,
  result?: unknown,
  questions: readonly ApprovalQuestionRecord[] = [],
): ApprovalView {
  const decider = { userId: viewer.id, roles: viewer.roles };
  const pending = row.status === 'pending' && row.expiresAt > now;
  const isRequester = row.ownerId === null || row.ownerId === viewer.id;
  const canAllow = pending && steps.some((step) => stepOpenTo(step, row, decider));
  const listed = listedInputOf(row.toolName, row.editedInput ?? row.input, row.shownInputText);
  const { inputDigest } = listed;
  // The preview's title when it has one: it names what the input left out (a refund's currency).
  const summary =
    row.preview?.summary === undefined ? listed.summary : revealHiddenInSummary(row.preview.summary);
  const outcome = outcomeOf(row, result);
  // What this person decided, so a page can say "you denied" instead of naming them.
  const mine = steps.find((step) => step.decidedBy === viewer.id && step.decision !== undefined)?.decision;
  const decided = mine === 'allow' && row.editedBy === viewer.id ? 'edit' : mine;
  const traced =
    row.provenance !== undefined && row.editedInput !== undefined
      ? provenanceAfterEdit(row.provenance, row.input, row.editedInput)
      : row.provenance;
  return {
    approvalId: row.id,
    chatId: row.chatId,
    tool: row.toolName,
    ...(summary !== undefined && { summary }),
    input: row.editedInput ?? row.input,
    inputDigest,
    ...localizePreview(row.preview, viewer.language ?? 'en'),
    status: row.status,
    ...(isDeniedStatus(row.status) && { reason: denialReasonOf({ ...row, status: row.status }) }),
    ...(outcome !== undefined && { outcome }),
    ...(row.policyChangedAt !== undefined && { policyChanged: row.policyChangedAt }),
    requester: { name: (row.ownerId !== null && names.get(row.ownerId)) || '' },
    steps: steps.map((step) => ({
      kind: step.kind,
      ...(step.kind === 'role' && { role: step.role }),
      ...(step.decision !== undefined && { decision: step.decision }),
      ...(step.decidedBy !== undefined && { decidedBy: { name: names.get(step.decidedBy) ?? '' } }),
      ...(step.escalatedTo !== undefined && { escalatedTo: step.escalatedTo }),
    })),
    ...(row.ruleLabel !== undefined && { rule: row.ruleLabel }),
    tainted: traced?.tainted ?? [],
    provenance: traced?.provenance ?? {},
    ...(traced?.context !== undefined && { context: traced.context }),
    ...(traced?.untraced === true && { untraced: true as const }),
    questions: questionViews(questions, names),
    expiresAt: row.expiresAt,
    remainingMs: Math.max(0, row.expiresAt - now),
    viewer: {
      canAllow,
      canDeny: canAllow || (pending && isRequester),
      isRequester,
      canAsk: askingRoleOf(row, steps, decider, now) !== undefined,
      ...(decided !== undefined && { decided }),
    },
  };
}

function namesNeeded(row: ApprovalRecord, steps: readonly ApprovalStepRecord[]): string[] {
  return [
    ...(row.ownerId === null ? [] : [row.ownerId]),
    ...steps.flatMap((step) => (step.decidedBy === undefined ? [] : [step.decidedBy])),
  ];
}

/**
 * One approval for its requester or for anyone holding a role one of its steps asks for
 * (now: a revoked approver no longer sees it); undefined, answered as 404, for anyone else.
 * A pending row past its deadline is expired first.
 */
export async function readApproval(
  approvalId: string,
  viewer: ApprovalViewer,
): Promise<(ApprovalView & { chatExcerpt?: string }) | undefined> {
  const db = await getDb();
  let row = await getApproval(db, approvalId);
  if (row === undefined) return undefined;
  const steps = await getApprovalSteps(db, approvalId);
  if (!mayView(row, steps, { userId: viewer.id, roles: viewer.roles })) return undefined;
  const now = Date.now();
  if (row.status === 'pending' && row.expiresAt <= now && (await expireApproval(db, approvalId, now))) {
    row = (await getApproval(db, approvalId)) ?? row;
  }
  const questions = (await questionsOfApprovals(db, [row.id])).get(row.id) ?? [];
  const names = await userNamesById(db, [...namesNeeded(row, steps), ...askersOf(questions)]);
  const results = await resultsOfCalls(db, [row]);
  const view = viewOf(row, steps, viewer, names, now, results.get(row.toolCallId), questions);
  // The customer's message that led to the call, as the inbox shows it (the approval's own page).
  return row.excerpt === undefined ? view : { ...view, chatExcerpt: approverText(row.excerpt) };
}

/** The largest page `GET /api/approvals` answers. */
const maxApprovalPageSize = 50;

/** `?cursor=…&limit=…` of the inbox lists, as the request's query gave them. */
const approvalListQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(512).optional(),
  limit: z.coerce.number().int().min(1).max(maxApprovalPageSize).default(20),
});

/** How an inbox list was answered: the route sends `body` with `status`. */
export type ApprovalListResult<APPROVAL> =
  | { status: 200; body: ApprovalPage<APPROVAL> }
  | { status: 400; body: { error: string } };

type ListPage = { after?: { createdAt: string; id: string }; limit: number };

/** The page a list query asks for, or what is wrong with it (nothing is read then). */
function pageOf(query: Readonly<Record<string, string>>): ListPage | { error: string } {
  const parsed = approvalListQuerySchema.safeParse(query);
  if (!parsed.success) return { error: describeZodError(parsed.error) };
  const { cursor, limit } = parsed.data;
  if (cursor === undefined) return { limit };
  const after = decodeApprovalCursor(cursor);
  return after === undefined ? { error: 'cursor: not a cursor this endpoint gave' } : { after, limit };
}

/** Where the next page starts: opaque to clients. */
function encodeApprovalCursor(row: { createdAt: string; id: string }): string {
  return Buffer.from(JSON.stringify([row.createdAt, row.id])).toString('base64url');
}

/** The cursor's position, or undefined when it is not one of ours. */
function decodeApprovalCursor(cursor: string): { createdAt: string; id: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string')) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // Not ours: answered as a bad cursor.
  }
  return undefined;
}

/**
 * The approvals this person can decide now (a step open to them), oldest first, one page.
 * `query` is the request's query string (`cursor`, `limit`); anything else in it is a 400.
 */
export async function listApprovalsToDecide(
  viewer: ApprovalViewer,
  query: Readonly<Record<string, string>>,
): Promise<ApprovalListResult<ListedApproval>> {
  const page = pageOf(query);
  if ('error' in page) return { status: 400, body: { error: page.error } };
  return { status: 200, body: await approvalsToDecide(viewer, page) };
}

/**
 * The approvals this person filled a step of, newest decision first, one page.
 * `query` is the request's query string (`cursor`, `limit`); anything else in it is a 400.
 */
export async function listApprovalsDecidedByMe(
  viewer: ApprovalViewer,
  query: Readonly<Record<string, string>>,
): Promise<ApprovalListResult<DecidedApproval>> {
  const page = pageOf(query);
  if ('error' in page) return { status: 400, body: { error: page.error } };
  return { status: 200, body: await approvalsDecidedBy(viewer, page) };
}

async function approvalsToDecide(
  viewer: ApprovalViewer,
  { after, limit }: ListPage,
): Promise<ApprovalPage<ListedApproval>> {
  const db = await getDb();
  const now = Date.now();
  const rows = await listDecidableApprovals(db, {
    userId: viewer.id,
    roles: viewer.roles,
    now,
    after,
    limit: limit + 1,
  });
  // Each row comes with its steps and the names it shows (one query for the rows).
  const page = rows.slice(0, limit);
  // Only the questions and who asked them are read apart (nothing, on a page without any).
  const questionsById = await questionsOfApprovals(
    db,
    page.filter(({ asked }) => asked).map(({ row }) => row.id),
  );
  const askers = await userNamesById(db, [...questionsById.values()].flatMap(askersOf));
  // Added to each new view rather than copied with it: a page is 50 views of some 25 fields.
  const approvals = page.map(({ row, steps, names }) => {
    const questions = questionsById.get(row.id);
    const shown = questions === undefined ? names : new Map([...names, ...askers]);
    return Object.assign(viewOf(row, steps, viewer, shown, now, undefined, questions), {
      chatExcerpt: approverText(row.excerpt ?? ''),
      askedAt: row.createdAt,
    });
  });
  const last = page.at(-1)?.row;
  return {
    approvals,
    nextCursor: rows.length > limit && last !== undefined ? encodeApprovalCursor(last) : null,
  };
}

async function approvalsDecidedBy(
  viewer: ApprovalViewer,
  { after, limit }: ListPage,
): Promise<ApprovalPage<DecidedApproval>> {
  const db = await getDb();
  const now = Date.now();
  // The shared cursor format carries a time and an id: here the time is the decision's.
  const rows = await listApprovalsDecidedBy(db, {
    userId: viewer.id,
    after: after === undefined ? undefined : { decidedAt: after.createdAt, id: after.id },
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const stepsById = await getStepsOfApprovals(
    db,
    page.map(({ row }) => row.id),
  );
  const questionsById = await questionsOfApprovals(
    db,
    page.map(({ row }) => row.id),
  );
  const names = await userNamesById(db, [
    ...page.flatMap(({ row }) => namesNeeded(row, stepsById.get(row.id) ?? [])),
    ...[...questionsById.values()].flatMap(askersOf),
  ]);
  const results = await resultsOfCalls(
    db,
    page.map(({ row }) => row),
  );
  const approvals = page.map(({ row, decision, decidedAt }) => ({
    ...viewOf(
      row,
      stepsById.get(row.id) ?? [],
      viewer,
      names,
      now,
      results.get(row.toolCallId),
      questionsById.get(row.id),
    ),
    chatExcerpt: approverText(row.excerpt ?? ''),
    myDecision: decision,
    decidedAt,
  }));
  const last = page.at(-1);
  return {
    approvals,
    nextCursor:
      rows.length > limit && last !== undefined
        ? encodeApprovalCursor({ createdAt: last.decidedAt, id: last.row.id })
        : null,
  };
}
