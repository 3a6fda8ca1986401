import 'server-only';
import type { Db } from '@/lib/db/engine';
import { listenOnBus, publishOnBus } from '@/lib/server/event-bus';
import { type ApprovalRecord, type ApprovalStepSpec, getApprovalSteps } from './approval-rows';

/**
 * What happened to an approval, told to whoever listens in any instance:
 * - `taken`: a turn took the decision on (the live one, or a continuation);
 * - `changed`: a step was decided, the status moved, or the deadline moved.
 *
 * A `changed` event also says who may see the approval: its requester (`ownerId`; null
 * for a row without one, which anyone may see) and the roles of its role steps. An event
 * stream decides from these, in memory, whether its viewer hears of it.
 */
export type ApprovalEvent = {
  type: 'taken' | 'changed';
  approvalId: string;
  chatId: string;
  ownerId?: string | null;
  roles?: readonly string[];
};

function isApprovalEvent(value: unknown): value is ApprovalEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { type, approvalId, chatId, ownerId, roles } = value as Partial<ApprovalEvent>;
  return (
    (type === 'taken' || type === 'changed') &&
    typeof approvalId === 'string' &&
    typeof chatId === 'string' &&
    (ownerId === undefined || ownerId === null || typeof ownerId === 'string') &&
    (roles === undefined || (Array.isArray(roles) && roles.every((role) => typeof role === 'string')))
  );
}

/**
 * Tells every listener, here at once and in other instances over Redis. Best effort:
 * a lost notification only costs a fallback (the hand-over's bound, a page's reload
 * of the row), never a decision.
 */
export function publishApprovalEvent(event: ApprovalEvent): void {
  publishOnBus('event', event);
}

/** The roles an approval's role steps wait for (or waited for), each once. */
export function rolesOfSteps(steps: readonly ApprovalStepSpec[]): string[] {
  return [...new Set(steps.flatMap((step) => (step.kind === 'role' ? [step.role] : [])))];
}

/**
 * Tells every listener that `row` changed, with who may see it. Reads its steps when the
 * caller does not hold them: one read per change, however many streams are open; when
 * that read fails the event goes without roles and each instance reads the row once.
 */
export function publishApprovalChange(
  db: Db,
  row: Pick<ApprovalRecord, 'id' | 'chatId' | 'ownerId'>,
  steps?: readonly ApprovalStepSpec[],
): void {
  const publish = (roles: string[] | undefined) =>
    publishApprovalEvent({
      type: 'changed',
      approvalId: row.id,
      chatId: row.chatId,
      ownerId: row.ownerId,
      ...(roles !== undefined && { roles }),
    });
  if (steps !== undefined) {
    publish(rolesOfSteps(steps));
    return;
  }
  getApprovalSteps(db, row.id).then(
    (read) => publish(rolesOfSteps(read)),
    () => publish(undefined),
  );
}

/**
 * Calls `listener` for every event that `filter` keeps until the returned function is
 * called. Resolves once listening has started everywhere (the Redis subscription is up),
 * so whatever the caller checks next cannot miss an event published after it.
 */
export function subscribeApprovalEvents(
  filter: (event: ApprovalEvent) => boolean,
  listener: (event: ApprovalEvent) => void,
): Promise<() => void> {
  return listenOnBus('event', (payload) => {
    if (isApprovalEvent(payload) && filter(payload)) listener(payload);
  });
}

/**
 * Listens for `event` of `approvalId`, then runs `start` (what should bring it about):
 * resolves false at once when `start` says it brought nothing about, true when the event
 * arrives, and after `timeoutMs` whatever `isDone()` says (a last look, for an event lost on
 * the way). Listening starts before `start`, so nothing falls between them.
 */
export async function waitForApprovalEvent(
  approvalId: string,
  type: ApprovalEvent['type'],
  {
    start,
    timeoutMs,
    isDone,
  }: { start: () => Promise<boolean>; timeoutMs: number; isDone: () => Promise<boolean> },
): Promise<boolean> {
  let resolveWait!: (value: boolean) => void;
  const arrived = new Promise<boolean>((resolve) => {
    resolveWait = resolve;
  });
  const stop = await subscribeApprovalEvents(
    (event) => event.approvalId === approvalId && event.type === type,
    () => resolveWait(true),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    if (!(await start())) return false;
    timer = setTimeout(() => resolveWait(false), timeoutMs);
    return (await arrived) || (await isDone());
  } finally {
    clearTimeout(timer);
    stop();
  }
}
