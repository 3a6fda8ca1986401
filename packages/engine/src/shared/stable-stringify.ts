import { configure } from 'safe-stable-stringify';

// Configured once: sorted keys make the output independent of property order,
// and a cycle throws instead of quietly producing a marker that two different
// inputs could share (a shared marker would merge two keys into one).
const stringify = configure({
  deterministic: true,
  bigint: true,
  circularValue: TypeError,
});

/**
 * Serializes a value into a canonical string for fingerprinting.
 *
 * Object keys are sorted and `undefined` fields are dropped: `{ a: 1, b: 2 }` and
 * `{ b: 2, a: 1 }` give the same string, and so do `{ a: 1, c: undefined }` and `{ a: 1 }`.
 * Bigints are written as digits. A circular structure throws a `TypeError`.
 * A top-level value JSON cannot represent (`undefined`, a function) becomes
 * the bare word `undefined`, which no JSON text produces.
 */
export function stableStringify(value: unknown): string {
  return stringify(value) ?? 'undefined';
}
