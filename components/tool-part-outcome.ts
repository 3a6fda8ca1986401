import {
  auditOutcomeOfDenial,
  type DenialReason,
  denialReasons,
  revealHiddenCharacters,
} from '@toolgate/engine/client';
import type { DynamicToolUIPart, ToolUIPart } from 'ai';
import { localDeadlineOf } from './approval-deadlines';

/** A tool call as the chat holds it: a static tool part or a dynamic one; both share the seven states. */
export type ToolPart = ToolUIPart | DynamicToolUIPart;

/** How an approval ended, as the user reads it. */
export type Outcome = 'approved' | 'denied' | 'expired' | 'cancelled';

/**
 * The server's denial result, returned to the model as a normal output. Its
 * `message` is written for the model, in English: the card never shows it.
 */
export type Denial = { denied: true; reason?: string; message?: string };

/** The denial in a tool's output, or null when the call was not denied. */
export function asDenial(output: unknown): Denial | null {
  if (typeof output !== 'object' || output === null) return null;
  return (output as { denied?: unknown }).denied === true ? (output as Denial) : null;
}

/** The server's rate-limit refusal; like a denial, its `message` is for the model. */
export function rateLimitedWait(output: unknown): number | null {
  if (typeof output !== 'object' || output === null) return null;
  const { rateLimited, retryAfterMs } = output as { rateLimited?: unknown; retryAfterMs?: unknown };
  return rateLimited === true && typeof retryAfterMs === 'number' ? retryAfterMs : null;
}

/** The card's outcome for each audit outcome a denial is recorded as: a new one fails to compile until it has its card outcome. */
const outcomeByAuditOutcome: Record<(typeof auditOutcomeOfDenial)[DenialReason], Outcome> = {
  denied: 'denied',
  timeout: 'expired',
  aborted: 'cancelled',
  closed: 'cancelled',
  superseded: 'cancelled',
  withdrawn: 'cancelled',
};

/** The denial's reason, when it is one of the engine's (a saved chat may hold another string). */
export function reasonOfDenial(denial: Denial): DenialReason | undefined {
  return denialReasons.find((reason) => reason === denial.reason);
}

/**
 * How a denial reads, by the audit outcome its reason is recorded as: 'denied' is a person
 * saying no or the rules refusing; 'expired' nobody answered; 'cancelled' the user stopped,
 * deleted the chat, wrote something else instead or withdrew the request.
 */
export function outcomeOfDenial(denial: Denial): Outcome {
  const reason = reasonOfDenial(denial);
  return reason === undefined ? 'denied' : outcomeByAuditOutcome[auditOutcomeOfDenial[reason]];
}

/** A denied part (`output-denied`) carries its reason code in front of the explanation. */
export function denialOfDeniedPart(part: ToolPart): Denial | null {
  if (part.state !== 'output-denied') return null;
  const text = part.approval.reason ?? '';
  const separator = text.indexOf(':');
  if (separator === -1) return { denied: true, reason: 'denied', message: text || undefined };
  return { denied: true, reason: text.slice(0, separator), message: text.slice(separator + 1).trim() };
}

/** The card's deadline on this page's clock (see `approval-deadlines.ts`), or null without an approval. */
export function deadlineOf(part: ToolPart): number | null {
  if (part.approval === undefined) return null;
  const descriptor: unknown = part.approval.descriptor;
  return localDeadlineOf(
    part.approval.id,
    typeof descriptor === 'object' && descriptor !== null
      ? (descriptor as Record<string, unknown>)
      : undefined,
  );
}

/** The tool's own one-line summary of the call, in the reader's language, as the server sent it. */
export function summaryOf(part: ToolPart, locale: string): string | undefined {
  const descriptor = part.approval?.descriptor as { summary?: Record<string, unknown> } | undefined;
  const summary = descriptor?.summary?.[locale];
  return typeof summary === 'string' && summary !== '' ? revealHiddenCharacters(summary) : undefined;
}

/** What the user decided on this card before the stream caught up. */
export type LocalDecision =
  | { kind: 'none' }
  | { kind: 'sending'; approved: boolean }
  | { kind: 'decided'; outcome: Outcome }
  | { kind: 'failed'; retryable: boolean };

/**
 * The outcome to show, most authoritative first: the server's result, then what
 * the user decided here, then the local clock (Expired shows at 0 even before the
 * server's timeout denial arrives).
 */
export function resolveOutcome(
  part: ToolPart,
  live: boolean,
  denial: Denial | null,
  decision: LocalDecision,
  secondsLeft: number | null,
  deadline: number | null,
): Outcome | null {
  if (denial !== null) return outcomeOfDenial(denial);
  switch (part.state) {
    case 'output-available':
    case 'output-error':
      return part.approval ? 'approved' : null;
    case 'output-denied':
      return 'denied';
    case 'approval-responded':
      return part.approval.approved ? 'approved' : 'denied';
    case 'approval-requested':
      if (decision.kind === 'decided') return decision.outcome;
      if (!live && (deadline === null || deadline <= Date.now())) return 'expired';
      // While a decision is on its way the server has the last word; otherwise 0 means expired.
      if (decision.kind !== 'sending' && secondsLeft === 0) return 'expired';
      return null;
    case 'input-streaming':
    case 'input-available':
      return null;
  }
}
