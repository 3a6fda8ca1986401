import type { InputLeaf } from './input-leaves';
import { canonicalNumber, isWordBoundary, wordsOf } from './normalize-text';

/** Where a text the index holds came from: the person's own words, or a tool output (or file). */
export type SourceEntry =
  | { kind: 'user' }
  | { kind: 'tool'; tool: string; toolCallId: string; trusted: boolean };

/** What the index found for one leaf: the user's text among its sources or not, and the outputs that hold it. */
export type LeafMatch = { byUser: boolean; outputs: Extract<SourceEntry, { kind: 'tool' }>[] };

/** The most outputs one leaf lists; untrusted ones first, so trusted copies never hide them. */
export const maxSourcesPerLeaf = 8;
/**
 * The most characters one leaf's phrase is looked for in, beyond the word index. Past it an
 * untrusted output that holds every word of the leaf counts as a source (fail closed), and the
 * user's text that was not searched does not.
 */
const maxVerifiedChars = 256_000;
/** Texts tried for a leaf's list of sources once what decides its taint is known. */
const maxExtraMisses = 16;

/**
 * The texts of a chat indexed once per turn: every word (and every number, in canonical form)
 * maps to the texts that hold it, so a leaf is looked up in time that does not grow with the
 * chat. A leaf of several words is then confirmed, as a phrase standing on word boundaries, in
 * the few texts that hold all its words.
 */
export class SourceIndex {
  private readonly texts: string[] = [];
  private readonly entries: SourceEntry[] = [];
  private readonly words = new Map<string, number[]>();
  private readonly numbers = new Map<string, number[]>();
  /** Characters held, for the caller's budget. */
  chars = 0;

  /** Adds one normalized text and where it came from. */
  add(entry: SourceEntry, text: string): void {
    if (text === '') return;
    const id = this.texts.length;
    this.texts.push(text);
    this.entries.push(entry);
    this.chars += text.length;
    for (const word of wordsOf(text)) {
      post(this.words, word, id);
      const number = canonicalNumber(word);
      if (number !== undefined) post(this.numbers, number, id);
    }
  }

  /** Where one leaf occurs: the user's text, and the outputs (untrusted first). */
  find(leaf: InputLeaf): LeafMatch {
    const candidates = leaf.kind === 'number' ? (this.numbers.get(leaf.value) ?? []) : this.candidates(leaf);
    // A number, or a text of one word, is matched by the index alone: a whole word is a whole token.
    const exact = leaf.kind === 'number' || wordsOf(leaf.value).length === 1;
    let budget = maxVerifiedChars;
    let byUser = false;
    const untrusted: Extract<SourceEntry, { kind: 'tool' }>[] = [];
    const trusted: Extract<SourceEntry, { kind: 'tool' }>[] = [];
    const seen = new Set<string>();
    const holds = (id: number, failClosed: boolean): boolean => {
      if (exact) return true;
      const text = this.texts[id] as string;
      if (budget <= 0) return failClosed;
      budget -= text.length;
      return occursAsPhrase(leaf.value, text);
    };
    for (const pass of ['user', 'untrusted', 'trusted'] as const) {
      // Once a pass has what it must know (an untrusted source; for trusted ones, anything),
      // a few more texts are tried for the card's list, not every candidate.
      let misses = 0;
      for (const id of candidates) {
        if (misses > maxExtraMisses && (pass === 'trusted' || untrusted.length > 0)) break;
        const entry = this.entries[id] as SourceEntry;
        if (pass === 'user') {
          if (entry.kind !== 'user' || byUser) continue;
          if (holds(id, false)) byUser = true;
          continue;
        }
        if (entry.kind !== 'tool' || entry.trusted !== (pass === 'trusted')) continue;
        if (seen.has(entry.toolCallId)) continue;
        const list = pass === 'trusted' ? trusted : untrusted;
        if (untrusted.length + trusted.length >= maxSourcesPerLeaf) break;
        if (holds(id, pass === 'untrusted')) {
          seen.add(entry.toolCallId);
          list.push(entry);
        } else misses += 1;
      }
    }
    return { byUser, outputs: [...untrusted, ...trusted] };
  }

  /** The texts that hold every word of a text leaf (ascending ids). */
  private candidates(leaf: InputLeaf): number[] {
    const lists: number[][] = [];
    for (const word of new Set(wordsOf(leaf.value))) {
      const postings = this.words.get(word);
      if (postings === undefined) return [];
      lists.push(postings);
    }
    if (lists.length === 0) return [];
    lists.sort((a, b) => a.length - b.length);
    const [shortest, ...rest] = lists as [number[], ...number[][]];
    return shortest.filter((id) => rest.every((list) => includesSorted(list, id)));
  }
}

function post(map: Map<string, number[]>, key: string, id: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [id]);
  else if (list[list.length - 1] !== id) list.push(id);
}

function includesSorted(list: number[], value: number): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = list[middle] as number;
    if (at === value) return true;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Whether `phrase` occurs in `text` starting and ending on word boundaries. */
function occursAsPhrase(phrase: string, text: string): boolean {
  const startsWord = !isWordBoundary(phrase[0]);
  const endsWord = !isWordBoundary(phrase[phrase.length - 1]);
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
    if (startsWord && !isWordBoundary(text[at - 1])) continue;
    if (endsWord && !isWordBoundary(text[at + phrase.length])) continue;
    return true;
  }
  return false;
}
