import type { AuditDetail, AuditOutcome, AuditSummary } from './decision-vocabulary';

/** One tool call as the audit shell reports it. The arguments are stored as a hash, beside the call's summary. */
export type NewAuditRow = {
  /** The user whose turn made the call. */
  userId?: string | null;
  chatId: string;
  worker: string;
  toolName: string;
  /** The AI SDK's id of the call, to line a row up with the tool part in the chat. */
  toolCallId: string;
  /** Hex sha256 of `stableStringify(input)`: equal arguments give equal hashes. */
  argsHash: string;
  outcome: AuditOutcome;
  durationMs: number;
  /** When the call started (ISO 8601). */
  createdAt: string;
  /** What the person added: they edited the input, or said why not. */
  detail?: AuditDetail;
  /** The tool's one-line summary of the call in each UI language; absent for tools without one. */
  summary?: AuditSummary;
};
