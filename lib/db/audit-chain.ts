import { createHash } from 'node:crypto';
import type { AuditDetail, AuditSummary } from '@toolgate/engine';
import { stableStringify } from '@toolgate/engine';

// What the audit row keeps of a call: the engine's words, stored here.
export type { AuditDetail, AuditSummary };

/** The `prev_hash` of the first row of the chain: there is no row before it. */
export const genesisHash = '0'.repeat(64);

/**
 * One audit row as the chain covers it and the export writes it: every stored field but
 * the database id, with `seq` (its place in the chain) and `chainedAt` (when it joined).
 */
export type ChainedAuditFields = {
  seq: number;
  chainedAt: string;
  userId: string | null;
  chatId: string;
  worker: string;
  toolName: string;
  toolCallId: string;
  argsHash: string;
  outcome: string;
  durationMs: number;
  createdAt: string;
  detail: AuditDetail | null;
  summary: AuditSummary | null;
};

/** A line of the audit export: the row, its id, the hash of the row before it and its own. */
export type AuditExportRow = ChainedAuditFields & { id: number; prevHash: string; hash: string };

/** The fields {@link chainHash} covers, picked out of a row that may carry more (an export line). */
export function chainedFieldsOf(row: ChainedAuditFields): ChainedAuditFields {
  return {
    seq: row.seq,
    chainedAt: row.chainedAt,
    userId: row.userId,
    chatId: row.chatId,
    worker: row.worker,
    toolName: row.toolName,
    toolCallId: row.toolCallId,
    argsHash: row.argsHash,
    outcome: row.outcome,
    durationMs: row.durationMs,
    createdAt: row.createdAt,
    detail: row.detail,
    summary: row.summary,
  };
}

/**
 * Hex SHA-256 over the previous row's hash, a newline and the row's canonical JSON (keys
 * sorted): editing, removing or reordering any earlier row changes every hash after it.
 */
export function chainHash(prevHash: string, row: ChainedAuditFields): string {
  return createHash('sha256')
    .update(`${prevHash}\n${stableStringify(chainedFieldsOf(row))}`)
    .digest('hex');
}

/** The first row of an export that does not chain, and why; or how many rows held. */
export type ChainVerdict =
  | { ok: true; rows: number; firstSeq?: number; lastSeq?: number }
  | { ok: false; rows: number; line: number; id?: unknown; seq?: unknown; reason: string };

/**
 * Checks rows of an export in order: each row's hash is its own, and each links to the
 * one before (the previous `seq` plus one, `prevHash` equal to that row's hash). An
 * export that starts at seq 1 must start from {@link genesisHash}; one that starts later
 * (a time window) is checked from its first row on.
 */
export function createChainVerifier(): {
  push: (row: unknown) => ChainVerdict | undefined;
  end: () => ChainVerdict;
} {
  let rows = 0;
  let previous: { seq: number; hash: string } | undefined;
  let firstSeq: number | undefined;
  const fail = (row: Partial<AuditExportRow>, reason: string): ChainVerdict => ({
    ok: false,
    rows,
    line: rows,
    id: row.id,
    seq: row.seq,
    reason,
  });
  return {
    push: (value) => {
      rows += 1;
      const row = (typeof value === 'object' && value !== null ? value : {}) as Partial<AuditExportRow>;
      if (!Number.isInteger(row.seq) || typeof row.hash !== 'string' || typeof row.prevHash !== 'string')
        return fail(row, 'not an audit export row (seq, prevHash and hash are required)');
      const seq = row.seq as number;
      if (previous === undefined) {
        firstSeq = seq;
        if (seq === 1 && row.prevHash !== genesisHash)
          return fail(row, 'the first row of the chain does not start from the genesis hash');
      } else {
        if (seq !== previous.seq + 1)
          return fail(row, `expected seq ${previous.seq + 1} after seq ${previous.seq}, found ${seq}`);
        if (row.prevHash !== previous.hash)
          return fail(row, `its prevHash is not the hash of seq ${previous.seq}`);
      }
      if (chainHash(row.prevHash, row as AuditExportRow) !== row.hash)
        return fail(row, 'its hash does not match its contents: the row was changed after it was written');
      previous = { seq, hash: row.hash };
      return undefined;
    },
    end: () => ({ ok: true, rows, firstSeq, lastSeq: previous?.seq }),
  };
}
