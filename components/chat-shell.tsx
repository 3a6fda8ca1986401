import type { AccountSummary } from './api-types';
import { Chat } from './chat';
import { ChatSidebar } from './chat-sidebar';
import { Drawer } from './drawer';
import { LocaleSwitch } from './locale-switch';
import { ModelLabel } from './model-label';
import { NotificationToggle } from './notification-toggle';
import { SidePanel } from './side-panel';
import { ThemeToggle } from './theme-toggle';
import { WorkerPicker } from './worker-picker';

/**
 * The page a user meets: chats on the left, the conversation in the middle, tickets
 * and todos on the right. Where the grid hides a column (chats below `md`, tickets and
 * todos below `xl`), a header button opens the same component in a drawer instead.
 * A server component; only its leaves are client code.
 */
export function ChatShell({ id, isNew, account }: { id: string; isNew: boolean; account: AccountSummary }) {
  return (
    <div className="grid h-dvh grid-cols-1 md:grid-cols-[15rem_minmax(0,1fr)] xl:grid-cols-[15rem_minmax(0,1fr)_19rem]">
      <div className="hidden min-h-0 md:flex md:flex-col">
        <ChatSidebar account={account} />
      </div>
      <main className="flex min-h-0 min-w-0 flex-col">
        <header className="flex flex-wrap items-center gap-2 border-b border-border px-4 py-2">
          <div className="flex min-w-0 items-center gap-2">
            <Drawer side="left" label="chats" className="md:hidden">
              <ChatSidebar account={account} />
            </Drawer>
            <WorkerPicker />
          </div>
          <div className="ml-auto flex items-center gap-2">
            <ModelLabel />
            <LocaleSwitch />
            <NotificationToggle />
            <ThemeToggle />
            <Drawer side="right" label="sidePanel" className="xl:hidden">
              <SidePanel />
            </Drawer>
          </div>
        </header>
        {/* Keyed by id so moving to another chat starts a fresh useChat instead of reusing the old one. */}
        <Chat key={id} id={id} isNew={isNew} />
      </main>
      <div className="hidden min-h-0 xl:flex xl:flex-col">
        <SidePanel />
      </div>
    </div>
  );
}
