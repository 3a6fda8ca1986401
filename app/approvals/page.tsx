import { ApprovalInbox } from '@/components/approval-inbox';
import { ChatSidebar } from '@/components/chat-sidebar';
import { Drawer } from '@/components/drawer';
import { LocaleSwitch } from '@/components/locale-switch';
import { NotificationToggle } from '@/components/notification-toggle';
import { ThemeToggle } from '@/components/theme-toggle';
import { requirePageUser } from '@/lib/auth/require-page-user';

export const dynamic = 'force-dynamic';

/**
 * The approvers' inbox: what waits for this person's decision, live. Anyone signed in may
 * open it (someone without a role finds it empty, and it opens no event stream for them);
 * the sidebar offers it to role holders.
 */
export default async function ApprovalInboxPage() {
  const { email, isAnonymous, isAdmin, roles } = await requirePageUser('/approvals');
  const account = { email, isAnonymous, isAdmin, isApprover: roles.length > 0 };
  return (
    <div className="grid h-dvh grid-cols-1 md:grid-cols-[15rem_minmax(0,1fr)]">
      <div className="hidden min-h-0 md:flex md:flex-col">
        <ChatSidebar account={account} />
      </div>
      <div className="flex min-h-0 min-w-0 flex-col">
        <header className="flex items-center gap-2 border-b border-border px-4 py-2">
          <Drawer side="left" label="chats" className="md:hidden">
            <ChatSidebar account={account} />
          </Drawer>
          <div className="ml-auto flex items-center gap-2">
            <LocaleSwitch />
            <NotificationToggle />
            <ThemeToggle />
          </div>
        </header>
        <main className="mx-auto w-full max-w-6xl flex-1 overflow-y-auto px-4 py-6">
          <ApprovalInbox isApprover={account.isApprover} />
        </main>
      </div>
    </div>
  );
}
