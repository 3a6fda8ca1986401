/** A Han character (CJK unified ideographs, extension A, compatibility). */
export const hanPattern = /[\u3400-\u9fff\uf900-\ufaff]/;

/** An order number as people type it: one letter, four to eight digits, standing alone. */
export const orderIdPattern = /(?<![A-Za-z0-9])([A-Za-z]\d{4,8})(?![A-Za-z0-9])/g;

/** Every order number in `text`, upper-cased, in order of appearance, without repeats. */
export function findOrderIds(text: string): string[] {
  const ids = [...text.matchAll(orderIdPattern)].map((match) => (match[1] ?? '').toUpperCase());
  return [...new Set(ids)];
}

/** One token of a message and where it sits in the original text. */
export type Token = { text: string; start: number; end: number };

// A Han character, a Latin word (apostrophes and hyphens inside), a number, or one other visible
// character: every visible character starts a token. ASCII is read by its character codes; the
// rest with `test` where it stands (sticky), which makes no match array per token.
const tokenAt = /[\u3400-\u9fff\uf900-\ufaff]|[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*|[^\sA-Za-z0-9]/uy;
const spaceAt = /\s+/uy;

const isAsciiSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);
const isAsciiLetterOrDigit = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
// What may join two runs of letters and digits into one word: ' ’ -
const isWordJoiner = (code: number) => code === 39 || code === 0x2019 || code === 45;

/** Where the first token at or after `from` starts: past any whitespace (`text.length` when none is left). */
export function tokenStart(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (isAsciiSpace(code)) index += 1;
    else if (code < 128) return index;
    else {
      spaceAt.lastIndex = index;
      if (!spaceAt.test(text)) return index;
      index = spaceAt.lastIndex;
    }
  }
  return index;
}

/** Where the token that starts at `start` (as `tokenStart` found it, before the end of `text`) ends. */
export function tokenEnd(text: string, start: number): number {
  const code = text.charCodeAt(start);
  if (isAsciiLetterOrDigit(code)) {
    let end = start + 1;
    for (;;) {
      while (end < text.length && isAsciiLetterOrDigit(text.charCodeAt(end))) end += 1;
      if (!(isWordJoiner(text.charCodeAt(end)) && isAsciiLetterOrDigit(text.charCodeAt(end + 1)))) return end;
      end += 2;
    }
  }
  if (code < 128) return start + 1;
  tokenAt.lastIndex = start;
  return tokenAt.test(text) ? tokenAt.lastIndex : start + 1;
}

/** Splits a message into tokens with their offsets; whitespace separates but is not a token. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (let start = tokenStart(text, 0); start < text.length; ) {
    const end = tokenEnd(text, start);
    tokens.push({ text: text.slice(start, end), start, end });
    start = tokenStart(text, end);
  }
  return tokens;
}

/**
 * The form a token is compared in: lower case, full-width folded, and every order number the
 * same placeholder, so the model learns "a number here" rather than particular numbers.
 */
export function normalizeToken(token: string): string {
  const known = normalizedTokens.get(token);
  if (known !== undefined) return known;
  const folded = token.normalize('NFKC').toLowerCase().replaceAll('’', "'");
  const normalized = /^[a-z]\d{4,8}$/.test(folded) ? '#id' : /^\d+$/.test(folded) ? '#num' : folded;
  if (normalizedTokens.size >= tokenMemory) normalizedTokens.clear();
  normalizedTokens.set(token, normalized);
  return normalized;
}

// Per token, what it costs to read it, remembered: most tokens of most messages are the same few
// thousand words and characters, and Unicode folding and n-gram strings are the classifier's
// largest cost per message. Cleared when full, so the memory stays bounded.
const tokenMemory = 8192;
const normalizedTokens = new Map<string, string>();
const wordGrams = new Map<string, readonly string[]>();

/** The character 3- and 4-grams of a (normalized) Latin word, padded with `<` and `>`, as features. */
export function wordCharacterGrams(token: string): readonly string[] {
  const known = wordGrams.get(token);
  if (known !== undefined) return known;
  const padded = `<${token}>`;
  const grams: string[] = [];
  for (let size = 3; size <= 4; size += 1) {
    for (let index = 0; index + size <= padded.length; index += 1)
      grams.push(`c:${padded.slice(index, index + size)}`);
  }
  if (wordGrams.size >= tokenMemory) wordGrams.clear();
  wordGrams.set(token, grams);
  return grams;
}

/** True for a (normalized) token of Chinese: the classifier reads it in runs of characters. */
export const isHan = (token: string) => hanPattern.test(token);
/** True for a (normalized) token that is a word or a number (`#id`, `#num` included). */
export const isWord = (token: string) => /^[a-z0-9#]/.test(token);

/**
 * The classifier's features of one message, as a set of strings: Latin words and word pairs,
 * character n-grams inside Latin words (so "reminder" shares evidence with "remind"), and Han
 * character uni-, bi- and trigrams over runs of Chinese (which stand in for word segmentation).
 */
export function intentFeatures(text: string): string[] {
  const tokens = tokenize(text).map((token) => normalizeToken(token.text));
  const features = new Set<string>(['bias']);
  let previousWord = '<s>';
  let hanRun: string[] = [];
  const flushHan = () => {
    for (let index = 0; index < hanRun.length; index += 1) {
      features.add(`h1:${hanRun[index]}`);
      if (index + 1 < hanRun.length) features.add(`h2:${hanRun[index]}${hanRun[index + 1]}`);
      if (index + 2 < hanRun.length) features.add(`h3:${hanRun.slice(index, index + 3).join('')}`);
    }
    hanRun = [];
  };
  for (const token of tokens) {
    if (isHan(token)) {
      hanRun.push(token);
      continue;
    }
    flushHan();
    if (isWord(token)) {
      features.add(`w:${token}`);
      features.add(`w2:${previousWord}_${token}`);
      previousWord = token;
      if (!token.startsWith('#')) for (const gram of wordCharacterGrams(token)) features.add(gram);
    } else if (token === '?' || token === '？') {
      features.add('p:?');
    } else if (token === ':' || token === '：') {
      features.add('p::');
    } else if (token === '$' || token === '¥' || token === '￥') {
      // A currency sign: money is being talked about.
      features.add('p:money');
    }
  }
  flushHan();
  // Length separates "list my todos" from "put <a whole title> on my list".
  const length = tokens.length;
  features.add(`len:${length <= 2 ? 'xs' : length <= 5 ? 's' : length <= 9 ? 'm' : 'l'}`);
  if (previousWord !== '<s>') features.add(`w2:${previousWord}_</s>`);
  return [...features];
}

/**
 * The tagger's view of a token: itself when it is one of the words that frame requests (the
 * `vocabulary` learned from the corpus outside titles), otherwise a placeholder. Titles are open
 * vocabulary; what marks them is where they sit, so the tagger should learn that and not the
 * particular titles it was trained on.
 */
export function titleTokenForm(token: string, vocabulary: ReadonlySet<string>): string {
  if (vocabulary.has(token)) return token;
  return placeholderOf(token);
}

/** The placeholder that stands for an unknown token of this shape. */
export function placeholderOf(token: string): string {
  return isHan(token) ? '<han>' : isWord(token) ? '<word>' : '<punct>';
}

const isSeparator = (token: string) => /^[:：,，;；—-]$/.test(token);
const isPlaceholder = (token: string) => token.startsWith('<');

/**
 * What the tagger needs to know about a whole message, counted once in one pass each way so
 * that the features of every token cost the same however long the message is (the features of
 * one token look at everything before and after it).
 */
export type TitleTokenContext = {
  tokens: readonly string[];
  /** `separatorsBefore[index]`: separators among the tokens before `index`. */
  separatorsBefore: Uint32Array;
  /** `separatorsAfter[index]`: separators after `index`, not counting the last token (a closing "," is no separator). */
  separatorsAfter: Uint32Array;
  /** `placeholdersAfter[index]`: placeholder tokens (`<han>`, `<word>`, …) after `index`. */
  placeholdersAfter: Uint32Array;
};

/** Counts, for every token of a message (in tagger form), the separators and placeholders around it. */
export function titleTokenContext(tokens: readonly string[]): TitleTokenContext {
  const length = tokens.length;
  const separatorsBefore = new Uint32Array(length);
  const separatorsAfter = new Uint32Array(length);
  const placeholdersAfter = new Uint32Array(length);
  const separator = tokens.map(isSeparator);
  const placeholder = tokens.map(isPlaceholder);
  for (let index = 1; index < length; index += 1) {
    separatorsBefore[index] = (separatorsBefore[index - 1] ?? 0) + (separator[index - 1] ? 1 : 0);
  }
  for (let index = length - 2; index >= 0; index -= 1) {
    const next = index + 1;
    separatorsAfter[index] = (separatorsAfter[next] ?? 0) + (next < length - 1 && separator[next] ? 1 : 0);
    placeholdersAfter[index] = (placeholdersAfter[next] ?? 0) + (placeholder[next] ? 1 : 0);
  }
  return { tokens, separatorsBefore, separatorsAfter, placeholdersAfter };
}

/** What kind of token the tagger sees: a Han character, a word, or a mark (placeholders count as what they stand for). */
export function tokenShape(token: string): 'han' | 'word' | 'punct' {
  if (token === '<han>' || isHan(token)) return 'han';
  return token === '<word>' || isWord(token) ? 'word' : 'punct';
}

/** The map under `key` in `outer`, made empty the first time it is asked for. */
export function innerMap<K, K2, V>(outer: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let inner = outer.get(key);
  if (inner === undefined) {
    inner = new Map();
    outer.set(key, inner);
  }
  return inner;
}

/**
 * The title tagger's features of token `index`: the token, its neighbours, the label given to
 * the token before it (tagging runs left to right) and the intent the message was read as.
 * Constant work per token: what it needs of the rest of the message is in `context`.
 */
export function titleTokenFeatures(
  context: TitleTokenContext,
  index: number,
  previousLabel: string,
  intent: string,
): string[] {
  const { tokens } = context;
  const at = (offset: number) => tokens[index + offset] ?? (offset < 0 ? '<s>' : '</s>');
  const current = at(0);
  const shape = tokenShape(current);
  const separatorBefore = (context.separatorsBefore[index] ?? 0) > 0;
  const separatorAfter = (context.separatorsAfter[index] ?? 0) > 0;
  const placeholdersAfter = context.placeholdersAfter[index] ?? 0;
  const toEnd = tokens.length - 1 - index;
  return [
    'bias',
    `i:${intent}`,
    `pl:${previousLabel}`,
    `pl_i:${previousLabel}_${intent}`,
    `w:${current}`,
    `w_pl:${current}_${previousLabel}`,
    `shape:${shape}_${previousLabel}`,
    `p1:${at(-1)}`,
    `p2:${at(-2)}_${at(-1)}`,
    `n1:${at(1)}`,
    `n2:${at(1)}_${at(2)}`,
    `p1w:${at(-1)}_${current}`,
    `wn1:${current}_${at(1)}`,
    `sep:${separatorBefore}_${separatorAfter}_${previousLabel}`,
    `unk_after:${Math.min(placeholdersAfter, 3)}_${previousLabel}`,
    `to_end:${Math.min(toEnd, 4)}_${previousLabel}`,
    `first:${index === 0}`,
    `last:${index === tokens.length - 1}`,
  ];
}
