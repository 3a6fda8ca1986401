'use client';

import { Inbox } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { useCloseDrawer } from './drawer';
import { notificationsEnabled } from './notification-toggle';
import { Badge } from './ui/badge';
import { cn } from './ui/cn';
import { inboxPageSize, useApprovalInbox } from './use-approval-inbox';
import { useWorkspace } from './workspace-provider';

/** The count of an inbox page: `50+` when more wait than one read holds. */
export function inboxCountText(count: number, hasMore: boolean): string {
  return hasMore ? `${inboxPageSize}+` : String(count);
}

/**
 * The sidebar's way to the approvers' inbox, with how many wait now (live). Once the
 * person opted in (the bell), an item that arrives while the tab is hidden shows a
 * desktop notification, on any page with the sidebar (tagged by approval id: one per item).
 */
export function InboxLink() {
  const { t, locale } = useWorkspace();
  const pathname = usePathname();
  const closeDrawer = useCloseDrawer();
  const { items, hasMore } = useApprovalInbox(true);
  const count = items?.length ?? 0;
  // What was already there at the first read does not notify: only what arrives later.
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    if (items === undefined) return;
    const known = seen.current;
    seen.current = new Set([...(known ?? []), ...items.map((item) => item.approvalId)]);
    if (known === null || !document.hidden || !notificationsEnabled()) return;
    for (const item of items) {
      if (known.has(item.approvalId)) continue;
      const summary = item.summary?.[locale] ?? item.summary?.en ?? item.tool;
      new Notification(t.notificationTitle, { body: t.inboxNotification(summary), tag: item.approvalId });
    }
  }, [items, locale, t]);
  const active = pathname === '/approvals';
  return (
    <Link
      href="/approvals"
      aria-current={active ? 'page' : undefined}
      onClick={closeDrawer}
      data-testid="inbox-link"
      className={cn(
        'flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-muted',
        active && 'bg-muted font-medium',
      )}
    >
      <Inbox className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
      <span className="flex-1">{t.inbox}</span>
      {count > 0 && (
        <>
          <Badge variant="secondary" data-testid="inbox-count" aria-hidden="true">
            {inboxCountText(count, hasMore)}
          </Badge>
          <span className="sr-only">{t.inboxCount(count)}</span>
        </>
      )}
    </Link>
  );
}
