'use client';

import { generateId } from 'ai';
import { MessageSquare, Plus, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { AccountMenu } from './account-menu';
import { type AccountSummary, type ChatSummary, fetchJson } from './api-types';
import { useCloseDrawer } from './drawer';
import { InboxLink } from './inbox-link';
import { Button } from './ui/button';
import { cn } from './ui/cn';
import { ScrollArea } from './ui/scroll-area';
import { useWorkspace } from './workspace-provider';

/** This user's chats, newest first, with New chat and Delete, and the account at the foot. */
export function ChatSidebar({ account }: { account: AccountSummary }) {
  const { t, chatsVersion, refreshChats } = useWorkspace();
  const router = useRouter();
  const closeDrawer = useCloseDrawer();
  const pathname = usePathname();
  const [chats, setChats] = useState<ChatSummary[] | null>(null);
  const [failed, setFailed] = useState(false);
  const activeId = pathname.startsWith('/chat/') ? decodeURIComponent(pathname.slice('/chat/'.length)) : null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: chatsVersion and pathname are refetch triggers.
  useEffect(() => {
    let cancelled = false;
    fetchJson<ChatSummary[]>('/api/chats')
      .then((list) => {
        if (cancelled) return;
        setChats(list);
        setFailed(false);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [chatsVersion, pathname]);

  async function remove(chat: ChatSummary) {
    const response = await fetch(`/api/chats/${encodeURIComponent(chat.id)}`, { method: 'DELETE' });
    if (!response.ok && response.status !== 404) return;
    setChats((list) => list?.filter((entry) => entry.id !== chat.id) ?? null);
    refreshChats();
    if (chat.id === activeId) router.push('/');
  }

  return (
    <nav
      aria-label={t.chats}
      className="flex min-h-0 flex-1 flex-col gap-2 border-r border-border bg-sidebar p-3"
    >
      <div className="flex items-center justify-between gap-2 px-1">
        <Link href="/" className="text-base font-semibold tracking-tight" onClick={closeDrawer}>
          {t.appName}
        </Link>
      </div>
      <Button
        variant="outline"
        className="justify-start"
        onClick={() => {
          router.push(`/chat/${generateId()}`);
          closeDrawer();
        }}
      >
        <Plus />
        {t.newChat}
      </Button>
      {account.isApprover && <InboxLink />}
      <h2 className="px-1 pt-2 text-xs font-medium text-muted-foreground">{t.chats}</h2>
      <ScrollArea className="flex-1">
        {failed && <p className="px-1 text-xs text-destructive">{t.loadFailed}</p>}
        {chats !== null && chats.length === 0 && (
          <p className="px-1 text-xs text-muted-foreground">{t.noChats}</p>
        )}
        <ul className="flex flex-col gap-0.5">
          {chats?.map((chat) => {
            const title = chat.title?.trim() || t.untitledChat;
            const active = chat.id === activeId;
            return (
              <li key={chat.id} className="group flex items-center gap-1">
                <Link
                  href={`/chat/${encodeURIComponent(chat.id)}`}
                  aria-current={active ? 'page' : undefined}
                  onClick={closeDrawer}
                  className={cn(
                    'flex min-w-0 flex-1 items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-muted',
                    active && 'bg-muted font-medium',
                  )}
                >
                  <MessageSquare className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <span className="truncate">{title}</span>
                </Link>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={t.deleteChat(title)}
                  className="opacity-60 group-hover:opacity-100 focus-visible:opacity-100"
                  onClick={() => void remove(chat)}
                >
                  <Trash2 />
                </Button>
              </li>
            );
          })}
        </ul>
      </ScrollArea>
      <AccountMenu account={account} />
    </nav>
  );
}
