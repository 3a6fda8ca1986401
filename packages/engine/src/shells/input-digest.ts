import { createHash } from 'node:crypto';
import { stableStringify } from '../shared/stable-stringify';

/**
 * Lowercase hex SHA-256 of the canonical JSON (sorted keys) of a call's input: what an
 * approval card shows travels with the decision, so a decision made on an input that has
 * since changed is refused instead of counting for the new one.
 */
export function inputDigestOf(input: unknown): string {
  return createHash('sha256').update(stableStringify(input)).digest('hex');
}

/** The shape of an input digest (`inputDigestOf`'s output). */
export const inputDigestPattern = /^[0-9a-f]{64}$/;
