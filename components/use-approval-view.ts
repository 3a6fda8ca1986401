import { useEffect, useState } from 'react';
import type { ApprovalView } from './api-types';

/**
 * The server's view of one approval (`GET /api/approvals/:id`), read again whenever the
 * server says it changed (`GET /api/approvals/events?approvalId=`, server-sent events):
 * a step decided on another page or instance shows here without a reload. Follows only
 * while `follow` holds; `initial` is shown until the first read. A new `reload` value
 * reads it again (the server said the card was stale).
 */
export function useApprovalView(
  approvalId: string | undefined,
  follow: boolean,
  initial?: ApprovalView,
  reload = 0,
): ApprovalView | undefined {
  const [view, setView] = useState<ApprovalView | undefined>(initial);
  useEffect(() => {
    if (!follow || approvalId === undefined) return;
    let cancelled = false;
    const path = `/api/approvals/${encodeURIComponent(approvalId)}`;
    async function load() {
      const response = await fetch(path, { cache: 'no-store' }).catch(() => undefined);
      if (!response?.ok || cancelled) return;
      const next = (await response.json()) as ApprovalView;
      if (!cancelled) setView(next);
    }
    const source = new EventSource(`/api/approvals/events?approvalId=${encodeURIComponent(approvalId)}`);
    // Read once the stream listens, so no change falls between the read and the first event.
    source.onopen = () => void load();
    // Asked to read again: at once, not only when the stream (re)opens.
    if (reload > 0) void load();
    source.onmessage = () => void load();
    return () => {
      cancelled = true;
      source.close();
    };
  }, [approvalId, follow, reload]);
  return view;
}
