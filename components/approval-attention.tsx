'use client';

import { useEffect, useRef } from 'react';
import { notificationsEnabled } from './notification-toggle';
import { useWorkspace } from './workspace-provider';

/** A card waiting for a decision, as the attention cues need it. */
/** A card that waits; `tainted`: it names an untrusted source, so "Allow all" leaves it to be decided alone. */
export type WaitingApproval = { approvalId: string; summary: string; tainted?: boolean };

/**
 * Whether the person is typing somewhere: then focus is theirs, not the card's. A field
 * they just emptied by sending does not count: that is where the card's request came from.
 */
function isTyping(): boolean {
  const active = document.activeElement;
  if (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) return active.value !== '';
  return active instanceof HTMLElement && active.isContentEditable;
}

/**
 * Draws attention to cards that wait for a decision, since they deny themselves when
 * the time is up: the tab title starts with `(n)`, a polite live region says so, when a
 * first card appears focus moves to it — unless the person is typing — and, once they
 * opted in, a card that starts waiting while the tab is hidden fires a desktop notification.
 */
export function ApprovalAttention({ waiting }: { waiting: WaitingApproval[] }) {
  const { t } = useWorkspace();
  const waitingCount = waiting.length;
  const baseTitle = useRef<string | null>(null);
  const previousCount = useRef(0);
  // Each card notifies once, however often the list re-renders while it waits.
  const notified = useRef(new Set<string>());

  useEffect(() => {
    if (!document.hidden || !notificationsEnabled()) return;
    for (const { approvalId, summary } of waiting) {
      if (notified.current.has(approvalId)) continue;
      notified.current.add(approvalId);
      new Notification(t.notificationTitle, { body: summary, tag: approvalId });
    }
  }, [waiting, t]);

  useEffect(() => {
    if (baseTitle.current === null) baseTitle.current = document.title;
    const base = baseTitle.current;
    document.title = waitingCount > 0 ? `(${waitingCount}) ${base}` : base;
    if (waitingCount > 0 && previousCount.current === 0 && !isTyping()) {
      const card = document.querySelector<HTMLElement>('[data-testid="tool-card"][data-waiting="true"]');
      card?.focus({ preventScroll: false });
    }
    previousCount.current = waitingCount;
  }, [waitingCount]);

  // Restores the title when the chat goes away.
  useEffect(
    () => () => {
      if (baseTitle.current !== null) document.title = baseTitle.current;
    },
    [],
  );

  return (
    <div role="status" aria-live="polite" className="sr-only" data-testid="approval-announcer">
      {waitingCount > 0 ? t.waitingAnnouncement(waitingCount) : ''}
    </div>
  );
}
