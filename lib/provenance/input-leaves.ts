import { normalizeText } from './normalize-text';

/** One value of a call's input that provenance traces: its path and its compared form. */
export type InputLeaf = { path: string; kind: 'text' | 'number'; value: string };

/** Shorter strings ("yes", "A1") occur everywhere by chance: they are not traced. */
export const minTracedLength = 4;

/** How many leaves of one input are traced; an input with more is traced by its first ones. */
const maxLeaves = 64;
const maxDepth = 8;

/**
 * The traced leaves of an input: strings of at least four characters (after normalizing)
 * and finite numbers, each with its path (`a.b`, `items.0`). Own properties only.
 */
export function inputLeaves(input: unknown): InputLeaf[] {
  const leaves: InputLeaf[] = [];
  const visit = (value: unknown, path: string, depth: number) => {
    if (leaves.length >= maxLeaves || depth > maxDepth) return;
    if (typeof value === 'string') {
      const normalized = normalizeText(value);
      if (normalized.length >= minTracedLength) leaves.push({ path, kind: 'text', value: normalized });
      return;
    }
    if (typeof value === 'number') {
      if (Number.isFinite(value)) leaves.push({ path, kind: 'number', value: String(value) });
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      visit(child, path === '' ? key : `${path}.${key}`, depth + 1);
    }
  };
  visit(input, '', 0);
  return leaves;
}
