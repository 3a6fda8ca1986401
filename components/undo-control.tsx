'use client';

import { Undo2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { roleLabel } from './approval-steps';
import type { ToolPart } from './tool-part-outcome';
import { Badge } from './ui/badge';
import { Button } from './ui/button';
import { useCountdown } from './use-countdown';
import { useWorkspace } from './workspace-provider';

/** What `GET /api/chat/undo` answers about one call. */
type UndoState = { undoable: boolean; undone: boolean; remainingMs: number; undoBy?: { roles: string[] } };

type View =
  | { kind: 'unknown' }
  | { kind: 'open'; deadline: number }
  | { kind: 'sending'; deadline: number }
  | { kind: 'undone' }
  | { kind: 'closed' }
  | { kind: 'others'; roles: string[] }
  | { kind: 'failed' };

/** Whether a saved output says its call was undone (`undone: true`, set by the server). */
export function isUndoneOutput(output: unknown): boolean {
  return output !== null && typeof output === 'object' && (output as { undone?: unknown }).undone === true;
}

/**
 * The Undo button of a write that ran, with a countdown while its undo window is open, and
 * "Undone" once it was taken back. The window comes from the server as remaining ms and is
 * counted from when the page received it (client clocks are wrong). Renders nothing for a
 * call that cannot be undone (a read, someone else's, a tool without an undo).
 */
export function UndoControl({ part, chatId }: { part: ToolPart; chatId: string }) {
  const { t, refreshData } = useWorkspace();
  const savedUndone = part.state === 'output-available' && isUndoneOutput(part.output);
  const candidate = part.state === 'output-available' && !savedUndone;
  const [view, setView] = useState<View>({ kind: 'unknown' });
  const query = `chatId=${encodeURIComponent(chatId)}&toolCallId=${encodeURIComponent(part.toolCallId)}`;

  useEffect(() => {
    if (!candidate) return;
    let cancelled = false;
    fetch(`/api/chat/undo?${query}`, { cache: 'no-store' })
      .then(async (response) => (response.ok ? ((await response.json()) as UndoState) : undefined))
      .then((state) => {
        if (cancelled || state === undefined) return;
        if (state.undone) setView({ kind: 'undone' });
        else if (state.undoable) setView({ kind: 'open', deadline: Date.now() + state.remainingMs });
        else if (state.undoBy !== undefined && state.remainingMs > 0)
          setView({ kind: 'others', roles: state.undoBy.roles });
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [candidate, query]);

  const deadline = view.kind === 'open' || view.kind === 'sending' ? view.deadline : null;
  const secondsLeft = useCountdown(deadline, deadline !== null);
  useEffect(() => {
    if (view.kind === 'open' && secondsLeft === 0) setView({ kind: 'closed' });
  }, [view.kind, secondsLeft]);

  async function undo() {
    if (view.kind !== 'open') return;
    setView({ kind: 'sending', deadline: view.deadline });
    const response = await fetch('/api/chat/undo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chatId, toolCallId: part.toolCallId }),
    }).catch(() => undefined);
    setView(response?.ok ? { kind: 'undone' } : { kind: 'failed' });
    if (response?.ok) refreshData();
  }

  if (savedUndone || view.kind === 'undone') {
    return (
      <div className="flex items-center gap-2" data-testid="undone">
        <Badge variant="outline">
          <Undo2 aria-hidden="true" />
          {t.undone}
        </Badge>
        <span className="text-xs text-muted-foreground">{t.undoneExplain}</span>
      </div>
    );
  }
  if (view.kind === 'failed') {
    return (
      <p role="alert" className="text-xs text-destructive">
        {t.undoFailed}
      </p>
    );
  }
  if (view.kind === 'others') {
    // A role approved it: undoing is theirs, and the requester's card says so.
    const who = view.roles.map((role) => roleLabel(t, role)).join(' / ');
    return (
      <p className="text-xs text-muted-foreground" data-testid="undo-belongs-to">
        {t.undoBelongsTo(who)}
      </p>
    );
  }
  if ((view.kind !== 'open' && view.kind !== 'sending') || secondsLeft === null) return null;
  return (
    <div className="flex justify-end">
      <Button
        variant="outline"
        size="sm"
        aria-label={t.undoLabel(secondsLeft)}
        disabled={view.kind === 'sending'}
        onClick={() => void undo()}
      >
        <Undo2 aria-hidden="true" />
        {/* Not a `timer` role: that is the approval countdown's, which ends with the decision. */}
        <span className="tabular-nums">{t.undoIn(secondsLeft)}</span>
      </Button>
    </div>
  );
}
