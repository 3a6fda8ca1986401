import 'server-only';
import type { ApprovalRegistry } from '@toolgate/engine';
import { isCancelPhrase } from '@/lib/ai/offline-waiting';
import type { EndedCardFact } from '@/lib/ai/waiting-requests-block';
import { endPendingApprovals, getApproval, listOwnCards, listWaitingRequests } from '@/lib/approvals';
import type { Db } from '@/lib/db';
import { carryOutDecision } from './carry-out-decision';
import { runningTurns } from './turn-streams';

/** How long a new message waits for the turn it supersedes to write its last words. */
const supersedeWaitMs = 3_000;

/** The longest note a "no" carries (as `POST /api/chat/approve` takes it). */
const maxNoteLength = 500;

/**
 * What a new message does to the chat's waiting cards. A card that waits for the person
 * chatting is answered by it: a message that begins with "never mind" / "算了" / "cancel"
 * denies it with their words as the note; any other message supersedes it (`superseded`). A
 * call that waits for someone else (a role step) goes on waiting: the person may keep
 * talking. The turn that asked (if it runs here) gets a moment to end or park, so the new
 * turn does not race it. Returns the cards the message ended, for the new turn's reply.
 */
export async function settleChatForNewMessage(
  db: Db,
  registry: ApprovalRegistry,
  { chatId, ownerId, text }: { chatId: string; ownerId: string; text: string },
): Promise<EndedCardFact[]> {
  const previous = runningTurns().get(chatId);
  const own = await listOwnCards(db, chatId);
  const ended: EndedCardFact[] = [];
  if (own.length > 0 && isCancelPhrase(text)) {
    for (const card of own) {
      const result = await carryOutDecision(
        { approvalId: card.approvalId, chatId, approved: false, reason: text.slice(0, maxNoteLength) },
        ownerId,
      );
      if (result.status === 200 && result.body.status === 'denied')
        ended.push({ tool: card.tool, summary: card.summary, how: 'denied', note: text });
    }
  }
  const superseded = await endPendingApprovals(db, registry, chatId, 'superseded');
  if (superseded > 0) {
    for (const card of own) {
      if ((await getApproval(db, card.approvalId))?.status === 'superseded')
        ended.push({ tool: card.tool, summary: card.summary, how: 'superseded' });
    }
  }
  const othersWaiting = (await listWaitingRequests(db, chatId)).length > 0;
  if ((ended.length > 0 || othersWaiting) && previous !== undefined)
    await waitAtMost(previous.done, supersedeWaitMs);
  return ended;
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
