'use client';

import { useEffect, useRef } from 'react';
import { useWorkspace } from './workspace-provider';

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
 * the time is up: the tab title starts with `(n)`, a polite live region says so, and
 * when a first card appears focus moves to it — unless the person is typing.
 */
export function ApprovalAttention({ waitingCount }: { waitingCount: number }) {
  const { t } = useWorkspace();
  const baseTitle = useRef<string | null>(null);
  const previousCount = useRef(0);

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
