import 'server-only';
import { claimApproval, type Db, type DeniedStatus, listChatApprovals, transitionApproval } from '@/lib/db';
import { toolDenial } from '@/lib/shells';
import type { ApprovalRegistry } from '@/lib/stores';
import { auditParkedDenial } from './audit-parked-call';
import { reasonByStatus } from './denied-statuses';
import { patchSavedPart } from './settle-tool-parts';
import { runningTurns } from './turn-streams';

/**
 * Ends every pending approval of a chat with `status` (Stop, a new message, deleting
 * the chat). Each row moves by compare-and-set, so a decision that got there first
 * keeps its row. The waiting call is woken wherever it waits and reads the row; a row
 * nobody waits for any more (its turn is gone) is written into the saved message here.
 * Returns how many approvals this ended.
 */
export async function endPendingApprovals(
  db: Db,
  registry: ApprovalRegistry,
  chatId: string,
  status: Extract<DeniedStatus, 'stopped' | 'superseded' | 'closed'>,
): Promise<number> {
  let ended = 0;
  for (const row of await listChatApprovals(db, chatId, ['pending'])) {
    if (!(await transitionApproval(db, row.id, 'pending', status))) continue;
    ended += 1;
    let woken = false;
    try {
      woken = await registry.resolve(row.id, chatId, false, row.ownerId ?? undefined);
    } catch {
      // Redis unreachable: nobody can be woken; the saved message is settled below.
    }
    if (!woken && (await claimApproval(db, row.id, status))) {
      await auditParkedDenial(db, row, status);
      const denial = toolDenial(reasonByStatus[status], row.toolName);
      await patchSavedPart(db, row, { kind: 'denied', reason: denial.reason, message: denial.message });
    }
  }
  return ended;
}

/** How long a new message waits for the turn it supersedes to write its last words. */
const supersedeWaitMs = 3_000;

/**
 * A new message answers the chat's waiting cards with `superseded`. The turn that
 * asked (if it runs here) gets a moment to end, so the new turn's history has its reply.
 */
export async function settleChatAsSuperseded(
  db: Db,
  registry: ApprovalRegistry,
  chatId: string,
  _ownerId?: string,
): Promise<void> {
  const previous = runningTurns().get(chatId);
  const ended = await endPendingApprovals(db, registry, chatId, 'superseded');
  if (ended > 0 && previous !== undefined) await waitAtMost(previous.done, supersedeWaitMs);
}

/** Resolves when `promise` settles or `ms` have passed, whichever is first. */
export async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
