import type { ToolPreview } from './tool-descriptor';
import type { Localized } from './tool-facts';

/**
 * Folds a title for comparison: full-width to half-width and compatibility forms (NFKC),
 * case, punctuation and symbols dropped, runs of space collapsed.
 */
export function foldTitle(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** The character pairs of each word (a one-character word stands for itself): works for Chinese without a segmenter. */
function bigramsOf(folded: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of folded.split(' ')) {
    const characters = Array.from(word);
    const grams =
      characters.length < 2
        ? characters
        : characters.slice(1).map((character, index) => characters[index] + character);
    for (const gram of grams) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

/** How alike two titles are, 0–1: the Dice coefficient of their folded titles' character pairs. */
export function titleSimilarity(first: string, second: string): number {
  const a = foldTitle(first);
  const b = foldTitle(second);
  if (a === '' || b === '') return 0;
  if (a === b) return 1;
  const gramsA = bigramsOf(a);
  const gramsB = bigramsOf(b);
  let shared = 0;
  let total = 0;
  for (const count of gramsA.values()) total += count;
  for (const [gram, count] of gramsB) {
    total += count;
    shared += Math.min(count, gramsA.get(gram) ?? 0);
  }
  return total === 0 ? 0 : (2 * shared) / total;
}

/** At or above this, two titles are taken to mean the same thing. */
export const similarTitleThreshold = 0.6;

/** The items whose title is similar to `title`, most similar first. */
export function similarTitles<ITEM extends { title: string }>(
  title: string,
  items: readonly ITEM[],
  threshold = similarTitleThreshold,
): ITEM[] {
  return items
    .map((item) => ({ item, score: titleSimilarity(title, item.title) }))
    .filter(({ score }) => score >= threshold)
    .sort((first, second) => second.score - first.score)
    .map(({ item }) => item);
}

/** How many of a user's most recent open items (tickets, to-dos) a card's preview compares with: bounded work per card. */
export const recentOpenItemsCompared = 50;

/**
 * The preview of a call that adds an item: a warning for each of the user's `open` items
 * whose title is like `title` (at most three, most similar first), worded by `warning`.
 */
export function similarOpenItemsPreview<ITEM extends { title: string }>(
  title: string,
  open: readonly ITEM[],
  warning: (item: ITEM) => Localized,
): ToolPreview {
  return {
    lines: [],
    warnings: similarTitles(title, open)
      .slice(0, 3)
      .map((item) => warning(item)),
  };
}
