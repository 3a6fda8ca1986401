import 'server-only';
import { getConfig } from '@/lib/config';
import { type Db, getChat, getDb } from '@/lib/db';
import { listenForAccessRevoked } from '@/lib/server/event-bus';
import { type ApprovalEvent, subscribeApprovalEvents } from '../life-cycle/approval-events';
import { mayView } from '../life-cycle/approval-life-cycle';
import {
  type ApprovalRecord,
  type ApprovalStepRecord,
  getApproval,
  getApprovalSteps,
} from '../life-cycle/approval-rows';
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

/** Who follows: the viewer, and the sign-in (better-auth session id) the stream ends with. */
export type StreamViewer = ApprovalViewer & { authSessionId?: string };

// An event without who may see it (from an instance that does not say) is read once here,
// however many inbox streams ask: every listener gets the same event object.
const rowsByEvent = new WeakMap<
  ApprovalEvent,
  Promise<{ row: ApprovalRecord; steps: ApprovalStepRecord[] } | undefined>
>();

function rowOfEvent(db: Db, event: ApprovalEvent) {
  let read = rowsByEvent.get(event);
  if (read === undefined) {
    read = (async () => {
      const row = await getApproval(db, event.approvalId);
      return row === undefined ? undefined : { row, steps: await getApprovalSteps(db, row.id) };
    })();
    rowsByEvent.set(event, read);
  }
  return read;
}

/**
 * Whether the viewer may see the approval of a `changed` event, from what the event says
 * (its requester and the roles of its steps, as `mayView` judges the row); undefined when
 * it does not say.
 */
function seenBy(event: ApprovalEvent, viewer: ApprovalViewer): boolean | undefined {
  if (event.ownerId === undefined || event.roles === undefined) return undefined;
  if (event.ownerId === null || event.ownerId === viewer.id) return true;
  return event.roles.some((role) => viewer.roles.includes(role));
}

/**
 * A server-sent event stream of what happens to approvals (`{ type, approvalId, chatId }`
 * per event; the page reads the approval again with `GET /api/approvals/:id`), fed by
 * the same notification the hand-over uses, in this process and over Redis from every
 * other. Undefined when the caller may not follow that chat or approval, or asks for the
 * inbox without a role (answered 404). Which events a stream carries is decided in memory
 * from the event, so open streams add no database work to an approval event. The stream
 * ends when the viewer's sign-in ends, they are banned or a role of theirs is revoked
 * (a notice on the same bus), and in any case after `TOOLGATE_EVENT_STREAM_LIFE_MS`: the
 * browser reconnects, is checked again and reads the current state. It holds two listeners
 * and two timers while open, nothing per waiting approval. `'too-many'` when the user
 * already holds {@link maxOpenStreamsPerUser} on this instance.
 */
export async function approvalEventStream(
  scope: ApprovalEventScope,
  viewer: StreamViewer,
  signal: AbortSignal,
): Promise<ReadableStream<string> | undefined | 'too-many'> {
  const db = await getDb();
  let keep: (event: ApprovalEvent) => boolean;
  let visible: (event: ApprovalEvent) => Promise<boolean> = async () => true;
  if ('inbox' in scope) {
    // Only role holders have an inbox; anyone else is answered as if it were not there.
    if (viewer.roles.length === 0) return undefined;
    keep = (event) => event.type === 'changed' && seenBy(event, viewer) !== false;
    visible = async (event) => {
      const seen = seenBy(event, viewer);
      if (seen !== undefined) return seen;
      const read = await rowOfEvent(db, event);
      return read !== undefined && mayView(read.row, read.steps, { userId: viewer.id, roles: viewer.roles });
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
  // Every stream ends after a while and the browser reconnects, checked again: the bound on a
  // session that expired (no notice comes of that) or a revoke that reached this instance by
  // no notice (an operator's, without Redis; a lost message).
  const lifeMs = getConfig().TOOLGATE_EVENT_STREAM_LIFE_MS;

  if (!takeStreamPlace(viewer.id)) return 'too-many';
  const stops: (() => void)[] = [];
  let timers: ReturnType<typeof setTimeout>[] = [];
  let ended = false;
  let close: () => void = () => undefined;
  const end = () => {
    for (const stop of stops.splice(0)) stop();
    for (const timer of timers) clearTimeout(timer);
    timers = [];
    if (ended) return;
    ended = true;
    releaseStreamPlace(viewer.id);
  };
  return new ReadableStream<string>({
    async start(controller) {
      close = () => {
        end();
        try {
          controller.close();
        } catch {
          // Already closed.
        }
      };
      const send = (text: string) => {
        if (ended) return;
        try {
          controller.enqueue(text);
        } catch {
          end();
        }
      };
      const listening = await Promise.all([
        subscribeApprovalEvents(keep, (event) => {
          visible(event).then(
            (shown) => {
              // Only what the page needs: who may see it stays on the server.
              const { type, approvalId, chatId } = event;
              if (shown) send(`data: ${JSON.stringify({ type, approvalId, chatId })}\n\n`);
            },
            () => undefined,
          );
        }),
        listenForAccessRevoked((notice) => {
          if (notice.userId !== viewer.id) return;
          if (notice.authSessionId === undefined || notice.authSessionId === viewer.authSessionId) close();
        }),
      ]);
      stops.push(...listening);
      // Closed while subscribing (the client left, or a notice came): let go of the listeners.
      if (ended || signal.aborted) {
        close();
        return;
      }
      send(': listening\n\n');
      const keepAlive = setInterval(() => send(': keep-alive\n\n'), keepAliveMs);
      keepAlive.unref?.();
      timers.push(keepAlive);
      const life = setTimeout(close, lifeMs);
      life.unref?.();
      timers.push(life);
      signal.addEventListener('abort', close, { once: true });
    },
    cancel: end,
  });
}
