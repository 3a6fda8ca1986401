import type { DenialReason } from '../decisions/decision-vocabulary';
import type { CallProvenance } from '../provenance';

/** Who must allow a call: the chat's user, or anyone holding a role other than the requester. */
export type ApprovalStep = { kind: 'requester' } | { kind: 'role'; role: string };

/** A person who decided or edited a call, as the model, the card and the audit name them. */
export type DecisionMaker = {
  name: string;
  /** The role whose step they filled, or `requester` for the chat's own user. */
  role: string;
};

/**
 * Who decided, for observers (the audit) and the model: user ids, who made the decision that
 * settled it (`decidedBy`) and who edited the input (`editedBy`), the rule that asked, how long
 * the call waited.
 */
export type DecisionRecord = {
  deciders?: string[];
  decidedBy?: DecisionMaker;
  editedBy?: DecisionMaker;
  rule?: string;
  waitMs?: number;
};

/** `approvalId` names the approval that was decided, when a registry records it. */
export type ApprovalDecision =
  | ({
      approved: true;
      approvalId?: string;
      /** The input the person approved in place of the model's (already validated), if they edited it. */
      input?: unknown;
      /** The call ran without a card: the person allowed this tool for the chat. */
      byRule?: boolean;
    } & DecisionRecord)
  | ({
      approved: false;
      reason: DenialReason;
      approvalId?: string;
      /** What the person said with their "no", for the model to read. */
      note?: string;
    } & DecisionRecord);

/** What the approval shell asks the registry to hold. */
export type ApprovalRequest = {
  sessionId: string;
  /** Set once sessions have owners; a resolve from another owner is treated as unknown. */
  ownerId?: string;
  /** The model's id for the call; the UI attaches the card to that tool part. */
  toolCallId?: string;
  toolName: string;
  input: unknown;
  /** Steps that must all allow (a policy rule's); absent: the chat's user decides alone. */
  steps?: readonly ApprovalStep[];
  /** The label of the policy rule that asked for this approval. */
  ruleLabel?: string;
  /** Where the call's values came from (write calls, when provenance is on); shown on the card. */
  provenance?: CallProvenance;
};

/**
 * What a card shows before a person decides, as the tool computed it on the server: lines
 * of { label, value } and warnings, labels and warnings in every UI language (keyed by
 * language). `unavailable` says why a tool that declares a preview has none for this call
 * (it threw or took too long); the card then says so instead. `summary`: the call's title
 * with what the tool looked up (a refund's order currency the input left out), by language;
 * cards show it instead of the title the input alone gives.
 */
export type ApprovalPreview = {
  lines: { label: Readonly<Record<string, string>>; value: string }[];
  warnings: Readonly<Record<string, string>>[];
  unavailable?: 'timeout' | 'error';
  summary?: Readonly<Record<string, string>>;
};

/** Emitted once per request, before the call waits (the UI renders a card from it). */
export type ApprovalRequestEvent = {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Epoch milliseconds after which the call is denied with reason `timeout`. */
  expiresAt: number;
  /** The request's steps, when a policy rule gave it some (absent otherwise). */
  steps?: readonly ApprovalStep[];
  /** The tool's preview of this call, when it declares one (added by the durable registry). */
  preview?: ApprovalPreview;
  /** Where the call's values came from, when traced (added by the durable registry). */
  provenance?: CallProvenance;
};

/** What `confirm` is given beside the request: how to tell the app a card is up, how long to wait, and what cancels the wait. */
export type ConfirmOptions = {
  /** Receives the request before the call waits; a throw denies the call. */
  emit: (event: ApprovalRequestEvent) => void | Promise<void>;
  /** No decision within this many milliseconds denies with `timeout`. */
  timeoutMs: number;
  /** Aborting denies with `aborted` and releases the entry and its timer. */
  signal?: AbortSignal;
};

/**
 * Holds tool calls that wait for a person. Memory by default, Redis when shared
 * between instances; one interface.
 */
export interface ApprovalRegistry {
  /**
   * Creates an unguessable approvalId, emits the request and waits for a decision.
   * Also accepts the seed's positional form `confirm(request, emit, timeoutMs, signal?)`.
   */
  confirm(request: ApprovalRequest, options: ConfirmOptions): Promise<ApprovalDecision>;
  confirm(
    request: ApprovalRequest,
    emit: ConfirmOptions['emit'],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<ApprovalDecision>;
  /**
   * Wakes exactly the call behind `approvalId`, only if `sessionId` (and `ownerId`,
   * when the request had one) match. Returns false for an unknown, mismatched or
   * already settled id: a mismatch is indistinguishable from an unknown id.
   */
  resolve(
    approvalId: string,
    sessionId: string,
    approved: boolean,
    ownerId?: string,
  ): boolean | Promise<boolean>;
  /** Denies every pending call of a session with reason `closed` (the chat was deleted). */
  closeSession(sessionId: string): number | Promise<number>;
  /**
   * Moves the deadline of the call behind `approvalId` to `expiresAt` (epoch ms),
   * wherever it waits, with the same matching as `resolve`. Returns false for an
   * unknown, mismatched or settled id.
   */
  extend(
    approvalId: string,
    sessionId: string,
    expiresAt: number,
    ownerId?: string,
  ): boolean | Promise<boolean>;
}

// setTimeout's limit: a longer delay fires at once, which would deny immediately.
const maxTimeoutMs = 2 ** 31 - 1;

/**
 * Reads `confirm`'s arguments in either form (options object, or the seed's
 * positional `emit, timeoutMs, signal`) and checks the timeout. Shared by every
 * registry so both forms mean the same everywhere.
 */
export function confirmOptionsOf(
  emitOrOptions: ConfirmOptions | ConfirmOptions['emit'],
  positionalTimeoutMs?: number,
  positionalSignal?: AbortSignal,
): ConfirmOptions {
  const options =
    typeof emitOrOptions === 'function'
      ? { emit: emitOrOptions, timeoutMs: positionalTimeoutMs as number, signal: positionalSignal }
      : emitOrOptions;
  const { timeoutMs } = options;
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && timeoutMs <= maxTimeoutMs)) {
    throw new TypeError(
      `Expected \`timeoutMs\` to be a number in (0, ${maxTimeoutMs}], got \`${String(timeoutMs)}\``,
    );
  }
  return options;
}

/**
 * Shows a recorded request to the person through `emit`. A request nobody saw
 * cannot be approved, so a failed emit, thrown or rejected, calls `onFailure`,
 * and every registry denies the call there (fail-closed).
 */
export function emitApprovalRequest(
  emit: ConfirmOptions['emit'],
  request: ApprovalRequest,
  { approvalId, expiresAt }: { approvalId: string; expiresAt: number },
  onFailure: () => void,
): void {
  const event: ApprovalRequestEvent = {
    approvalId,
    toolCallId: request.toolCallId ?? '',
    toolName: request.toolName,
    input: request.input,
    expiresAt,
    ...(request.steps !== undefined && { steps: request.steps }),
  };
  try {
    Promise.resolve(emit(event)).catch(onFailure);
  } catch {
    onFailure();
  }
}
