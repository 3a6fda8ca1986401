import {
  innerMap,
  isHan,
  isWord,
  normalizeToken,
  tokenEnd,
  tokenStart,
  wordCharacterGrams,
} from './features';
import { nluWeights } from './load-weights';

/*
 * The intent classifier's scores, computed the way `intentFeatures` defines them (each feature
 * once, in the order it first appears, its weights summed and scaled by one over the square root
 * of the number of features) but without building a feature's string again once it has been
 * seen: each word, word pair and run of Chinese characters is given its feature's number the
 * first time, remembered, and found by its parts after that. Building and hashing those strings
 * (about fifty for a sentence, hundreds for a letter) was most of the classifier's time and most
 * of what the model allocated per message. Same features, same order, same sums: the same
 * probabilities to the last bit (a test compares them over every message the model is graded on).
 */

const { labels } = nluWeights.intent;

// Remembered numbers, by the parts a feature is made of. Bounded: past `memoryLimit` entries
// in all (new words, new pairs of Chinese characters, numbers of features without weights),
// they are dropped, before a message is read, never in the middle of one.
const memoryLimit = 50_000;
let rememberedCount = 0;
const tokenReadings = new Map<string, TokenReading>();
const wordPairs = new Map<string, Map<string, number>>();
const hanPairs = new Map<string, Map<string, number>>();
const hanTriples = new Map<string, Map<string, Map<string, number>>>();
// The last few texts read and where their readings stood (see `OpenReading`).
const openReadings = new Map<string, OpenReading>();
const openReadingsKept = 8;

// Every feature with weights has a number below `knownCount`, and its weight for label `index`
// at `weightsByLabel[index][number]`. A feature without weights still counts towards the scale,
// so it gets a number too (from `knownCount` up), only to tell it from the others in one message.
let featureNumbers: Map<string, number> | undefined;
let weightsByLabel: Float64Array[] = [];
let knownCount = 0;

function numbers(): Map<string, number> {
  if (featureNumbers !== undefined) return featureNumbers;
  const entries = Object.entries(nluWeights.intent.weights);
  weightsByLabel = labels.map((_, index) => Float64Array.from(entries, ([, values]) => values[index] ?? 0));
  featureNumbers = new Map(entries.map(([feature], number) => [feature, number]));
  knownCount = entries.length;
  return featureNumbers;
}

function numberOf(feature: string): number {
  const known = numbers();
  let number = known.get(feature);
  if (number === undefined) {
    number = known.size;
    known.set(feature, number);
    rememberedCount += 1;
  }
  return number;
}

/** What a token contributes by itself, by its normalized form. */
type TokenReading =
  | { kind: 'han'; unigram: number }
  | { kind: 'word'; word: number; grams: Int32Array }
  | { kind: 'mark'; feature: number }
  | { kind: 'other' };

function forgetIfFull(): void {
  if (rememberedCount < memoryLimit) return;
  rememberedCount = 0;
  tokenReadings.clear();
  wordPairs.clear();
  hanPairs.clear();
  hanTriples.clear();
  openReadings.clear();
  const known = numbers();
  for (const [feature, number] of known) if (number >= knownCount) known.delete(feature);
}

// The marks the classifier reads, and their features.
const marks = new Map([
  ['?', 'p:?'],
  ['？', 'p:?'],
  [':', 'p::'],
  ['：', 'p::'],
  ['$', 'p:money'],
  ['¥', 'p:money'],
  ['￥', 'p:money'],
]);

function tokenReading(token: string): TokenReading {
  const known = tokenReadings.get(token);
  if (known !== undefined) return known;
  let reading: TokenReading;
  if (isHan(token)) reading = { kind: 'han', unigram: numberOf(`h1:${token}`) };
  else if (isWord(token))
    reading = {
      kind: 'word',
      word: numberOf(`w:${token}`),
      grams: Int32Array.from(token.startsWith('#') ? [] : wordCharacterGrams(token), numberOf),
    };
  else {
    const mark = marks.get(token);
    reading = mark === undefined ? { kind: 'other' } : { kind: 'mark', feature: numberOf(mark) };
  }
  rememberedCount += 1;
  tokenReadings.set(token, reading);
  return reading;
}

function pairNumber(
  pairs: Map<string, Map<string, number>>,
  prefix: string,
  first: string,
  second: string,
): number {
  const seconds = innerMap(pairs, first);
  let number = seconds.get(second);
  if (number === undefined) {
    number = numberOf(prefix === 'w2:' ? `w2:${first}_${second}` : `${prefix}${first}${second}`);
    rememberedCount += 1;
    seconds.set(second, number);
  }
  return number;
}

function tripleNumber(first: string, second: string, third: string): number {
  const thirds = innerMap(innerMap(hanTriples, first), second);
  let number = thirds.get(third);
  if (number === undefined) {
    number = numberOf(`h3:${first}${second}${third}`);
    rememberedCount += 1;
    thirds.set(third, number);
  }
  return number;
}

// One message's features: `seen[number] === reading` marks a feature counted in this reading;
// the first `weighedCount` of `weighed` are the ones with weights, in the order they first appeared.
// `counted` holds all `featureCount` of them in that order, so that a reading can be taken up again.
let seen = new Int32Array(1024);
let reading = 0;
let featureCount = 0;
let counted = new Int32Array(256);
let weighed = new Int32Array(256);
let weighedCount = 0;

const grown = (array: Int32Array, length: number) => {
  const larger = new Int32Array(Math.max(length, array.length * 2));
  larger.set(array);
  return larger;
};

function count(number: number): void {
  if (number >= seen.length) seen = grown(seen, number + 1);
  if (seen[number] === reading) return;
  seen[number] = reading;
  if (featureCount === counted.length) counted = grown(counted, featureCount + 1);
  counted[featureCount] = number;
  featureCount += 1;
  if (number >= knownCount) return;
  if (weighedCount === weighed.length) weighed = grown(weighed, weighedCount + 1);
  weighed[weighedCount] = number;
  weighedCount += 1;
}

// The run of Chinese characters being read: its first `hanRunLength` tokens and their unigrams.
const hanRun: string[] = [];
const hanUnigrams: number[] = [];
let hanRunLength = 0;

function countHanRun(): void {
  for (let index = 0; index < hanRunLength; index += 1) {
    const first = hanRun[index] as string;
    count(hanUnigrams[index] as number);
    if (index + 1 < hanRunLength) count(pairNumber(hanPairs, 'h2:', first, hanRun[index + 1] as string));
    if (index + 2 < hanRunLength)
      count(tripleNumber(first, hanRun[index + 1] as string, hanRun[index + 2] as string));
  }
  hanRunLength = 0;
}

/**
 * Where the reading of a text stood at its end, before the features that only its end has (its
 * length, its last word): the features counted so far in order, the last word, the run of Chinese
 * characters not yet counted, the tokens read. A longer text that starts with it is read on from
 * there: "Dear Support Team, I hope…" is read once, not again for every clause that joins it.
 */
type OpenReading = {
  counted: Int32Array;
  previousWord: string;
  hanRun: string[];
  hanUnigrams: number[];
  tokens: number;
};

// A character that a token can carry on across ("don" + "’t", "A10" + "01", half of a surrogate pair).
const continues = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x27 ||
  code === 0x2019 ||
  code === 0x2d ||
  (code >= 0xd800 && code <= 0xdfff);

/** The reading of the longest remembered text that `text` starts with and goes on from between two tokens. */
function openReadingBefore(text: string): { length: number; open: OpenReading } | undefined {
  let found: { length: number; open: OpenReading } | undefined;
  for (const [before, open] of openReadings) {
    const { length } = before;
    if (length >= text.length || length <= (found?.length ?? 0) || !text.startsWith(before)) continue;
    if (continues(text.charCodeAt(length - 1)) && continues(text.charCodeAt(length))) continue;
    found = { length, open };
  }
  return found;
}

function keepOpenReading(text: string, previousWord: string, tokens: number): void {
  if (openReadings.has(text)) return;
  if (openReadings.size >= openReadingsKept) openReadings.delete(openReadings.keys().next().value as string);
  openReadings.set(text, {
    counted: counted.slice(0, featureCount),
    previousWord,
    hanRun: hanRun.slice(0, hanRunLength),
    hanUnigrams: hanUnigrams.slice(0, hanRunLength),
    tokens,
  });
}

/**
 * The classifier's raw score for each label (in the weights' label order) of one clause: the
 * weights of `intentFeatures(text)` summed in its order and scaled by one over the square root
 * of their number.
 */
export function intentScores(text: string): number[] {
  numbers();
  forgetIfFull();
  reading = reading === 0x7fffffff ? 1 : reading + 1;
  if (reading === 1) seen.fill(0);
  featureCount = 0;
  weighedCount = 0;
  hanRunLength = 0;
  let previousWord = '<s>';
  let tokens = 0;
  let from = 0;
  const before = openReadingBefore(text);
  if (before === undefined) {
    count(numberOf('bias'));
  } else {
    const { open } = before;
    for (const number of open.counted) count(number);
    previousWord = open.previousWord;
    tokens = open.tokens;
    open.hanRun.forEach((token, index) => {
      hanRun[index] = token;
      hanUnigrams[index] = open.hanUnigrams[index] as number;
    });
    hanRunLength = open.hanRun.length;
    from = before.length;
  }
  for (let start = tokenStart(text, from), end = 0; start < text.length; start = tokenStart(text, end)) {
    end = tokenEnd(text, start);
    tokens += 1;
    const token = normalizeToken(text.slice(start, end));
    const read = tokenReading(token);
    if (read.kind === 'han') {
      hanRun[hanRunLength] = token;
      hanUnigrams[hanRunLength] = read.unigram;
      hanRunLength += 1;
      continue;
    }
    countHanRun();
    if (read.kind === 'word') {
      count(read.word);
      count(pairNumber(wordPairs, 'w2:', previousWord, token));
      previousWord = token;
      for (const gram of read.grams) count(gram);
    } else if (read.kind === 'mark') {
      count(read.feature);
    }
  }
  keepOpenReading(text, previousWord, tokens);
  countHanRun();
  count(numberOf(`len:${tokens <= 2 ? 'xs' : tokens <= 5 ? 's' : tokens <= 9 ? 'm' : 'l'}`));
  if (previousWord !== '<s>') count(pairNumber(wordPairs, 'w2:', previousWord, '</s>'));
  // Label by label, each feature's weight times the scale added in the order the features came.
  const scale = 1 / Math.sqrt(featureCount);
  const numbersWeighed = weighed;
  const length = weighedCount;
  const scores: number[] = [];
  for (const weights of weightsByLabel) {
    let score = 0;
    for (let index = 0; index < length; index += 1)
      score += (weights[numbersWeighed[index] as number] as number) * scale;
    scores.push(score);
  }
  return scores;
}
