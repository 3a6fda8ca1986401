/**
 * The form values and texts are compared in: invisible characters removed (Unicode format
 * characters such as U+200B, variation selectors), NFKC (full-width digits and letters become
 * plain ones), Cyrillic and Greek letters that look Latin read as Latin, case folded, every run
 * of whitespace one space, trimmed. A model that copies "Ａ１００２" as "a1002", or "А1003"
 * with a Cyrillic А as "A1003", is still copying.
 */
export function normalizeText(text: string): string {
  // Plain ASCII is its own form: skip the costlier passes for the common case.
  if (!beyondPlainAscii.test(text)) return text.toLowerCase().replace(whitespaceRuns, ' ').trim();
  const visible = text.replace(invisible, '').normalize('NFKC').toLowerCase();
  return visible
    .replace(lookAlikes, (letter) => latinOf[letter] ?? letter)
    .replace(whitespaceRuns, ' ')
    .trim();
}

/**
 * The number a word of normalized text spells, in one canonical form (`40.50`, `$40.5` and
 * `40.5` all give `"40.5"`), or undefined. Only a whole word counts: "2026-03-40", "a1040"
 * and "40x" spell no number.
 */
export function canonicalNumber(word: string): string | undefined {
  const first = word.charCodeAt(0);
  // Most words start with a letter: no regex for them.
  if (first >= 0x61 && first <= 0x7a) return undefined;
  if (word.length > maxNumberLength || !numberWord.test(word)) return undefined;
  const value = Number(word.replace(numberDecorations, ''));
  return Number.isFinite(value) ? String(value) : undefined;
}

/**
 * The words of normalized text: split at whitespace and punctuation that ends a word (a
 * sentence's full stop, a comma, quotes, brackets), with every Chinese, Japanese or Korean
 * character a word of its own. Hyphens, slashes and colons inside a word keep it whole, so a
 * date or an id stays one word. A number written with thousands separators ("1,000") is a word
 * too, beside its pieces.
 */
export function wordsOf(text: string): string[] {
  const words: string[] = text.includes(',') ? (text.match(thousands) ?? []) : [];
  for (const piece of text.match(wordPieces) ?? []) {
    const word = trimEdges(piece);
    if (word === '') continue;
    if (beyondPlainAscii.test(word) && ideographic.test(word)) {
      for (const part of word.match(ideographicOrRun) ?? []) {
        const trimmed = trimEdges(part);
        if (trimmed !== '') words.push(trimmed);
      }
    } else words.push(word);
  }
  return words;
}

/** A word without the punctuation that ends a sentence or a label around it (checked by code: this runs per word). */
function trimEdges(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && edgeCharacters.has(word.charCodeAt(start))) start += 1;
  while (end > start && edgeCharacters.has(word.charCodeAt(end - 1)) && word.charCodeAt(end - 1) !== 0x2d)
    end -= 1;
  return start === 0 && end === word.length ? word : word.slice(start, end);
}

/** Whether a character ends a word on its side (anything but a letter, a digit or a joining mark). */
export function isWordBoundary(character: string | undefined): boolean {
  return character === undefined || !wordCharacter.test(character) || ideographic.test(character);
}

// Every run of whitespace but a lone space (which stays as it is, the common case, untouched).
const whitespaceRuns = / ?[^\S ]\s*| {2,}\s*/g;

// Anything but printable ASCII and the usual whitespace may change under the passes above.
const beyondPlainAscii = /[^\t\n\v\f\r\x20-\x7e]/;

// Format characters (zero-width space and joiners, soft hyphen, bidirectional marks) and variation selectors.
const invisible = /\p{Cf}|\p{Variation_Selector}|\u{034f}/gu;

/** Lower-case Cyrillic and Greek letters that look like a Latin letter (after case folding). */
const latinOf: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  һ: 'h',
  ɡ: 'g',
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ζ: 'z',
  η: 'n',
  μ: 'u',
};
const lookAlikes = new RegExp(`[${Object.keys(latinOf).join('')}]`, 'g');

const maxNumberLength = 40;
const numberWord = /^[-+]?[$€£¥₹]?(?:\d+(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?)$/;
const numberDecorations = /[$€£¥₹,+]/g;

// A run of anything but whitespace, quotes, brackets, and , ; ! ?
const wordPieces = /[^\s,;!?"'`()[\]{}<>«»“”‘’，。；！？、（）【】《》「」]+/g;
const thousands = /(?<![\w.,])[$€£¥₹]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w,]|\.\d)/g;
// A full stop or colon that ends a sentence or a label, an ellipsis, emphasis; a dash only in front (a list's).
const edgeCharacters = new Set([0x2e, 0x3a, 0x2026, 0x2a, 0x5f, 0x7e, 0x2d]);
const ideographic = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;
const ideographicOrRun =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]|[^\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]+/gu;
const wordCharacter = /[\p{L}\p{N}\p{M}]/u;
