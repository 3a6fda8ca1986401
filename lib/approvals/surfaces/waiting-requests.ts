import 'server-only';
import type { ApprovalRegistry, CallProvenance } from '@toolgate/engine';
import { isTainted } from '@toolgate/engine/provenance';
import type { Db } from '@/lib/db/engine';
import {
  type ApprovalRecord,
  getApproval,
  getStepsOfApprovals,
  listChatApprovals,
} from '../life-cycle/approval-rows';
import { endPendingRow } from '../life-cycle/settle-approvals';
import { waitsForOthers } from '../life-cycle/waiting-steps';
import { approverSummary } from '../notices/approver-text';

/** What stands in the model's summary for a value an outsider may have written. */
export const outsideTextPlaceholder = '[text from a read source, not repeated]';

/** An identifier or amount-like word: too short and plain to carry an instruction. */
const plainToken = /^[\p{L}\p{N}._:/-]{1,32}$/u;

/**
 * The call's summary as the model may read it in its instructions. The instructions rank above
 * everything a tool returns, so a call whose values may come from something an outsider wrote
 * (an untrusted read it follows, a value no one typed, an input past the tracing limits) is
 * summarised with such text values replaced: only the person's own words, numbers and plain
 * identifiers are repeated. Untraced calls get no summary at all.
 */
function modelSafeSummary(row: ApprovalRecord): Record<'en' | 'zh', string> | undefined {
  const input = row.editedInput ?? row.input;
  const provenance = row.provenance;
  if (!isTainted(provenance)) return approverSummary(row.toolName, input);
  if (provenance === undefined || provenance.untraced === true) return undefined;
  return approverSummary(row.toolName, withOutsideTextHidden(input, provenance));
}

function withOutsideTextHidden(input: unknown, provenance: CallProvenance, path = ''): unknown {
  if (typeof input === 'string') {
    const sources = provenance.provenance[path === '' ? '$' : path] ?? [];
    const typedByPerson = sources.length > 0 && sources.every((source) => source.source === 'user');
    return typedByPerson || plainToken.test(input) ? input : outsideTextPlaceholder;
  }
  if (Array.isArray(input))
    return input.map((item, index) => withOutsideTextHidden(item, provenance, joinPath(path, String(index))));
  if (typeof input === 'object' && input !== null)
    return Object.fromEntries(
      Object.entries(input).map(([key, value]) => [
        key,
        withOutsideTextHidden(value, provenance, joinPath(path, key)),
      ]),
    );
  return input;
}

const joinPath = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/**
 * A call of this chat that waits for someone other than the person chatting (a role step):
 * what the model is told, so "any update?" gets who it waits for and until when.
 */
export type WaitingRequest = {
  approvalId: string;
  tool: string;
  /** The call's one-line summary, by language. */
  summary?: Record<'en' | 'zh', string>;
  /** The roles whose step is still open (after an escalation: the role it went to). */
  waitsFor: string[];
  /** When it was asked (epoch ms). */
  askedAt: number;
  /** Its deadline (epoch ms). */
  expiresAt: number;
  /** Escalated to this role, when it was. */
  escalatedTo?: string;
};

/** This chat's calls that wait for someone else, oldest first (deadline still ahead). */
export async function listWaitingRequests(
  db: Db,
  chatId: string,
  now = Date.now(),
): Promise<WaitingRequest[]> {
  const rows = (await listChatApprovals(db, chatId, ['pending'])).filter((row) => row.expiresAt > now);
  const stepsById = await getStepsOfApprovals(
    db,
    rows.map((row) => row.id),
  );
  return rows.flatMap((row) => {
    const steps = stepsById.get(row.id) ?? [];
    if (!waitsForOthers(steps)) return [];
    const open = steps.filter((step) => step.decision === undefined && step.kind === 'role');
    const escalatedTo = steps.find((step) => step.escalatedTo !== undefined)?.escalatedTo;
    const summary = modelSafeSummary(row);
    return [
      {
        approvalId: row.id,
        tool: row.toolName,
        ...(summary !== undefined && { summary }),
        waitsFor: [...new Set(open.flatMap((step) => (step.kind === 'role' ? [step.role] : [])))],
        askedAt: Date.parse(row.createdAt),
        expiresAt: row.expiresAt,
        ...(escalatedTo !== undefined && { escalatedTo }),
      },
    ];
  });
}

/**
 * withdraw: the requester takes back a call of theirs that waits for someone else, in the chat
 * it was asked in. The row moves `pending → withdrawn` (compare-and-set: a decision that got
 * there first keeps it), approvers' lists and pages hear of it, the waiting call is woken
 * wherever it waits, and a call no turn holds is audited and its saved card settled here.
 * Returns the row as it was, or undefined when there was nothing of theirs to withdraw.
 */
export async function withdrawApproval(
  db: Db,
  registry: ApprovalRegistry,
  { approvalId, chatId, ownerId }: { approvalId: string; chatId: string; ownerId: string },
): Promise<ApprovalRecord | undefined> {
  const row = await getApproval(db, approvalId);
  if (row === undefined || row.chatId !== chatId || row.ownerId !== ownerId || row.status !== 'pending')
    return undefined;
  const steps = (await getStepsOfApprovals(db, [row.id])).get(row.id) ?? [];
  if (!waitsForOthers(steps)) return undefined;
  return (await endPendingRow(db, registry, row, 'withdrawn')) ? row : undefined;
}

/** A pending call of this chat that waits for the person chatting (their own card). */
export type OwnCard = { approvalId: string; tool: string; summary?: Record<'en' | 'zh', string> };

/** This chat's pending calls that wait for its own user's decision, oldest first. */
export async function listOwnCards(db: Db, chatId: string): Promise<OwnCard[]> {
  const rows = await listChatApprovals(db, chatId, ['pending']);
  const stepsById = await getStepsOfApprovals(
    db,
    rows.map((row) => row.id),
  );
  return rows.flatMap((row) => {
    if (waitsForOthers(stepsById.get(row.id) ?? [])) return [];
    const summary = modelSafeSummary(row);
    return [{ approvalId: row.id, tool: row.toolName, ...(summary !== undefined && { summary }) }];
  });
}
