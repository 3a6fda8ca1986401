import { createHash } from 'node:crypto';
import { idempotencyKey } from './idempotency-key';

/**
 * What the idempotency shell hands a guarded tool's `execute`, beside the AI SDK's own
 * options (`options.idempotency`): the call's idempotency key, to send downstream, and
 * `commit`, which writes the tool's rows and the record of its result in one transaction.
 */
export type WriteExecution = {
  /**
   * Hex SHA-256 of `scope::toolName::stableStringify(input)`: the same for every repeat of
   * the call in its chat and window, and nothing else. An HTTP tool sends it as
   * `Idempotency-Key`; MCP calls carry it as `_meta["io.toolgate/idempotency-key"]`.
   */
  idempotencyKey: string;
  /**
   * Runs `effect` in a transaction that also records what it returns (which must be the
   * tool's whole output, JSON-serialisable), or returns the recorded output of an earlier
   * run of the same key without running it. Absent when the shell has no effect recorder:
   * then the tool writes as it would without one.
   */
  commit?: <OUTPUT>(effect: (transaction: unknown) => Promise<OUTPUT>) => Promise<OUTPUT>;
};

/** The downstream idempotency key of one call: hex SHA-256 of its shell key. */
export function downstreamIdempotencyKey(scope: string, toolName: string, input: unknown): string {
  return createHash('sha256')
    .update(idempotencyKey(scope, toolName, input))
    .digest('hex');
}

/** The write execution the idempotency shell gave this call, if any (read from `execute`'s options). */
export function writeExecutionOf(options: unknown): WriteExecution | undefined {
  const value = (options as { idempotency?: unknown } | null | undefined)?.idempotency;
  if (value === null || typeof value !== 'object') return undefined;
  const { idempotencyKey: key } = value as { idempotencyKey?: unknown };
  return typeof key === 'string' ? (value as WriteExecution) : undefined;
}
