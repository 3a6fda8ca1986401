import 'server-only';
import type { Db } from '@/lib/db/engine';
import { getDb } from '@/lib/db/get-db';
import { outsideRequest } from '@/lib/server/outside-request';
import { approvalNotices } from './approval-notices';
import { earliestPendingDeadline, getApproval, listDueApprovals } from './approval-rows';
import { approvalTiming, delayUntil } from './approval-timing';
import { earliestDueEscalation, escalateDueApprovals } from './escalate-approvals';
import { expireApproval } from './settle-approvals';

/**
 * Keeps the deadlines of approvals no live turn waits for, with ONE timer per process
 * whatever the number of rows: it is armed for the earliest deadline due, and when it
 * fires it expires what is due and arms itself for the next.
 *
 * - Approvals whose turn parked in this process are due `parkedExpiryLateMs` after
 *   their deadline (a live turn's own timer goes first); they are held as id → deadline,
 *   nothing else.
 * - Reminders to approvers and escalations are due at the row's `remind_at` and
 *   `escalate_at`, found the same way (one indexed MIN each).
 * - Every other pending row in the database (left by a restart, or waiting on another
 *   instance) is due `startupExpiryLateMs` after its deadline, so a live turn elsewhere
 *   wins by a wide margin; its next deadline is read from the database (one indexed MIN).
 */
type Keeper = {
  db?: Db;
  timer?: ReturnType<typeof setTimeout>;
  timerAt?: number;
  /** Parked here: id → deadline. */
  parked: Map<string, number>;
  /** When the earliest row of the whole table is due; undefined when none waits or not yet read. */
  tableDueAt?: number;
  /** After a failed pass: no pass before this (no tight loop while the database is away). */
  retryAt?: number;
  running: boolean;
};

const globalForKeeper = globalThis as typeof globalThis & { __toolgateApprovalDeadlines?: Keeper };

function keeper(): Keeper {
  globalForKeeper.__toolgateApprovalDeadlines ??= { parked: new Map(), running: false };
  return globalForKeeper.__toolgateApprovalDeadlines;
}

/** Keeps the deadline of an approval whose turn has parked in this process. */
export function keepParkedDeadline(db: Db, approvalId: string, expiresAt: number): void {
  const state = keeper();
  state.db = db;
  state.parked.set(approvalId, expiresAt);
  armAt(state, expiresAt + approvalTiming.parkedExpiryLateMs);
}

/** The deadline of a parked approval moved (an extension in this process). */
export function moveParkedDeadline(approvalId: string, expiresAt: number): void {
  const state = keeper();
  if (!state.parked.has(approvalId)) return;
  // A later deadline is found by the pass that would have expired it; nothing to re-arm.
  state.parked.set(approvalId, expiresAt);
}

/**
 * At start-up (and after each pass), reads when the earliest pending row of the whole
 * table is due. A database that cannot be read yet is logged and left to the
 * settle-on-read path.
 */
export async function watchPendingDeadlines(db?: Db): Promise<void> {
  const state = keeper();
  try {
    state.db = db ?? state.db ?? (await getDb());
    state.tableDueAt = await tableDueAt(state.db);
    if (state.tableDueAt !== undefined) armAt(state, state.tableDueAt);
  } catch (error) {
    console.error('[toolgate] could not read the pending approvals:', error);
  }
}

/** Makes sure the keeper looks at the table by `dueAt` (a reminder set in this process). */
export function keepDueWork(db: Db, dueAt: number): void {
  const state = keeper();
  state.db = db;
  if (state.tableDueAt === undefined || dueAt < state.tableDueAt) state.tableDueAt = dueAt;
  armAt(state, dueAt);
}

/** When the table next needs a pass: its earliest deadline (late by the start-up margin), reminder or escalation. */
async function tableDueAt(db: Db): Promise<number | undefined> {
  const earliest = await earliestPendingDeadline(db);
  const times = [
    earliest === undefined ? undefined : earliest + approvalTiming.startupExpiryLateMs,
    await approvalNotices().nextReminderAt(db),
    await earliestDueEscalation(db),
  ].filter((time) => time !== undefined);
  return times.length === 0 ? undefined : Math.min(...times);
}

function nextDueAt(state: Keeper): number | undefined {
  let next = state.tableDueAt;
  for (const expiresAt of state.parked.values()) {
    const dueAt = expiresAt + approvalTiming.parkedExpiryLateMs;
    if (next === undefined || dueAt < next) next = dueAt;
  }
  return next;
}

/** Makes sure the timer fires no later than `dueAt`: O(1), whatever the number of rows kept. */
function armAt(state: Keeper, due: number | undefined): void {
  let dueAt = due;
  if (state.running || dueAt === undefined) return; // The pass in progress arms again when it ends.
  if (state.retryAt !== undefined) dueAt = Math.max(dueAt, state.retryAt);
  if (state.timer !== undefined && state.timerAt !== undefined && state.timerAt <= dueAt) return;
  clearTimeout(state.timer);
  state.timerAt = dueAt;
  // Made outside the request that parked the turn, or the timer would keep that request alive.
  state.timer = outsideRequest(() => setTimeout(() => void pass(state), delayUntil(dueAt)));
  state.timer.unref?.();
}

async function pass(state: Keeper): Promise<void> {
  state.timer = undefined;
  state.timerAt = undefined;
  state.running = true;
  try {
    // The process's database now (a stored handle may have been closed since).
    const db = await getDb().catch(() => state.db as Db);
    state.db = db;
    const now = Date.now();
    for (const [approvalId, expiresAt] of [...state.parked]) {
      if (expiresAt + approvalTiming.parkedExpiryLateMs > now) continue;
      const row = await getApproval(db, approvalId);
      if (row?.status === 'pending' && row.expiresAt > now) {
        state.parked.set(approvalId, row.expiresAt); // Given more time elsewhere.
        continue;
      }
      state.parked.delete(approvalId);
      if (row?.status === 'pending') await expireApproval(db, approvalId, now);
    }
    if (state.tableDueAt !== undefined && state.tableDueAt <= now) {
      for (const row of await listDueApprovals(db, now - approvalTiming.startupExpiryLateMs)) {
        state.parked.delete(row.id);
        await expireApproval(db, row.id, now);
      }
    }
    await escalateDueApprovals(db, now);
    await approvalNotices().sendDueReminders(db, now);
    state.tableDueAt = await tableDueAt(db);
    state.retryAt = undefined;
  } catch (error) {
    console.error('[toolgate] could not settle an expired approval:', error);
    // Try again later, not in a tight loop.
    state.retryAt = Date.now() + approvalTiming.startupExpiryLateMs;
  } finally {
    state.running = false;
    armAt(state, nextDueAt(state));
  }
}
