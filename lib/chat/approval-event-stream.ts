import 'server-only';
import {
  type ApprovalEvent,
  getApproval,
  getApprovalSteps,
  mayView,
  subscribeApprovalEvents,
} from '@/lib/approvals';
import { getChat, getDb } from '@/lib/db';
import type { ApprovalViewer } from './read-approvals';

/** How often an idle stream sends a comment, so proxies keep it open. */
const keepAliveMs = 25_000;

/**
 * How many event streams one user may hold open on one instance: enough for a few tabs
 * (a chat, an approval page and the inbox each follow one), few enough that nobody can
 * multiply the work every approval event does by opening thousands.
 */
export const maxOpenStreamsPerUser = 16;

// Keyed on globalThis: route handlers may load this module more than once.
const globalForStreams = globalThis as typeof globalThis & {
  __toolgateOpenEventStreams?: Map<string, number>;
};
globalForStreams.__toolgateOpenEventStreams ??= new Map<string, number>();
const openStreams = globalForStreams.__toolgateOpenEventStreams;

/** Takes one of the user's stream places; false when all are taken. */
function takeStreamPlace(userId: string): boolean {
  const open = openStreams.get(userId) ?? 0;
  if (open >= maxOpenStreamsPerUser) return false;
  openStreams.set(userId, open + 1);
  return true;
}

function releaseStreamPlace(userId: string): void {
  const open = (openStreams.get(userId) ?? 1) - 1;
  if (open <= 0) openStreams.delete(userId);
  else openStreams.set(userId, open);
}

/** What one page follows: the approvals of a chat it owns, one approval it may see, or every approval it may see (the inbox). */
export type ApprovalEventScope = { chatId: string } | { approvalId: string } | { inbox: true };

/**
 * A server-sent event stream of what happens to approvals (`{ type, approvalId, chatId }`
 * per event; the page reads the approval again with `GET /api/approvals/:id`), fed by
 * the same notification the hand-over uses, in this process and over Redis from every
 * other. Undefined when the caller may not follow that chat or approval (answered 404).
 * It holds one listener and one keep-alive timer while open, nothing per waiting approval.
 * `'too-many'` when the user already holds {@link maxOpenStreamsPerUser} on this instance.
 */
export async function approvalEventStream(
  scope: ApprovalEventScope,
  viewer: ApprovalViewer,
  signal: AbortSignal,
): Promise<ReadableStream<string> | undefined | 'too-many'> {
  const db = await getDb();
  let keep: (event: ApprovalEvent) => boolean;
  // The inbox hears of an approval only once the row says this person may see it.
  let visible: (event: ApprovalEvent) => Promise<boolean> = async () => true;
  if ('inbox' in scope) {
    keep = (event) => event.type === 'changed';
    visible = async (event) => {
      const row = await getApproval(db, event.approvalId);
      if (row === undefined) return false;
      return mayView(row, await getApprovalSteps(db, row.id), { userId: viewer.id, roles: viewer.roles });
    };
  } else if ('chatId' in scope) {
    const chat = await getChat(db, scope.chatId);
    if (chat === undefined || (chat.ownerId != null && chat.ownerId !== viewer.id)) return undefined;
    keep = (event) => event.chatId === scope.chatId && event.type === 'changed';
  } else {
    const row = await getApproval(db, scope.approvalId);
    if (row === undefined) return undefined;
    const steps = await getApprovalSteps(db, row.id);
    if (!mayView(row, steps, { userId: viewer.id, roles: viewer.roles })) return undefined;
    keep = (event) => event.approvalId === scope.approvalId && event.type === 'changed';
  }

  if (!takeStreamPlace(viewer.id)) return 'too-many';
  let stop: (() => void) | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let ended = false;
  const end = () => {
    stop?.();
    clearInterval(timer);
    if (ended) return;
    ended = true;
    releaseStreamPlace(viewer.id);
  };
  return new ReadableStream<string>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(text);
        } catch {
          end();
        }
      };
      stop = await subscribeApprovalEvents(keep, (event) => {
        visible(event).then(
          (shown) => {
            if (shown) send(`data: ${JSON.stringify(event)}\n\n`);
          },
          () => undefined,
        );
      });
      send(': listening\n\n');
      timer = setInterval(() => send(': keep-alive\n\n'), keepAliveMs);
      timer.unref?.();
      signal.addEventListener(
        'abort',
        () => {
          end();
          try {
            controller.close();
          } catch {
            // Already closed.
          }
        },
        { once: true },
      );
    },
    cancel: end,
  });
}
