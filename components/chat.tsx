'use client';

import { useChat } from '@ai-sdk/react';
import { findErrorReference } from '@toolgate/engine/client';
import { DefaultChatTransport, getToolName } from 'ai';
import { Sparkles } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ToolgateMessage } from './api-types';
import { ApprovalAttention, type WaitingApproval } from './approval-attention';
import { localDeadlineOf, rememberDeadlines } from './approval-deadlines';
import { isTaintedCard } from './approval-provenance';
import { ApprovalRulesBar } from './approval-rules-bar';
import { Composer } from './composer';
import type { Locale } from './i18n';
import { MessageList } from './message-list';
import { sendDecision } from './send-decision';
import { StandingGrantsBar } from './standing-grants-bar';
import type { ToolPart } from './tool-card';
import { Button } from './ui/button';
import { ScrollArea } from './ui/scroll-area';
import { UntrustedReadsBar } from './untrusted-reads-bar';
import { useWorkspace } from './workspace-provider';

type ChatLoad =
  | { status: 'loading' }
  | { status: 'ready'; messages: ToolgateMessage[]; resume: boolean }
  | { status: 'failed' };

type ActiveStream = { messageId: string; baseParts: number } | null;

/** Whether a card of these messages waits for someone other than the requester (a policy's role step). */
function waitsForOthers(messages: ToolgateMessage[]): boolean {
  return messages.some((message) =>
    message.parts.some((part) => {
      const tool = part as Partial<ToolPart>;
      const descriptor = tool.approval?.descriptor as { steps?: unknown } | undefined;
      return tool.state === 'approval-requested' && Array.isArray(descriptor?.steps);
    }),
  );
}

/** Whether a card's steps name only other people (role steps): nothing on it is the reader's to do. */
function onlyOthersDecide(descriptor: Record<string, unknown> | undefined): boolean {
  const steps = descriptor?.steps;
  return (
    Array.isArray(steps) &&
    steps.every(
      (step) => typeof step === 'object' && step !== null && (step as { kind?: unknown }).kind === 'role',
    )
  );
}

/**
 * The saved messages a resumed stream applies to: the stream rebuilds its message
 * from `baseParts` parts (from nothing when -1), so the rest is dropped first.
 */
function baseOf(messages: ToolgateMessage[], activeStream: ActiveStream): ToolgateMessage[] {
  if (activeStream === null) return messages;
  return messages.flatMap((message) => {
    if (message.id !== activeStream.messageId) return [message];
    if (activeStream.baseParts < 0) return [];
    return [{ ...message, parts: message.parts.slice(0, activeStream.baseParts) }];
  });
}

/** The saved chat, ready for useChat; `resume` when a turn of it is running now. */
async function loadChat(id: string): Promise<ChatLoad> {
  const response = await fetch(`/api/chats/${encodeURIComponent(id)}`, { cache: 'no-store' });
  // 404 is a chat that was never saved (a fresh "New chat" id) or was deleted: start empty.
  if (response.status === 404) return { status: 'ready', messages: [], resume: false };
  if (!response.ok) return { status: 'failed' };
  const chat = (await response.json()) as { messages?: ToolgateMessage[]; activeStream?: ActiveStream };
  const messages = chat.messages ?? [];
  rememberDeadlines(messages);
  const activeStream = chat.activeStream ?? null;
  return { status: 'ready', messages: baseOf(messages, activeStream), resume: activeStream !== null };
}

/**
 * The chat at `/chat/[id]` (or a fresh one at `/`). A saved chat's messages are
 * loaded from `GET /api/chats/[id]` before useChat starts, so the hook owns them
 * from its first render.
 */
export function Chat({ id, isNew }: { id: string; isNew: boolean }) {
  const { t } = useWorkspace();
  const [load, setLoad] = useState<ChatLoad>(
    isNew ? { status: 'ready', messages: [], resume: false } : { status: 'loading' },
  );
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the retry trigger.
  useEffect(() => {
    if (isNew) return;
    let cancelled = false;
    setLoad({ status: 'loading' });
    loadChat(id)
      // Not an empty chat: sending from an empty screen would continue without the saved history.
      .catch((): ChatLoad => ({ status: 'failed' }))
      .then((next) => {
        if (!cancelled) setLoad(next);
      });
    return () => {
      cancelled = true;
    };
  }, [id, isNew, attempt]);

  if (load.status === 'loading') {
    return (
      <div className="flex flex-1 items-center justify-center text-sm text-muted-foreground" role="status">
        {t.loadingChat}
      </div>
    );
  }
  if (load.status === 'failed') {
    return (
      <div role="alert" className="flex flex-1 flex-col items-center justify-center gap-2 text-sm">
        <span className="text-destructive">{t.loadFailed}</span>
        <Button size="sm" variant="outline" onClick={() => setAttempt((value) => value + 1)}>
          {t.retry}
        </Button>
      </div>
    );
  }
  return <ChatSession id={id} isNew={isNew} initialMessages={load.messages} resume={load.resume} />;
}

function ChatSession({
  id,
  isNew,
  initialMessages,
  resume,
}: {
  id: string;
  isNew: boolean;
  initialMessages: ToolgateMessage[];
  /** A turn of this chat is running on the server: follow it from its start. */
  resume: boolean;
}) {
  const { t, locale, workerRef, refreshData, refreshChats } = useWorkspace();

  // One transport per chat; the worker is read when each request is made, so the picker applies at once.
  const transport = useMemo(
    () =>
      new DefaultChatTransport<ToolgateMessage>({
        api: '/api/chat',
        // The server keeps the history: send only the new message (resumes GET /api/chat/:id/stream).
        prepareSendMessagesRequest: ({ id: chatId, messages }) => ({
          body: { id: chatId, message: messages.at(-1), worker: workerRef.current },
        }),
      }),
    [workerRef],
  );

  const { messages, setMessages, sendMessage, status, stop, error, regenerate, clearError, resumeStream } =
    useChat<ToolgateMessage>({
      id,
      messages: initialMessages,
      resume,
      transport,
      onFinish: () => {
        refreshData();
        refreshChats();
      },
    });

  const busy = status === 'submitted' || status === 'streaming';
  // A new chat is saved when the server takes its first message, before any reply streams.
  const chatExists = !isNew || messages.some((message) => message.role === 'assistant');
  const waiting = waitingApprovals(messages, busy, locale);
  const waitingIds = waiting.map(({ approvalId }) => approvalId);
  const waitingCount = waitingIds.length;
  // "Allow all" never covers a card an outsider's values drove: each of those is decided on its own.
  const allowableIds = waiting.filter(({ tainted }) => !tainted).map(({ approvalId }) => approvalId);
  const ownWaiting = waitingCount;
  const othersWaiting = waitsForOthers(messages);
  // Bumped when a card may have added an "allow for this chat" rule, so the header re-reads them.
  const [rulesVersion, setRulesVersion] = useState(0);
  // Only the reference is shown: the error's own text is not for users (nor in their language).
  const errorReference = findErrorReference(error?.message);
  const viewportRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);

  // Follow the stream while the user is at the bottom; leave them alone once they scroll up to read.
  useEffect(() => {
    const viewport = viewportRef.current;
    if (viewport && stickToBottom.current) viewport.scrollTop = viewport.scrollHeight;
  });

  /**
   * Follows the chat's running turn (`GET /api/chat/:id/stream`), then shows the saved chat:
   * when the turn ended before the stream could be joined (204), that is where its end is.
   */
  async function follow() {
    await resumeStream();
    const saved = await loadChat(id).catch(() => undefined);
    if (saved?.status === 'ready' && !saved.resume) setMessages(saved.messages);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: resume once, when the saved chat has loaded.
  useEffect(() => {
    if (resume) void follow();
  }, []);

  // While a card waits for someone else, the server says when its approvals change
  // (`GET /api/approvals/events?chatId=`): the page then shows the saved chat and follows
  // the reply the last decision started, without a reload.
  const othersDecide = !busy && waitsForOthers(messages);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow is re-created each render; the stream is not.
  useEffect(() => {
    if (!othersDecide) return;
    const source = new EventSource(`/api/approvals/events?chatId=${encodeURIComponent(id)}`);
    let following = false;
    let again = false;
    // One follow at a time; a change that arrives meanwhile gets one more.
    const onChange = () => {
      if (following) {
        again = true;
        return;
      }
      following = true;
      void follow().finally(() => {
        following = false;
        if (again) {
          again = false;
          onChange();
        }
      });
    };
    // Read again whenever the stream (re)opens: a decision made while it was closed (the
    // server ends it every few minutes) sent its event to nobody.
    source.onopen = onChange;
    source.onmessage = onChange;
    return () => source.close();
  }, [othersDecide, id]);

  /** Stop ends the turn on the server (a closed connection would not), then shows the saved end. */
  async function stopTurn() {
    await fetch(`/api/chat/${encodeURIComponent(id)}/stop`, { method: 'POST' }).catch(() => undefined);
    await stop();
    const saved = await loadChat(id).catch(() => undefined);
    if (saved?.status === 'ready') setMessages(saved.messages);
    refreshChats();
  }

  /**
   * Allow all (the cards that name no untrusted source) / Deny all (every waiting card): one
   * decision per card, each on its own (a lost race is a 404).
   */
  async function decideAll(approved: boolean) {
    await Promise.all(
      (approved ? allowableIds : waitingIds).map((approvalId) =>
        sendDecision({ approvalId, chatId: id, approved }).catch(() => undefined),
      ),
    );
    refreshData();
    if (!busy) void follow();
  }

  async function send(text: string) {
    if (isNew && messages.length === 0) {
      // The chat gets its address as soon as it has content, without a navigation that would remount it.
      window.history.replaceState(null, '', `/chat/${encodeURIComponent(id)}`);
    }
    stickToBottom.current = true;
    if (busy) {
      // Stop reading the running turn here (the server keeps it: leaving is not a decision); the
      // new message answers its waiting card on the server ("never mind" denies it, anything else
      // supersedes it) and a request waiting for someone else goes on waiting.
      await stop();
      await sendMessage({ text });
      // The interrupted turn wrote its card's end on the server: show the saved chat.
      const saved = await loadChat(id).catch(() => undefined);
      if (saved?.status === 'ready' && !saved.resume) setMessages(saved.messages);
      return;
    }
    void sendMessage({ text });
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <UntrustedReadsBar chatId={id} chatExists={chatExists} version={busy ? -1 : messages.length} />
      <ApprovalRulesBar chatId={id} chatExists={chatExists} version={rulesVersion} />
      <StandingGrantsBar chatId={id} version={rulesVersion} />
      <ApprovalAttention waiting={waiting} />
      <ScrollArea
        ref={viewportRef}
        className="flex-1"
        onScroll={(event) => {
          const viewport = event.currentTarget;
          stickToBottom.current = viewport.scrollHeight - viewport.scrollTop - viewport.clientHeight < 48;
        }}
      >
        <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-6">
          {messages.length === 0 ? (
            <EmptyState onPick={send} />
          ) : (
            <MessageList
              chatId={id}
              messages={messages}
              status={status}
              onDecided={({ parked, remembered }) => {
                refreshData();
                // Back to where the person writes, once nothing else waits for them.
                if (waitingCount <= 1) document.querySelector<HTMLElement>('[data-composer]')?.focus();
                if (remembered) setRulesVersion((value) => value + 1);
                // Nobody streams a saved card's turn here: its continuation comes on the resume route.
                if (parked) void follow();
              }}
            />
          )}
          {status === 'submitted' && (
            <p role="status" className="text-xs text-muted-foreground">
              …
            </p>
          )}
          {error && (
            <div
              role="alert"
              className="flex items-center gap-2 rounded-md border border-destructive/40 p-2 text-sm"
            >
              <span className="text-destructive">{t.chatError}</span>
              {errorReference !== undefined && (
                <span className="truncate font-mono text-xs text-muted-foreground">
                  {t.errorReference(errorReference)}
                </span>
              )}
              <Button
                size="sm"
                variant="outline"
                className="ml-auto"
                onClick={() => {
                  clearError();
                  void regenerate();
                }}
              >
                {t.retry}
              </Button>
            </div>
          )}
        </div>
      </ScrollArea>
      <div className="border-t border-border bg-background px-4 py-3">
        <div className="mx-auto w-full max-w-3xl">
          {waitingCount >= 2 && (
            <div className="mb-2 flex justify-end gap-2" data-testid="decide-all">
              <Button size="sm" variant="outline" onClick={() => void decideAll(false)}>
                {t.denyAll(waitingCount)}
              </Button>
              {allowableIds.length >= 2 && (
                <Button size="sm" onClick={() => void decideAll(true)}>
                  {t.allowAll(allowableIds.length)}
                </Button>
              )}
            </div>
          )}
          <Composer
            busy={busy}
            onSend={(text) => void send(text)}
            onStop={() => void stopTurn()}
            hint={
              ownWaiting > 0
                ? t.composerWhileCardWaits
                : othersWaiting
                  ? t.composerWhileOthersDecide
                  : undefined
            }
          />
        </div>
      </div>
    </div>
  );
}

/**
 * The cards that still wait for a decision (streaming here, or saved with time left), each
 * with the tool's one-line summary of the call in the reader's language (the tool name without one).
 */
function waitingApprovals(
  messages: ToolgateMessage[],
  streaming: boolean,
  locale: Locale,
): WaitingApproval[] {
  const waiting: WaitingApproval[] = [];
  for (const message of messages) {
    for (const part of message.parts) {
      const approval = (part as { state?: string; approval?: { id: string; descriptor?: unknown } }).approval;
      if ((part as { state?: string }).state !== 'approval-requested' || approval === undefined) continue;
      const descriptor = approval.descriptor as Record<string, unknown> | undefined;
      // A card only others decide asks nothing of this reader: no "(1)", no focus, no "Allow all".
      if (onlyOthersDecide(descriptor)) continue;
      const deadline = localDeadlineOf(approval.id, descriptor);
      if (!streaming && (deadline === null || deadline <= Date.now())) continue;
      const summary = (descriptor?.summary as Record<string, unknown> | undefined)?.[locale];
      waiting.push({
        approvalId: approval.id,
        summary: typeof summary === 'string' && summary !== '' ? summary : getToolName(part as ToolPart),
        tainted: isTaintedCard(part as ToolPart),
      });
    }
  }
  return waiting;
}

function EmptyState({ onPick }: { onPick: (text: string) => void }) {
  const { t } = useWorkspace();
  return (
    <div className="flex flex-col items-center gap-4 py-16 text-center">
      <Sparkles className="size-8 text-muted-foreground" aria-hidden="true" />
      <h2 className="text-xl font-semibold">{t.emptyTitle}</h2>
      <p className="text-sm text-muted-foreground">{t.emptyHint}</p>
      <ul className="flex flex-wrap justify-center gap-2">
        {t.examples.map((example) => (
          <li key={example}>
            <Button variant="outline" size="sm" onClick={() => onPick(example)}>
              {example}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
