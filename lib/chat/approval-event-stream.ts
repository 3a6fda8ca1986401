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

/** What one page follows: the approvals of a chat it owns, one approval it may see, or every approval it may see (the inbox). */
export type ApprovalEventScope = { chatId: string } | { approvalId: string } | { inbox: true };

/**
 * A server-sent event stream of what happens to approvals (`{ type, approvalId, chatId }`
 * per event; the page reads the approval again with `GET /api/approvals/:id`), fed by
 * the same notification the hand-over uses, in this process and over Redis from every
 * other. Undefined when the caller may not follow that chat or approval (answered 404).
 * It holds one listener and one keep-alive timer while open, nothing per waiting approval.
 */
export async function approvalEventStream(
  scope: ApprovalEventScope,
  viewer: ApprovalViewer,
  signal: AbortSignal,
): Promise<ReadableStream<string> | undefined> {
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

  let stop: (() => void) | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  const end = () => {
    stop?.();
    clearInterval(timer);
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
