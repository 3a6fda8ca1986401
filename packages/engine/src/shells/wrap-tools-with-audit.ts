import { createHash } from 'node:crypto';
import type { ToolExecutionOptions, ToolSet } from 'ai';
import type { NewAuditRow } from '../decisions/audit-record';
import {
  type AuditDetail,
  type AuditOutcome,
  type AuditSummary,
  auditOutcomeOfDenial,
} from '../decisions/decision-vocabulary';
import { type CallProvenance, isTainted } from '../provenance';
import { revealHiddenInSummary } from '../shared/reveal-hidden-characters';
import { stableStringify } from '../shared/stable-stringify';
import { isAsyncIterable, wrapExecute } from './wrap-execute';
import { type ApprovalDecisionEvent, isEditedOutput, isToolDenial } from './wrap-tools-with-approval';
import { isToolRateLimited } from './wrap-tools-with-rate-limit';

/** Options of {@link wrapToolsWithAudit}. */
export type AuditShellOptions = {
  /**
   * Writes one row. A throw, or the rejection of a returned promise (an async
   * writer), is logged and never reaches the tool call.
   */
  record: (row: NewAuditRow) => void;
  chatId: string;
  /** The worker whose table the call came from. */
  worker: string;
  /**
   * Tool call ids the idempotency shell answered from an earlier execution (fill it
   * from its `onReplay`). The audit shell sits outside and cannot tell a replay
   * from the result, which is the same on purpose. Ids are removed once recorded.
   */
  replayedCallIds?: Set<string>;
  /**
   * What the approval shell reported per tool call id (fill it from its `onDecision`):
   * a rule's allow becomes the outcome `approved_by_rule`, an edit or a note the row's
   * detail. Entries are removed once recorded.
   */
  decisionsByCallId?: Map<string, ApprovalDecisionEvent>;
  /**
   * Where each traced call's values came from (fill it from the approval shell's provenance
   * check). A tainted call's row keeps its tainted paths with their sources and the turn's
   * untrusted reads; entries are removed once recorded.
   */
  provenanceByCallId?: Map<string, CallProvenance>;
  /**
   * The call's one-line summary in each UI language, kept on the row so the logs read as
   * sentences; undefined (a tool without one) leaves it empty. It is given the input the
   * tool ran with: the person's edit when there was one. Default: no summaries.
   */
  summarize?: (toolName: string, input: unknown) => AuditSummary | undefined;
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Names of the tools to audit. Default: every tool in the table. */
  tools?: Iterable<string>;
};

/** The hex sha256 of the canonical arguments: equal calls match, the arguments themselves are never stored. */
export function hashToolArguments(input: unknown): string {
  return createHash('sha256').update(stableStringify(input)).digest('hex');
}

/**
 * Records one audit row per tool call: chat, worker, tool, a hash of the
 * arguments, the call's summary, the outcome and how long it took. Outcomes are read from what
 * the inner shells return: a denial's reason, `rate_limited`, `replayed`
 * (from `replayedCallIds`), `executed`; a thrown error is recorded as `error`
 * (`aborted` when the call's signal had fired) and rethrown, so the model
 * still sees a tool error.
 *
 * The audit is an observer, not a gate: if writing the row fails, the failure
 * is logged and the tool's result is still returned. Put it outermost, so it
 * sees every outcome, refusals of the other shells included. Only `execute` is replaced.
 */
export function wrapToolsWithAudit<TOOLS extends ToolSet>(
  table: TOOLS,
  {
    record,
    chatId,
    worker,
    replayedCallIds,
    decisionsByCallId,
    provenanceByCallId,
    summarize,
    now = Date.now,
    tools = Object.keys(table),
  }: AuditShellOptions,
): TOOLS {
  return wrapExecute(table, tools, (execute, toolName) => (input, options) => {
    const startedAt = now();
    const write = (outcome: AuditOutcome, output?: unknown) => {
      // Cleared whatever the outcome, so the set never outgrows the calls in flight.
      const replayed = replayedCallIds?.delete(options.toolCallId) ?? false;
      const decision = decisionsByCallId?.get(options.toolCallId);
      decisionsByCallId?.delete(options.toolCallId);
      const traced = provenanceByCallId?.get(options.toolCallId);
      provenanceByCallId?.delete(options.toolCallId);
      const detail: AuditDetail = {
        ...(decision?.edited && { edited: true }),
        ...(decision?.note !== undefined && { note: decision.note }),
        ...(decision?.deciders !== undefined &&
          decision.deciders.length > 0 && { deciders: decision.deciders }),
        ...(decision?.decidedBy !== undefined && { decidedBy: decision.decidedBy }),
        ...(decision?.editedBy !== undefined && { editedBy: decision.editedBy }),
        ...(decision?.rule !== undefined && { rule: decision.rule }),
        ...(decision?.waitMs !== undefined && { waitMs: decision.waitMs }),
        ...(decision?.policy && { policy: true }),
        ...(decision?.signInRequired && { signInRequired: true }),
        ...(decision?.noApprover && { noApprover: true }),
        ...(decision?.quota !== undefined && { quota: decision.quota }),
        ...(decision?.grant !== undefined && { grant: decision.grant }),
        ...(decision?.precondition !== undefined && { precondition: decision.precondition }),
        ...(isToolDenial(output) && { reason: output.reason }),
        ...(isToolDenial(output) && output.reason === 'policy_changed' && { policyChanged: true }),
        ...(traced !== undefined && isTainted(traced) && { provenance: taintedPart(traced) }),
      };
      safeRecord(record, () => {
        const summary = safeSummary(summarize, toolName, editedInputOf(output) ?? input);
        return {
          chatId,
          worker,
          toolName,
          toolCallId: options.toolCallId,
          argsHash: hashToolArguments(input),
          outcome:
            decision?.precondition !== undefined
              ? 'denied'
              : outcome === 'executed' && replayed
                ? 'replayed'
                : outcome === 'executed' && decision?.byRule
                  ? 'approved_by_rule'
                  : outcome,
          ...(Object.keys(detail).length > 0 && { detail }),
          ...(summary !== undefined && { summary }),
          durationMs: Math.max(0, now() - startedAt),
          createdAt: new Date(startedAt).toISOString(),
        };
      });
    };
    const fail = (error: unknown): never => {
      write(thrownOutcome(options));
      throw error;
    };

    let result: unknown;
    try {
      result = execute(input, options);
    } catch (error) {
      return fail(error);
    }
    if (isAsyncIterable(result)) return auditStream(result, write, fail);
    return Promise.resolve(result).then((output) => {
      write(outcomeOf(output), output);
      return output;
    }, fail);
  });
}

/** The tainted paths with their sources, and the turn's untrusted reads: what an audit row keeps. */
function taintedPart(traced: CallProvenance): NonNullable<AuditDetail['provenance']> {
  return {
    tainted: traced.tainted,
    provenance: Object.fromEntries(traced.tainted.map((path) => [path, traced.provenance[path] ?? []])),
    ...(traced.context !== undefined && { context: traced.context }),
    ...(traced.untraced === true && { untraced: true as const }),
  };
}

/** The outcome a result stands for; `executed` is upgraded to `replayed` by the caller. */
function outcomeOf(output: unknown): AuditOutcome {
  // A policy's refusal is a denial; the row's detail says it was the policy's (and why).
  if (isToolDenial(output)) return auditOutcomeOfDenial[output.reason];
  if (isToolRateLimited(output)) return 'rate_limited';
  return 'executed';
}

/**
 * The call's summary with hidden characters shown (see `revealHiddenCharacters`); a
 * summary that throws is left out, never at the cost of the row.
 */
function safeSummary(
  summarize: AuditShellOptions['summarize'],
  toolName: string,
  input: unknown,
): AuditSummary | undefined {
  try {
    const summary = summarize?.(toolName, input);
    return summary && revealHiddenInSummary(summary);
  } catch (error) {
    console.error('[toolgate] could not summarise a tool call for the audit log:', error);
    return undefined;
  }
}

/** The input a person edited the call to, read from the output that says so. */
function editedInputOf(output: unknown): unknown {
  return isEditedOutput(output) ? (output as { editedInput?: unknown }).editedInput : undefined;
}

function thrownOutcome(options: ToolExecutionOptions<unknown>): AuditOutcome {
  return options.abortSignal?.aborted ? 'aborted' : 'error';
}

/** Passes a streamed output through untouched and records once, after its last value. */
async function* auditStream(
  stream: AsyncIterable<unknown>,
  write: (outcome: AuditOutcome, output?: unknown) => void,
  fail: (error: unknown) => never,
): AsyncGenerator<unknown> {
  let last: unknown;
  let failed = false;
  try {
    for await (const output of stream) {
      last = output;
      yield output;
    }
  } catch (error) {
    failed = true;
    fail(error);
  } finally {
    // Also when the consumer stops reading early: every call leaves a row.
    if (!failed) write(outcomeOf(last), last);
  }
}

function safeRecord(record: AuditShellOptions['record'], row: () => NewAuditRow): void {
  const report = (error: unknown) => console.error('[toolgate] could not write an audit row:', error);
  try {
    // Typed `void`, so a caller may pass a function that returns anything; only a thenable is awaited.
    const written: unknown = record(row());
    if (isThenable(written)) written.then(undefined, report);
  } catch (error) {
    report(error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
