'use client';

import { ShieldAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type ChatUntrustedReads, fetchJson } from './api-types';
import { Button } from './ui/button';
import { useWorkspace } from './workspace-provider';

/**
 * The chat header's line saying that this chat read content someone else wrote (a mail, an
 * MCP answer, an attached file), so that a write with values the person did not type waits for
 * their card, with the control that clears it once they have checked what was read. Shows
 * nothing while the chat is not marked. `version` changes when a turn may have read more.
 */
export function UntrustedReadsBar({
  chatId,
  chatExists,
  version,
}: {
  chatId: string;
  chatExists: boolean;
  version: number;
}) {
  const { t } = useWorkspace();
  const [reads, setReads] = useState<ChatUntrustedReads['reads']>([]);
  const [clearing, setClearing] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is a refresh trigger.
  useEffect(() => {
    if (!chatExists) return;
    let cancelled = false;
    fetchJson<ChatUntrustedReads>(`/api/chats/${encodeURIComponent(chatId)}/untrusted-reads`)
      .then((value) => {
        if (!cancelled) setReads(value.reads);
      })
      .catch(() => {
        if (!cancelled) setReads([]);
      });
    return () => {
      cancelled = true;
    };
  }, [chatId, chatExists, version]);

  async function clear() {
    setClearing(true);
    try {
      const response = await fetch(`/api/chats/${encodeURIComponent(chatId)}/untrusted-reads`, {
        method: 'DELETE',
      });
      if (response.ok) setReads(((await response.json()) as ChatUntrustedReads).reads);
    } finally {
      setClearing(false);
    }
  }

  if (reads.length === 0) return null;
  const tools = [...new Set(reads.map((read) => read.tool))];
  const clearable = reads.some((read) => !read.unreadable);
  return (
    <section
      aria-label={t.untrustedReads}
      className="flex flex-wrap items-center gap-2 border-b border-border bg-amber-50 px-4 py-2 text-xs dark:bg-amber-950/30"
      data-testid="untrusted-reads"
    >
      <ShieldAlert className="size-4 text-amber-600" aria-hidden="true" />
      <span>{t.untrustedReadsExplained(tools.join(', '))}</span>
      {reads.some((read) => read.unreadable) && <span>{t.unreadableFileKeepsMark}</span>}
      {clearable && (
        <Button variant="outline" size="sm" className="h-6" disabled={clearing} onClick={() => void clear()}>
          {t.checkedWhatWasRead}
        </Button>
      )}
    </section>
  );
}
