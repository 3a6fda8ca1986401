import { canonicalNumber, normalizeText } from './normalize-text';

/**
 * One value of a call's input that provenance traces: its path and its compared form (a number,
 * or a string that spells one, in canonical form: `40.50` and `40.5` are one value).
 */
export type InputLeaf = { path: string; kind: 'text' | 'number'; value: string };

/** What of an input is traced, and whether some of it was past the limits (so not traced). */
export type TracedInput = { leaves: InputLeaf[]; beyondLimits: boolean };

/** Shorter strings ("yes", "A1") occur everywhere by chance: they are not traced. */
export const minTracedLength = 4;

/** The most leaves of one input that are traced; an input with more counts as untraceable. */
export const maxLeaves = 64;
/** The deepest a traced leaf may sit. */
export const maxDepth = 8;
/** The most characters of one string, and of all strings of an input, that are traced. */
export const maxLeafChars = 32_000;
const maxInputChars = 64_000;

/**
 * The traced leaves of an input: strings of at least four characters (after normalizing) and
 * finite numbers, each with its path (`a.b`, `items.0`). Own properties only. Past a limit
 * (more leaves, deeper, longer) the input is `beyondLimits`: what was not traced never counts
 * as clean.
 */
export function traceInput(input: unknown): TracedInput {
  const leaves: InputLeaf[] = [];
  let beyondLimits = false;
  let chars = 0;
  const visit = (value: unknown, path: string, depth: number) => {
    if (beyondLimits) return;
    if (typeof value === 'string' || typeof value === 'number') {
      if (leaves.length >= maxLeaves || depth > maxDepth) {
        beyondLimits = true;
        return;
      }
      if (typeof value === 'number') {
        if (Number.isFinite(value)) leaves.push({ path, kind: 'number', value: String(value) });
        return;
      }
      chars += value.length;
      if (value.length > maxLeafChars || chars > maxInputChars) {
        beyondLimits = true;
        return;
      }
      const normalized = normalizeText(value);
      const number = canonicalNumber(normalized);
      if (number !== undefined) leaves.push({ path, kind: 'number', value: number });
      else if (normalized.length >= minTracedLength) leaves.push({ path, kind: 'text', value: normalized });
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (depth >= maxDepth) {
      beyondLimits = true;
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      visit(child, path === '' ? key : `${path}.${key}`, depth + 1);
    }
  };
  visit(input, '', 0);
  return { leaves, beyondLimits };
}
