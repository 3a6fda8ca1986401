import { useSyncExternalStore } from 'react';
import type { ApprovalView } from './api-types';

/** The first page of what waits for this person (`GET /api/approvals`), kept live. */
export type ApprovalInbox = {
  /** Undefined until the first read. */
  items: ApprovalView[] | undefined;
  /** More wait than this page holds. */
  hasMore: boolean;
};

/** How many items one read asks for: the count shows `50+` beyond it. */
export const inboxPageSize = 50;

const empty: ApprovalInbox = { items: undefined, hasMore: false };

// One stream and one list for every component that shows the inbox (the sidebar in its
// column and in the drawer, the page): they subscribe to the same store.
let state: ApprovalInbox = empty;
const listeners = new Set<() => void>();
let source: EventSource | undefined;
let loading: Promise<void> | undefined;
let loadAgain = false;

function set(next: ApprovalInbox) {
  state = next;
  for (const listener of listeners) listener();
}

async function read() {
  const response = await fetch(`/api/approvals?limit=${inboxPageSize}`, { cache: 'no-store' }).catch(
    () => undefined,
  );
  if (!response?.ok) return;
  const body = (await response.json()) as { approvals: ApprovalView[]; nextCursor: string | null };
  set({ items: body.approvals, hasMore: body.nextCursor !== null });
}

/** Reads the list again; a change that arrives during a read causes one more read after it. */
export function reloadApprovalInbox(): void {
  if (loading !== undefined) {
    loadAgain = true;
    return;
  }
  loading = read().finally(() => {
    loading = undefined;
    if (loadAgain) {
      loadAgain = false;
      reloadApprovalInbox();
    }
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (source === undefined) {
    source = new EventSource('/api/approvals/events?inbox=1');
    // Read once the stream listens, so no change falls between the read and the first event.
    source.onopen = () => reloadApprovalInbox();
    source.onmessage = () => reloadApprovalInbox();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      source?.close();
      source = undefined;
      state = empty;
    }
  };
}

/**
 * What waits for this person's decision now, oldest first, read again whenever the server
 * says an approval they may see changed (`GET /api/approvals/events?inbox=1`, in this
 * instance or another over Redis). `enabled: false` (someone without a role) opens nothing.
 */
export function useApprovalInbox(enabled: boolean): ApprovalInbox {
  return useSyncExternalStore(
    enabled ? subscribe : noSubscribe,
    () => (enabled ? state : empty),
    () => empty,
  );
}

const noSubscribe = () => () => undefined;
