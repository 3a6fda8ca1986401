'use client';

import { Inbox } from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useCloseDrawer } from './drawer';
import { Badge } from './ui/badge';
import { cn } from './ui/cn';
import { inboxPageSize, useApprovalInbox } from './use-approval-inbox';
import { useWorkspace } from './workspace-provider';

/** The count of an inbox page: `50+` when more wait than one read holds. */
export function inboxCountText(count: number, hasMore: boolean): string {
  return hasMore ? `${inboxPageSize}+` : String(count);
}

/** The sidebar's way to the approvers' inbox, with how many wait now (live). */
export function InboxLink() {
  const { t } = useWorkspace();
  const pathname = usePathname();
  const closeDrawer = useCloseDrawer();
  const { items, hasMore } = useApprovalInbox(true);
  const count = items?.length ?? 0;
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
