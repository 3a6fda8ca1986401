import { useState } from 'react';
import { denialNoteOf, isEditedOutput } from '@/lib/shells/wrap-tools-with-approval';
import type { ApproveToolCall } from './api-types';
import { extendLocalDeadline } from './approval-deadlines';
import {
  asDenial,
  deadlineOf,
  denialOfDeniedPart,
  type LocalDecision,
  resolveOutcome,
  type ToolPart,
} from './tool-part-outcome';
import { useCountdown } from './use-countdown';

/** What the person says beside a plain allow / deny. */
export type DecisionExtras = { input?: Record<string, unknown>; remember?: 'chat'; reason?: string };

/** Which part of the card the person is filling in: the buttons, the edit form, or a note with a "no". */
export type CardMode = 'buttons' | 'edit' | 'denyNote';

/** How many times one card may ask for more time (the server enforces it too). */
export const maxExtensions = 3;

/** The extensions a saved card already used, as the server sent them. */
function extensionsOf(part: ToolPart): number {
  const descriptor = part.approval?.descriptor as { extensions?: unknown } | undefined;
  return typeof descriptor?.extensions === 'number' ? descriptor.extensions : 0;
}

/** Options of {@link useApprovalCard}. */
export type UseApprovalCardOptions = {
  part: ToolPart;
  /** True while this part's response is still streaming here. */
  live: boolean;
  chatId: string;
  /** The server action that records a decision. */
  approve: ApproveToolCall;
  /** Told once a decision has been sent; `parked`: nobody on this page streams the turn. */
  onDecided: (event: { parked: boolean; remembered?: boolean }) => void;
};

/**
 * The approval card's state and its two calls to the server: deciding (the server
 * action) and asking for more time (`POST /api/chat/approve/extend`), with the
 * countdown measured from the remaining time the server sent.
 */
export function useApprovalCard({ part, live, chatId, approve, onDecided }: UseApprovalCardOptions) {
  const [decision, setDecision] = useState<LocalDecision>({ kind: 'none' });
  const [mode, setMode] = useState<CardMode>('buttons');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [note, setNote] = useState('');
  const [extensionsUsed, setExtensionsUsed] = useState(() => extensionsOf(part));
  const [extendedDeadline, setExtendedDeadline] = useState<number | null>(null);
  // The server keeps an approval until its deadline, Stop, a new message or a decision, whether
  // or not this page still streams the turn: a saved card stays answerable after a reload.
  const deadline = extendedDeadline ?? deadlineOf(part);
  const waiting =
    part.state === 'approval-requested' && (live || (deadline !== null && deadline > Date.now()));
  const secondsLeft = useCountdown(deadline, waiting && decision.kind !== 'decided');

  const denial = part.state === 'output-available' ? asDenial(part.output) : denialOfDeniedPart(part);
  const deniedNote = denial?.message === undefined ? undefined : denialNoteOf(denial.message);
  const edited = part.state === 'output-available' && isEditedOutput(part.output);
  const outcome = resolveOutcome(part, live, denial, decision, secondsLeft, deadline);
  const showButtons =
    waiting &&
    outcome === null &&
    (decision.kind === 'none' ||
      decision.kind === 'sending' ||
      (decision.kind === 'failed' && decision.retryable));

  async function decide(approved: boolean, extras: DecisionExtras = {}) {
    if (!part.approval) return;
    setDecision({ kind: 'sending', approved });
    let settled = true;
    try {
      const result = await approve({ approvalId: part.approval.id, chatId, approved, ...extras });
      if ('error' in result && result.fieldErrors !== undefined) {
        // The edit broke the tool's rules: the call is still pending, so the form stays open.
        setFieldErrors(result.fieldErrors);
        setDecision({ kind: 'none' });
        settled = false;
      } else if ('error' in result) {
        // Unknown, mismatched or already settled: deciding again cannot help, so the buttons go.
        setDecision({ kind: 'failed', retryable: false });
      } else {
        setDecision({ kind: 'decided', outcome: result.status === 'approved' ? 'approved' : 'denied' });
      }
    } catch {
      // The action never ran (network, server restart): the approval may still be open, so let the user retry.
      setDecision({ kind: 'failed', retryable: true });
    } finally {
      if (settled) onDecided({ parked: !live, remembered: extras.remember === 'chat' });
    }
  }

  /** "+60 s": the server moves the deadline; the countdown follows the time it says is left. */
  async function extendDeadline() {
    if (!part.approval) return;
    const approvalId = part.approval.id;
    const response = await fetch('/api/chat/approve/extend', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ approvalId, chatId }),
    }).catch(() => undefined);
    if (response?.status === 409) setExtensionsUsed(maxExtensions);
    if (!response?.ok) return;
    const { remainingMs } = (await response.json()) as { remainingMs: number };
    setExtendedDeadline(extendLocalDeadline(approvalId, remainingMs));
    setExtensionsUsed((used) => used + 1);
  }

  /** Back to the buttons from the edit form, forgetting the form's errors. */
  function cancelEdit() {
    setMode('buttons');
    setFieldErrors({});
  }

  return {
    decision,
    mode,
    setMode,
    cancelEdit,
    fieldErrors,
    note,
    setNote,
    extensionsUsed,
    waiting,
    secondsLeft,
    denial,
    deniedNote,
    edited,
    outcome,
    showButtons,
    decide,
    extendDeadline,
  };
}
