'use client';

import Link from 'next/link';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApprovalView } from './api-types';
import { ApprovalAttention } from './approval-attention';
import { ApprovalCardPage } from './approval-page';
import { InboxCompactList } from './inbox-compact-list';
import { filterInbox, type InboxFilters, noFilters } from './inbox-filters';
import { inboxCountText } from './inbox-link';
import { inboxTextOf, whyItLeft } from './inbox-text';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { cn } from './ui/cn';
import { reloadApprovalInbox, useApprovalInbox } from './use-approval-inbox';
import { useWorkspace } from './workspace-provider';

/** Whether a key press belongs to a field the person is typing in, not to the inbox. */
function isTypingIn(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}

/** The button of `item` whose text is `label`, if the card shows it now. */
function buttonOf(item: Element | null | undefined, label: string): HTMLButtonElement | undefined {
  return [...(item?.querySelectorAll('button') ?? [])].find(
    (button) => button.textContent?.trim() === label && !button.disabled,
  );
}

/**
 * The approvers' inbox: what waits for this person's decision, oldest first and live (new
 * items appear, decided or expired ones leave), each with the chat card's controls, and
 * a tab of what they decided. Keyboard first: j / k move, a allows, d opens the note of a
 * denial, q opens a question to the requester (Enter sends either); keys typed into a field stay there. `isApprover`: the person holds a role (else
 * the waiting list is empty without asking the server).
 */
export function ApprovalInbox({ isApprover }: { isApprover: boolean }) {
  const { t } = useWorkspace();
  const [tab, setTab] = useState<'waiting' | 'decided'>('waiting');
  const inbox = useApprovalInbox(isApprover);
  // Without a role nothing can wait for this person, and the server keeps no inbox stream for them.
  const { items, hasMore } = isApprover ? inbox : { items: [], hasMore: false };
  const count = items?.length ?? 0;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-lg font-semibold">{t.inbox}</h1>
        {count > 0 && (
          <Badge data-testid="inbox-header-count" aria-hidden="true">
            {inboxCountText(count, hasMore)}
          </Badge>
        )}
      </div>
      <div role="tablist" aria-label={t.inbox} className="flex gap-1 border-b border-border">
        {(['waiting', 'decided'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`inbox-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={`inbox-panel-${name}`}
            onClick={() => setTab(name)}
            className={cn(
              '-mb-px border-b-2 px-3 py-1.5 text-sm',
              tab === name ? 'border-primary font-medium' : 'border-transparent text-muted-foreground',
            )}
          >
            {name === 'waiting' ? t.inboxWaiting : t.inboxDecided}
            {name === 'waiting' && count > 0 && <span className="sr-only"> ({t.inboxCount(count)})</span>}
          </button>
        ))}
      </div>
      {tab === 'waiting' ? (
        <section id="inbox-panel-waiting" role="tabpanel" aria-labelledby="inbox-tab-waiting">
          <WaitingList items={items} />
        </section>
      ) : (
        <section id="inbox-panel-decided" role="tabpanel" aria-labelledby="inbox-tab-decided">
          <DecidedList />
        </section>
      )}
    </div>
  );
}

function summaryOf(item: ApprovalView, locale: string): string {
  return item.summary?.[locale] ?? item.summary?.en ?? item.tool;
}

/** A note on an item that left the list: how it ended, or why it is no longer this person's. */
type LeftNote = {
  approvalId: string;
  summary: string;
  text: string;
  tone: 'success' | 'destructive' | 'muted';
};

/** How many notes on items that left the list stay on screen. */
const maxLeftNotes = 20;

/**
 * Notes on the items that leave the list (decided here or elsewhere, escalated, withdrawn,
 * expired): each is read once more (`GET /api/approvals/:id`) and says what happened to it,
 * instead of vanishing without a word.
 */
function useLeftNotes(shown: readonly ApprovalView[] | undefined) {
  const { t, locale } = useWorkspace();
  const [notes, setNotes] = useState<LeftNote[]>([]);
  const previous = useRef<Map<string, string> | undefined>(undefined);
  const ids = shown?.map((item) => item.approvalId).join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the ids stand for the list they come from.
  useEffect(() => {
    if (shown === undefined) return;
    const now = new Map(shown.map((item) => [item.approvalId, summaryOf(item, locale)]));
    const before = previous.current;
    previous.current = now;
    if (before === undefined) return;
    const text = inboxTextOf(locale);
    const roleName = (role: string) => (Object.hasOwn(t.roleNames, role) ? t.roleNames[role] : role) ?? role;
    for (const [approvalId, summary] of before) {
      if (now.has(approvalId)) continue;
      void fetch(`/api/approvals/${encodeURIComponent(approvalId)}`, { cache: 'no-store' })
        .then(async (response) => (response.ok ? ((await response.json()) as ApprovalView) : undefined))
        .catch(() => undefined)
        .then((view) => {
          const why = whyItLeft(view, text, roleName);
          setNotes((earlier) =>
            [
              // The input that ran (an approver may have edited it), not the one listed before.
              { approvalId, summary: view === undefined ? summary : summaryOf(view, locale), ...why },
              ...earlier.filter((note) => note.approvalId !== approvalId),
            ].slice(0, maxLeftNotes),
          );
        });
    }
  }, [ids, locale]);
  const dismiss = useCallback(
    (approvalId: string) => setNotes((earlier) => earlier.filter((note) => note.approvalId !== approvalId)),
    [],
  );
  return { notes, dismiss };
}

function LeftNotes({ notes, dismiss }: { notes: LeftNote[]; dismiss: (approvalId: string) => void }) {
  const { locale } = useWorkspace();
  const text = inboxTextOf(locale);
  if (notes.length === 0) return null;
  return (
    <section aria-label={text.settledHeading} className="flex flex-col gap-1">
      <h2 className="text-xs font-medium text-muted-foreground">{text.settledHeading}</h2>
      <ul role="status" className="flex flex-col gap-1" data-testid="inbox-settled">
        {notes.map((note) => (
          <li
            key={note.approvalId}
            data-settled-item={note.approvalId}
            className="flex flex-wrap items-center gap-2 rounded-md border border-border px-2 py-1 text-sm"
          >
            <Badge
              variant={note.tone === 'muted' ? 'outline' : note.tone}
              className="whitespace-normal"
              data-testid="inbox-settled-outcome"
            >
              {note.text}
            </Badge>
            <Link
              className="min-w-0 flex-1 truncate underline"
              href={`/approvals/${encodeURIComponent(note.approvalId)}`}
            >
              {note.summary}
            </Link>
            <Button variant="ghost" size="sm" onClick={() => dismiss(note.approvalId)}>
              {text.dismiss}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Whether `target` is the reason of a denial in an inbox item (Enter sends it there). */
function denialReasonField(target: EventTarget | null): HTMLTextAreaElement | undefined {
  if (!(target instanceof HTMLTextAreaElement)) return undefined;
  return target.closest('[data-inbox-item]') !== null && target.form !== null ? target : undefined;
}

function WaitingList({ items }: { items: ApprovalView[] | undefined }) {
  const { t, locale } = useWorkspace();
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);
  const listRef = useRef<HTMLUListElement>(null);
  // Until the person moves with j / k or points at an item, a focus the page moved (to the
  // first waiting card) is not a choice: the first j goes to the oldest item.
  const chosen = useRef(false);
  const [filters, setFilters] = useState<InboxFilters>(noFilters);
  const now = Date.now();
  const waiting = (items ?? []).filter((item) => item.expiresAt > now);
  const left = useLeftNotes(items === undefined ? undefined : waiting);
  // Keys and cards follow what the filters let through.
  const shown = filterInbox(waiting, filters, now);
  // Nothing is selected until j / k (or focus) picks an item: a stray "a" decides nothing.
  const selectedIndex = shown.findIndex((item) => item.approvalId === selectedId);
  const selected = shown[selectedIndex];

  const itemElement = useCallback(
    (approvalId: string | undefined) =>
      approvalId === undefined
        ? null
        : listRef.current?.querySelector(`[data-inbox-item="${CSS.escape(approvalId)}"]`),
    [],
  );

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      // In the reason of a denial, Enter sends it (Shift+Enter starts a new line).
      const reason = denialReasonField(event.target);
      if (reason !== undefined && event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        reason.form?.requestSubmit();
        return;
      }
      if (isTypingIn(event.target)) return;
      const move = event.key === 'j' ? 1 : event.key === 'k' ? -1 : 0;
      if (move !== 0 && shown.length > 0) {
        event.preventDefault();
        const fresh = !chosen.current;
        chosen.current = true;
        const next =
          selectedIndex === -1 || fresh
            ? shown[0]
            : shown[Math.min(shown.length - 1, Math.max(0, selectedIndex + move))];
        setSelectedId(next?.approvalId);
        const element = itemElement(next?.approvalId);
        if (element instanceof HTMLElement) element.focus();
        return;
      }
      if (event.key === 'q') {
        // Ask the requester: open the selected item's question field and put the cursor in it.
        const element = itemElement(selected?.approvalId);
        const ask = element?.querySelector<HTMLButtonElement>('[data-testid="ask-requester"]:not(:disabled)');
        if (ask == null) return;
        event.preventDefault();
        ask.click();
        requestAnimationFrame(() =>
          element?.querySelector<HTMLTextAreaElement>('[data-testid="ask-question-field"]')?.focus(),
        );
        return;
      }
      if (event.key !== 'a' && event.key !== 'd') return;
      const element = itemElement(selected?.approvalId);
      const button = buttonOf(element, event.key === 'a' ? t.allow : t.denyWithNote);
      if (button === undefined) return;
      event.preventDefault();
      button.click();
      if (event.key === 'd') {
        // The note's field appears on the next render: focus it, so the person types their reason.
        requestAnimationFrame(() => {
          const field = element?.querySelector('textarea');
          field?.setAttribute('aria-description', inboxTextOf(locale).enterSends);
          field?.focus();
        });
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [shown, selectedIndex, selected, itemElement, t, locale]);

  if (items === undefined) return <p className="text-sm text-muted-foreground">…</p>;
  return (
    <div className="flex flex-col gap-3">
      <ApprovalAttention
        waiting={waiting.map((item) => ({ approvalId: item.approvalId, summary: summaryOf(item, locale) }))}
      />
      <LeftNotes notes={left.notes} dismiss={left.dismiss} />
      {waiting.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="inbox-empty">
          {t.inboxEmpty}
        </p>
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]">
          <div className="flex min-w-0 flex-col gap-2 lg:sticky lg:top-0 lg:self-start">
            <p className="text-xs text-muted-foreground" data-testid="inbox-keys">
              {t.inboxKeys}
            </p>
            <InboxCompactList
              items={shown}
              all={waiting}
              filters={filters}
              onFilters={setFilters}
              selectedId={selected?.approvalId}
              now={now}
              onSelect={(approvalId) => {
                chosen.current = true;
                setSelectedId(approvalId);
                const element = itemElement(approvalId);
                if (element instanceof HTMLElement) {
                  element.focus({ preventScroll: true });
                  element.scrollIntoView({ block: 'nearest' });
                }
              }}
            />
          </div>
          <ul
            ref={listRef}
            className="flex flex-col gap-4"
            aria-label={t.inboxWaiting}
            onPointerDown={() => {
              chosen.current = true;
            }}
          >
            {shown.map((item) => {
              const isSelected = item.approvalId === selected?.approvalId;
              return (
                <li
                  key={item.approvalId}
                  data-inbox-item={item.approvalId}
                  data-selected={isSelected ? 'true' : undefined}
                  tabIndex={-1}
                  onFocus={() => setSelectedId(item.approvalId)}
                  className={cn(
                    'flex flex-col gap-1 rounded-lg p-2 outline-none',
                    isSelected && 'ring-2 ring-primary/60',
                  )}
                >
                  <ApprovalCardPage view={item} onDecided={reloadApprovalInbox} />
                  <Link
                    className="self-start text-xs underline"
                    href={`/approvals/${encodeURIComponent(item.approvalId)}`}
                  >
                    {t.inboxOpen}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}

function DecidedList() {
  const { t, locale } = useWorkspace();
  const [items, setItems] = useState<ApprovalView[] | undefined>(undefined);
  const [cursor, setCursor] = useState<string | null>(null);

  const load = useCallback(async (after: string | null) => {
    const query = after === null ? '?limit=20' : `?limit=20&cursor=${encodeURIComponent(after)}`;
    const response = await fetch(`/api/approvals/decided${query}`, { cache: 'no-store' }).catch(
      () => undefined,
    );
    if (!response?.ok) return;
    const body = (await response.json()) as { approvals: ApprovalView[]; nextCursor: string | null };
    setItems((earlier) => (after === null ? body.approvals : [...(earlier ?? []), ...body.approvals]));
    setCursor(body.nextCursor);
  }, []);

  useEffect(() => {
    void load(null);
  }, [load]);

  if (items === undefined) return <p className="text-sm text-muted-foreground">…</p>;
  if (items.length === 0)
    return (
      <p className="text-sm text-muted-foreground" data-testid="inbox-decided-empty">
        {t.inboxDecidedEmpty}
      </p>
    );
  return (
    <div className="flex flex-col gap-2">
      <ul className="flex flex-col divide-y divide-border" aria-label={t.inboxDecided}>
        {items.map((item) => (
          <li key={item.approvalId} className="flex flex-wrap items-center gap-2 py-2 text-sm">
            <Badge variant={item.myDecision === 'allow' ? 'success' : 'destructive'}>
              {item.myDecision === 'allow' ? t.inboxYouAllowed : t.inboxYouDenied}
            </Badge>
            <DecidedOutcome item={item} />
            <Link
              className="min-w-0 flex-1 truncate underline"
              href={`/approvals/${encodeURIComponent(item.approvalId)}`}
            >
              {summaryOf(item, locale)}
            </Link>
            <span className="text-xs text-muted-foreground">{t.requestedBy(item.requester.name)}</span>
            {item.decidedAt !== undefined && (
              <time className="text-xs text-muted-foreground" dateTime={item.decidedAt}>
                {new Date(item.decidedAt).toLocaleString(locale === 'zh' ? 'zh-CN' : 'en')}
              </time>
            )}
          </li>
        ))}
      </ul>
      {cursor !== null && (
        <Button variant="outline" size="sm" className="self-start" onClick={() => void load(cursor)}>
          {t.inboxMore}
        </Button>
      )}
    </div>
  );
}

/** What became of a call this person decided: ran (with its result), refused, expired, still waiting… */
function DecidedOutcome({ item }: { item: ApprovalView }) {
  const { t, locale } = useWorkspace();
  const roleName = (role: string) => (Object.hasOwn(t.roleNames, role) ? t.roleNames[role] : role) ?? role;
  // The badge beside it already says what this person clicked.
  const why = whyItLeft(item, inboxTextOf(locale), roleName, { decisionShown: true });
  return (
    <Badge
      variant={why.tone === 'muted' ? 'outline' : why.tone}
      className="whitespace-normal"
      data-testid="inbox-decided-outcome"
    >
      {why.text}
    </Badge>
  );
}
