import type { ToolSet } from 'ai';
import { type DenialReason, modelTextOfDenial } from '../decisions/decision-vocabulary';
import { type CallProvenance, isTainted } from '../provenance';
import type {
  ApprovalRegistry,
  ApprovalStep,
  ConfirmOptions,
  DecisionMaker,
  DecisionRecord,
} from '../stores/approval-registry';
import { finalOutput, wrapExecute } from './wrap-execute';

/**
 * What a tool returns instead of running when its call was not approved. It is
 * an ordinary result, not an error: the model reads `message`, explains, and
 * stops, instead of retrying with other arguments as it would after an error.
 */
export type ToolDenial = {
  denied: true;
  reason: DenialReason;
  message: string;
  /** The person's own words with their "no" (e.g. "use order A1002 instead"), when they gave any. */
  note?: string;
  /** With reason `quota`: how long until the rule's quota lets a call run again. */
  retryAfterMs?: number;
  /** Who said no, when a person did: the model names them, and never says "you" for someone else. */
  decidedBy?: DecisionMaker;
};

/** Tells a {@link ToolDenial} apart from a tool's own output. */
export function isToolDenial(value: unknown): value is ToolDenial {
  if (typeof value !== 'object' || value === null) return false;
  const { denied, reason, message } = value as Partial<ToolDenial>;
  return (
    denied === true &&
    typeof reason === 'string' &&
    reason in modelTextOfDenial &&
    typeof message === 'string'
  );
}

/** The refusal of a call past its rule's quota, with the wait until one fits again. */
export function quotaDenial(toolName: string, retryAfterMs: number): ToolDenial {
  return { ...toolDenial('quota', toolName), retryAfterMs };
}

/** The label in front of a person's note inside `message`, so a reader of the message alone finds it. */
const notePrefix = 'The user gave this reason (JSON string): ';
/** The same label when someone other than the user said no. */
const otherNotePrefix = 'They gave this reason (JSON string): ';

/** "Wang (supervisor)": how the model's text names a decision's maker. */
export function decisionMakerText(maker: DecisionMaker): string {
  return maker.name === '' ? `a ${maker.role}` : `${maker.name} (${maker.role})`;
}

/** Whether the decision was made by someone other than the chat's own user. */
export function madeBySomeoneElse(maker: DecisionMaker | undefined): maker is DecisionMaker {
  return maker !== undefined && maker.role !== 'requester';
}

/**
 * The denial the model reads for `reason`, with the person's note when they gave one, and who
 * said no (`decidedBy`): a person other than the user is named in the message, so the model
 * never says "you" for them.
 */
export function toolDenial(
  reason: DenialReason,
  toolName: string,
  note?: string,
  decidedBy?: DecisionMaker,
): ToolDenial {
  const other = madeBySomeoneElse(decidedBy) && reason === 'denied';
  const message = other
    ? `${decisionMakerText(decidedBy)}, not the user, declined this ${toolName} call, so nothing was done. Do not retry this call; tell the user who declined it and that it was not carried out.`
    : modelTextOfDenial[reason](toolName);
  const by = decidedBy === undefined ? {} : { decidedBy };
  if (note === undefined || note === '') return { denied: true, reason, message, ...by };
  return {
    denied: true,
    reason,
    // In the message too: a later turn sees only the SDK's denial text, not our fields.
    message: `${message} ${other ? otherNotePrefix : notePrefix}${JSON.stringify(note)}. Take it into account in your reply.`,
    note,
    ...by,
  };
}

/** The person's note inside a denial's message (or the SDK's denial reason built from it), if any. */
export function denialNoteOf(text: string): string | undefined {
  const prefix = text.includes(notePrefix) ? notePrefix : otherNotePrefix;
  const start = text.indexOf(prefix);
  if (start === -1) return undefined;
  const rest = text.slice(start + prefix.length);
  // The note is a JSON string: read exactly one, whatever quotes or dots it holds.
  const match = /^"(?:[^"\\]|\\.)*"/.exec(rest);
  if (match === null) return undefined;
  try {
    const note: unknown = JSON.parse(match[0]);
    return typeof note === 'string' ? note : undefined;
  } catch {
    return undefined;
  }
}

/** Told to the model beside the output of a call whose input a person edited before allowing it. */
export const editedInputNote =
  'The user edited the input of this call before approving it: the tool ran with editedInput, not with the input you proposed. Describe what was actually done.';

/** The same, when someone other than the user edited it (the approver is named beside it, `editedBy`). */
export const editedByOtherNote =
  'Someone other than the user (editedBy) edited the input of this call before approving it: the tool ran with editedInput, not with the input you proposed. Describe what was actually done and who changed it; never say the user edited it.';

/** What the model reads after an edited call ran: the output, the input that was used, why they differ, and who edited it. */
export function withEditedInput(output: unknown, editedInput: unknown, editedBy?: DecisionMaker): unknown {
  const note = madeBySomeoneElse(editedBy)
    ? { editedInput, editedBy, editNote: editedByOtherNote }
    : { editedInput, editNote: editedInputNote };
  const isPlainObject = typeof output === 'object' && output !== null && !Array.isArray(output);
  return isPlainObject ? { ...output, ...note } : { output, ...note };
}

/**
 * What the model reads after a call someone other than the user allowed: the output, and who
 * allowed it (`decidedBy`), so the reply names them. A call the user allowed reads as the tool returned it.
 */
export function withDecidedBy(output: unknown, decidedBy: DecisionMaker | undefined): unknown {
  if (!madeBySomeoneElse(decidedBy)) return output;
  const isPlainObject = typeof output === 'object' && output !== null && !Array.isArray(output);
  return isPlainObject ? { ...output, decidedBy } : { output, decidedBy };
}

/** Whether a call's output says a person edited its input. */
export function isEditedOutput(output: unknown): boolean {
  if (typeof output !== 'object' || output === null) return false;
  const { editNote } = output as { editNote?: unknown };
  return editNote === editedInputNote || editNote === editedByOtherNote;
}

/** What a person decided about one call, beyond allow / deny, for observers (the audit). */
export type ApprovalDecisionEvent = DecisionRecord & {
  toolCallId: string;
  /** A policy rule refused the call without a card. */
  policy?: true;
  /** Refused without a card: the rule needs a role's approval and the requester is not signed in and verified. */
  signInRequired?: true;
  /** Refused without a card: past the rule's quota; a call fits again after this many milliseconds. */
  quota?: { retryAfterMs: number };
  /** Refused without a card: a role step of its rule can never be filled (too few holders of the role). */
  noApprover?: true;
  /** Refused before any card: the tool's own check says the call cannot succeed (its reason, e.g. `exceeds_remaining`). */
  precondition?: string;
  /** Ran without a card: the tool is allowed for this chat, or a standing grant covers the call. */
  byRule?: true;
  /** …the id of the standing grant that covered it. */
  grant?: string;
  /** Ran with the input the person edited. */
  edited?: true;
  /** The person's note with a "no". */
  note?: string;
};

/**
 * What a call needs, decided on its validated input before anything waits: run at once
 * (no rule asks for a card), refuse (a policy rule), or wait for a person — with the
 * rule's deadline and steps when it gives them.
 */
export type ApprovalAsk =
  | { kind: 'run'; quota?: QuotaGate; rule?: string }
  | {
      kind: 'deny';
      rule: string;
      reason?: Extract<DenialReason, 'policy' | 'sign_in_required' | 'quota' | 'no_approver'>;
      retryAfterMs?: number;
    }
  | {
      kind: 'confirm';
      timeoutMs?: number;
      steps?: readonly ApprovalStep[];
      rule?: string;
      quota?: QuotaGate;
    };

/**
 * A rule's quota, checked once more right before the call runs: `take` counts the call if it
 * still fits (atomically, across instances) or says how long until one does.
 */
export type QuotaGate = { take: () => Promise<{ ok: true } | { ok: false; retryAfterMs: number }> };

/** Options of {@link wrapToolsWithApproval}. */
export type ApprovalShellOptions = {
  /** Holds the waiting calls; `resolve` on it wakes one. */
  registry: ApprovalRegistry;
  /** Only a decision for this session (the chat id) can wake the call. */
  sessionId: string;
  /** When set, only this owner's decision can wake the call. */
  ownerId?: string;
  /** Sends the approval request to the person (the UI card); a failure denies. */
  emit: ConfirmOptions['emit'];
  /** No decision within this many milliseconds denies with reason `timeout`. */
  timeoutMs: number;
  /** The turn's signal: aborting it (the user pressed Stop) denies with reason `aborted`. */
  signal?: AbortSignal;
  /** Told once an approved call has run (or thrown), so the approval's record can say so. */
  afterExecute?: (event: {
    approvalId?: string;
    toolCallId: string;
    ok: boolean;
    /** What the tool answered, when it ran. */
    output?: unknown;
  }) => Promise<void> | void;
  /**
   * Whether the person allowed this tool for the rest of the chat (`true`) or a standing grant
   * of theirs covers this input (`{ grant }`, its id): then the call runs without a card.
   * Absent: every call asks.
   */
  approvedByRule?: (
    toolName: string,
    input: unknown,
  ) => boolean | { grant: string } | Promise<boolean | { grant: string }>;
  /** Told what was decided beyond allow / deny (a rule, an edit, a note), before the call returns. */
  onDecision?: (event: ApprovalDecisionEvent) => void;
  /**
   * What each call needs (a policy), given whether an untrusted output supplied its values.
   * Absent: every call of a listed tool waits for its requester, any other runs.
   */
  askFor?: (
    toolName: string,
    input: unknown,
    facts: { tainted: boolean },
  ) => ApprovalAsk | Promise<ApprovalAsk>;
  /** Traces where the values of write calls came from; a tainted call always waits for a person. */
  provenance?: ProvenanceCheck;
  /**
   * Asked before a card that taint alone asks for (its tool is not among `confirmTools`, whose
   * cards are limited outside this shell): a result other than undefined is returned instead
   * of the card (the person already has too many waiting).
   */
  refuseTaintCard?: (toolName: string) => Promise<unknown>;
  /**
   * The tool's own check of a call that would wait for a person, run before any card: a
   * refusal (what the model reads) ends the call at once, nobody asked. Absent: none.
   */
  precondition?: (
    toolName: string,
    input: unknown,
  ) => Promise<({ reason: string } & Record<string, unknown>) | undefined>;
};

/** How the approval shell learns where a call's values came from (its provenance module). */
export type ProvenanceCheck = {
  /** The tools whose calls are traced (the write tools), whether or not they are listed to ask. */
  tools: Iterable<string>;
  /** Where the values of this call came from, on its validated input. */
  assess: (toolName: string, input: unknown) => CallProvenance | Promise<CallProvenance>;
  /** Told each traced call's provenance before anything waits (the audit, the trace). */
  onAssessed?: (toolCallId: string, provenance: CallProvenance) => void;
};

/**
 * What a tainted call needs: a person at least, whatever the settings ask. A call that would
 * run gets its requester's card; a policy's steps get a requester step when they have none.
 */
export function withPersonForTaint(ask: ApprovalAsk): ApprovalAsk {
  if (ask.kind === 'run') return { kind: 'confirm', ...(ask.quota !== undefined && { quota: ask.quota }) };
  if (ask.kind === 'deny' || ask.steps === undefined) return ask;
  if (ask.steps.some((step) => step.kind === 'requester')) return ask;
  return { ...ask, steps: [{ kind: 'requester' }, ...ask.steps] };
}

/**
 * Makes the chosen tools wait for a person before they run. The call's execute
 * stays suspended on the registry; on allow the original runs, on anything else
 * a {@link ToolDenial} is returned (never thrown). Only `execute` is replaced.
 *
 * Put this shell outside idempotency, or a denial is cached as the call's result.
 */
export function wrapToolsWithApproval<TOOLS extends ToolSet>(
  table: TOOLS,
  confirmTools: Iterable<string>,
  {
    registry,
    sessionId,
    ownerId,
    emit,
    timeoutMs,
    signal,
    afterExecute,
    approvedByRule,
    onDecision,
    askFor,
    provenance,
    refuseTaintCard,
    precondition,
  }: ApprovalShellOptions,
): TOOLS {
  const listed = new Set(confirmTools);
  const traced = new Set(provenance?.tools ?? []);
  return wrapExecute(
    table,
    new Set([...listed, ...traced]),
    (execute, toolName) => async (input, options) => {
      const { toolCallId } = options;
      const sources =
        provenance !== undefined && traced.has(toolName)
          ? await provenance.assess(toolName, input)
          : undefined;
      if (sources !== undefined) provenance?.onAssessed?.(toolCallId, sources);
      const tainted = isTainted(sources);
      const asked: ApprovalAsk =
        askFor !== undefined
          ? await askFor(toolName, input, { tainted })
          : listed.has(toolName)
            ? { kind: 'confirm' }
            : { kind: 'run' };
      // Whatever the settings say, values an outsider supplied never drive a write unseen.
      const ask = tainted ? withPersonForTaint(asked) : asked;
      // Counted right before it runs: of calls racing for a quota's last place, one runs.
      const pastQuota = async (): Promise<ToolDenial | undefined> => {
        if (ask.kind === 'deny' || ask.quota === undefined) return undefined;
        const answer = await ask.quota.take();
        if (answer.ok) return undefined;
        onDecision?.({
          toolCallId,
          policy: true,
          quota: { retryAfterMs: answer.retryAfterMs },
          ...(ask.rule !== undefined && { rule: ask.rule }),
        });
        return quotaDenial(toolName, answer.retryAfterMs);
      };
      if (ask.kind === 'run') return (await pastQuota()) ?? finalOutput(execute(input, options));
      if (ask.kind === 'deny') {
        const reason = ask.reason ?? 'policy';
        onDecision?.({
          toolCallId,
          policy: true,
          rule: ask.rule,
          ...(reason === 'sign_in_required' && { signInRequired: true }),
          ...(reason === 'no_approver' && { noApprover: true }),
          ...(reason === 'quota' && { quota: { retryAfterMs: ask.retryAfterMs ?? 0 } }),
        });
        return reason === 'quota'
          ? quotaDenial(toolName, ask.retryAfterMs ?? 0)
          : toolDenial(reason, toolName);
      }
      // A call that cannot succeed asks nobody: the model gets the refusal and what would work.
      // No await without a check: a card is emitted in the same tick as without one.
      const refusal = precondition === undefined ? undefined : await precondition(toolName, input);
      if (refusal !== undefined) {
        onDecision?.({
          toolCallId,
          precondition: refusal.reason,
          ...(ask.rule !== undefined && { rule: ask.rule }),
        });
        return { ...refusal, precondition: true };
      }
      // "Allow for this chat" stands in only for the requester: never for someone else's step.
      // Nor for a tainted call: the person allowed the tool, not an outsider's values.
      const requesterOnly = ask.steps === undefined || ask.steps.every((step) => step.kind === 'requester');
      const byRule =
        !tainted && requesterOnly && approvedByRule !== undefined && (await approvedByRule(toolName, input));
      if (byRule) {
        const refused = await pastQuota();
        if (refused !== undefined) return refused;
        onDecision?.({
          toolCallId,
          byRule: true,
          ...(typeof byRule === 'object' && { grant: byRule.grant }),
          ...(ask.rule !== undefined && { rule: ask.rule }),
        });
        return finalOutput(execute(input, options));
      }
      if (tainted && !listed.has(toolName) && refuseTaintCard !== undefined) {
        const refused = await refuseTaintCard(toolName);
        if (refused !== undefined) return refused;
      }
      const decision = await registry.confirm(
        {
          sessionId,
          ownerId,
          toolCallId,
          toolName,
          input,
          ...(ask.steps !== undefined && { steps: ask.steps }),
          ...(ask.rule !== undefined && { ruleLabel: ask.rule }),
          ...(sources !== undefined && { provenance: sources }),
        },
        { emit, timeoutMs: ask.timeoutMs ?? timeoutMs, signal: eitherSignal(signal, options.abortSignal) },
      );
      const record: DecisionRecord = {
        ...(decision.deciders !== undefined && { deciders: decision.deciders }),
        ...(decision.decidedBy !== undefined && { decidedBy: decision.decidedBy }),
        ...(decision.editedBy !== undefined && { editedBy: decision.editedBy }),
        ...((decision.rule ?? ask.rule) !== undefined && { rule: decision.rule ?? ask.rule }),
        ...(decision.waitMs !== undefined && { waitMs: decision.waitMs }),
      };
      if (!decision.approved) {
        onDecision?.({ toolCallId, ...record, ...(decision.note !== undefined && { note: decision.note }) });
        return toolDenial(decision.reason, toolName, decision.note, decision.decidedBy);
      }
      const refused = await pastQuota();
      if (refused !== undefined) {
        await afterExecute?.({ approvalId: decision.approvalId, toolCallId, ok: false });
        return refused;
      }
      // An edited input replaces the model's whole: the inner shells (idempotency's key
      // included) and the tool see only what the person approved.
      const edited = decision.input !== undefined;
      onDecision?.({ toolCallId, ...record, ...(edited && { edited: true }) });
      const approvedInput = edited ? decision.input : input;
      const told = (output: unknown) =>
        withDecidedBy(
          edited ? withEditedInput(output, approvedInput, decision.editedBy) : output,
          decision.decidedBy,
        );
      if (afterExecute === undefined) return told(await finalOutput(execute(approvedInput, options)));
      const event = { approvalId: decision.approvalId, toolCallId };
      let output: unknown;
      try {
        output = await finalOutput(execute(approvedInput, options));
      } catch (error) {
        await afterExecute({ ...event, ok: false });
        throw error;
      }
      await afterExecute({ ...event, ok: true, output });
      return told(output);
    },
  );
}

/** A signal that aborts when either does; `AbortSignal.any` only when there are two. */
export function eitherSignal(first?: AbortSignal, second?: AbortSignal): AbortSignal | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return AbortSignal.any([first, second]);
}
