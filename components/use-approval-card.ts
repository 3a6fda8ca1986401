import { denialNoteOf, isEditedOutput } from '@toolgate/engine/client';
import { useEffect, useState } from 'react';
import { otherMakerInMessage, otherMakerOf } from '@/lib/ai/offline-decided-by';
import { approvalTiming } from '@/lib/approvals/life-cycle/approval-timing';
import type { ApprovalDecision, ApprovalStepView, ApprovalView, GrantRequest } from './api-types';
import { extendLocalDeadline } from './approval-deadlines';
import { sendDecision, sendExtension } from './send-decision';
import {
  asDenial,
  deadlineOf,
  denialOfDeniedPart,
  type LocalDecision,
  type Outcome,
  resolveOutcome,
  type ToolPart,
} from './tool-part-outcome';
import { useApprovalView } from './use-approval-view';
import { useCountdown } from './use-countdown';

/** Why the server refused a decision as sent (a 400): its English reason, and a code to translate it by. */
export type DecisionRefusal = Pick<Extract<ApprovalDecision, { error: string }>, 'error' | 'code' | 'params'>;

/** What the person says beside a plain allow / deny. */
export type DecisionExtras = {
  input?: Record<string, unknown>;
  remember?: 'chat' | GrantRequest;
  reason?: string;
};

/** Which part of the card the person is filling in: the buttons, the edit form, a note with a "no", or a standing grant. */
export type CardMode = 'buttons' | 'edit' | 'denyNote' | 'grant';

/** How many times one card may ask for more time: the server's own limit, read from where it is kept. */
export const maxExtensions = approvalTiming.maxExtensions;

/** The extensions a saved card already used, as the server sent them. */
function extensionsOf(part: ToolPart): number {
  const descriptor = part.approval?.descriptor as { extensions?: unknown } | undefined;
  return typeof descriptor?.extensions === 'number' ? descriptor.extensions : 0;
}

/** The digest of the input the saved card shows, as the server sent it with the request. */
function descriptorDigestOf(part: ToolPart): string | undefined {
  const descriptor = part.approval?.descriptor as { inputDigest?: unknown } | undefined;
  return typeof descriptor?.inputDigest === 'string' ? descriptor.inputDigest : undefined;
}

/** The steps a card's approval asks for, when someone other than the requester must allow it. */
function stepsOf(part: ToolPart): ApprovalStepView[] | undefined {
  const descriptor = part.approval?.descriptor as { steps?: unknown } | undefined;
  return Array.isArray(descriptor?.steps) ? (descriptor.steps as ApprovalStepView[]) : undefined;
}

/** How a settled approval reads on the card. */
function outcomeOfStatus(status: string): Outcome {
  if (status === 'denied') return 'denied';
  if (status === 'expired') return 'expired';
  if (status === 'approved' || status === 'executing' || status === 'executed' || status === 'failed')
    return 'approved';
  return 'cancelled';
}

/** Options of {@link useApprovalCard}. */
export type UseApprovalCardOptions = {
  part: ToolPart;
  /** True while this part's response is still streaming here. */
  live: boolean;
  chatId: string;
  /** Told once a decision has been sent; `parked`: nobody on this page streams the turn. */
  onDecided: (event: { parked: boolean; remembered?: boolean }) => void;
  /** The server's view when the page already has it (the approval's own page). */
  initialView?: ApprovalView;
};

/**
 * The approval card's state and its two calls to the server: deciding (`POST /api/chat/approve`)
 * and asking for more time (`POST /api/chat/approve/extend`), with the countdown measured from
 * the remaining time the server sent.
 */
export function useApprovalCard({ part, live, chatId, onDecided, initialView }: UseApprovalCardOptions) {
  const [decision, setDecision] = useState<LocalDecision>({ kind: 'none' });
  const [mode, setModeState] = useState<CardMode>('buttons');
  // The digest of the input the edit form started from: an edit is refused if that input changed meanwhile.
  const [editDigest, setEditDigest] = useState<string | undefined>(undefined);
  const [stale, setStale] = useState(false);
  // The server said a newer policy changed this call: its steps (409) or its end (a denial).
  const [policyChangedAnswer, setPolicyChangedAnswer] = useState<'steps' | 'denied' | undefined>(undefined);
  const [reload, setReload] = useState(0);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  // The server's reason for refusing the last decision (a 400): shown beside the controls, which stay.
  const [refusal, setRefusal] = useState<DecisionRefusal | undefined>(undefined);
  const [note, setNote] = useState('');
  const [extensionsUsed, setExtensionsUsed] = useState(() => extensionsOf(part));
  const [extendedDeadline, setExtendedDeadline] = useState<number | null>(null);
  // The server keeps an approval until its deadline, Stop, a new message or a decision, whether
  // or not this page still streams the turn: a saved card stays answerable after a reload.
  const deadline = extendedDeadline ?? deadlineOf(part);
  const waiting =
    part.state === 'approval-requested' && (live || (deadline !== null && deadline > Date.now()));
  const secondsLeft = useCountdown(deadline, waiting && decision.kind !== 'decided');
  // Someone other than the requester must allow it: follow the server's view of its steps.
  const steps = initialView?.steps ?? stepsOf(part);
  const multiParty = steps !== undefined;
  // Read while it waits, and once after it ended (a reload): who decided, an escalation and the
  // edited input stay on the card.
  const view = useApprovalView(
    part.approval?.id,
    (multiParty || policyChangedAnswer === 'steps') && decision.kind !== 'decided',
    initialView,
    reload,
  );
  const settledStatus = view !== undefined && view.status !== 'pending' ? view.status : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the server says it ended elsewhere.
  useEffect(() => {
    if (settledStatus === undefined || decision.kind === 'decided' || part.state !== 'approval-requested')
      return;
    setDecision({ kind: 'decided', outcome: outcomeOfStatus(settledStatus) });
    // The last decision continued the turn on the server: follow its reply.
    onDecided({ parked: true });
  }, [settledStatus]);
  const canAllow = view === undefined ? !multiParty : view.viewer.canAllow;
  // What the card shows and what its decision vouches for: the server's view once read (it follows
  // another approver's edit), else the call as the stream carried it.
  const input = view?.input ?? part.input;
  const inputDigest = view?.inputDigest ?? descriptorDigestOf(part);

  function setMode(next: CardMode) {
    if (next === 'edit') setEditDigest(inputDigest);
    setModeState(next);
  }

  const denial = part.state === 'output-available' ? asDenial(part.output) : denialOfDeniedPart(part);
  /** What the card says of a newer policy: it refused the call, replaced its steps, or left this person none. */
  const policyChanged =
    denial?.reason === 'policy_changed' ||
    view?.reason === 'policy_changed' ||
    policyChangedAnswer === 'denied'
      ? ('denied' as const)
      : policyChangedAnswer === 'steps'
        ? ('not-yours' as const)
        : view?.policyChanged !== undefined
          ? ('steps' as const)
          : undefined;
  const deniedNote = denial?.message === undefined ? undefined : denialNoteOf(denial.message);
  const edited = part.state === 'output-available' && isEditedOutput(part.output);
  // Someone other than the requester decided or edited it: the card names them, never "you".
  const decidedBy =
    part.state === 'output-available'
      ? otherMakerOf(part.output, 'decidedBy')
      : otherMakerInMessage(denial?.message);
  const editedBy = part.state === 'output-available' ? otherMakerOf(part.output, 'editedBy') : undefined;
  const editedInput =
    edited && typeof part.output === 'object' && part.output !== null
      ? (part.output as { editedInput?: unknown }).editedInput
      : undefined;
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
    setStale(false);
    setRefusal(undefined);
    let settled = true;
    const seen = extras.input !== undefined ? editDigest : inputDigest;
    try {
      const result = await sendDecision({
        approvalId: part.approval.id,
        chatId,
        approved,
        ...extras,
        ...(seen !== undefined && { inputDigest: seen }),
      });
      if ('error' in result && result.error === 'policy_changed') {
        // A newer policy replaced the steps and none is this person's now: nothing of theirs was
        // decided. The card reads the call again and says why.
        setPolicyChangedAnswer('steps');
        setReload((count) => count + 1);
        setModeState('buttons');
        setDecision({ kind: 'none' });
        settled = false;
      } else if ('error' in result && result.error === 'stale') {
        // The input changed since this person looked (another approver edited it): nothing was
        // decided. The card shows the new input; they look again and decide again.
        setStale(true);
        setReload((count) => count + 1);
        setModeState('buttons');
        setDecision({ kind: 'none' });
        settled = false;
      } else if ('error' in result && result.fieldErrors !== undefined) {
        // The edit broke the tool's rules: the call is still pending, so the form stays open.
        setFieldErrors(result.fieldErrors);
        setDecision({ kind: 'none' });
        settled = false;
      } else if ('error' in result && result.refused === true) {
        // Refused as sent (the policy does not let this edit through): nothing was decided, the
        // call still waits, so the controls stay and the server's reason is shown.
        setRefusal({ error: result.error, code: result.code, params: result.params });
        setDecision({ kind: 'none' });
        settled = false;
      } else if ('error' in result && result.status !== undefined && result.status !== 'pending') {
        // It ended before this decision counted: the card shows how.
        setDecision({ kind: 'decided', outcome: outcomeOfStatus(result.status) });
      } else if ('error' in result) {
        // Unknown, mismatched or already settled: deciding again cannot help, so the buttons go.
        setDecision({ kind: 'failed', retryable: false });
      } else if (result.status === 'waiting') {
        // This step is filled; others must still allow. The view follows them.
        setDecision({ kind: 'none' });
        settled = false;
      } else {
        if (result.reason === 'policy_changed' && result.status === 'denied')
          setPolicyChangedAnswer('denied');
        setDecision({ kind: 'decided', outcome: result.status === 'approved' ? 'approved' : 'denied' });
      }
    } catch {
      // Nothing is known to be decided (network, server restart): the approval may still be open, so let the user retry.
      setDecision({ kind: 'failed', retryable: true });
    } finally {
      if (settled) onDecided({ parked: !live, remembered: extras.remember !== undefined });
    }
  }

  /** "+60 s": the server moves the deadline; the countdown follows the time it says is left. */
  async function extendDeadline() {
    if (!part.approval) return;
    const approvalId = part.approval.id;
    const extended = await sendExtension({ approvalId, chatId });
    if (extended === 'exhausted') setExtensionsUsed(maxExtensions);
    if (extended === undefined || extended === 'exhausted') return;
    const { remainingMs } = extended;
    setExtendedDeadline(extendLocalDeadline(approvalId, remainingMs));
    setExtensionsUsed((used) => used + 1);
  }

  /** Back to the buttons from the edit form, forgetting the form's errors. */
  function cancelEdit() {
    setModeState('buttons');
    setFieldErrors({});
  }

  return {
    decision,
    mode,
    setMode,
    cancelEdit,
    fieldErrors,
    refusal,
    note,
    setNote,
    extensionsUsed,
    waiting,
    secondsLeft,
    denial,
    deniedNote,
    edited,
    editedInput,
    decidedBy,
    editedBy,
    deadline,
    outcome,
    showButtons,
    decide,
    extendDeadline,
    steps: view?.steps ?? steps,
    canAllow,
    input,
    stale,
    policyChanged,
    isRequester: view?.viewer.isRequester ?? true,
    view,
  };
}
