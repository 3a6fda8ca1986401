import { isHan, isWord, normalizeToken, tokenEnd, tokenStart, wordCharacterGrams } from './features';
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
let remembered = 0;
const tokenReadings = new Map<string, TokenReading>();
const wordPairs = new Map<string, Map<string, number>>();
const hanPairs = new Map<string, Map<string, number>>();
const hanTriples = new Map<string, Map<string, Map<string, number>>>();

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
    remembered += 1;
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
  if (remembered < memoryLimit) return;
  remembered = 0;
  tokenReadings.clear();
  wordPairs.clear();
  hanPairs.clear();
  hanTriples.clear();
  const known = numbers();
  for (const [feature, number] of known) if (number >= knownCount) known.delete(feature);
}

const marks: Readonly<Record<string, string>> = {
  '?': 'p:?',
  '？': 'p:?',
  ':': 'p::',
  '：': 'p::',
  $: 'p:money',
  '¥': 'p:money',
  '￥': 'p:money',
};

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
  else if (marks[token] !== undefined) reading = { kind: 'mark', feature: numberOf(marks[token]) };
  else reading = { kind: 'other' };
  remembered += 1;
  tokenReadings.set(token, reading);
  return reading;
}

function pairNumber(
  pairs: Map<string, Map<string, number>>,
  prefix: string,
  first: string,
  second: string,
): number {
  let seconds = pairs.get(first);
  if (seconds === undefined) {
    seconds = new Map();
    pairs.set(first, seconds);
  }
  let number = seconds.get(second);
  if (number === undefined) {
    number = numberOf(prefix === 'w2:' ? `w2:${first}_${second}` : `${prefix}${first}${second}`);
    remembered += 1;
    seconds.set(second, number);
  }
  return number;
}

function tripleNumber(first: string, second: string, third: string): number {
  let seconds = hanTriples.get(first);
  if (seconds === undefined) {
    seconds = new Map();
    hanTriples.set(first, seconds);
  }
  let thirds = seconds.get(second);
  if (thirds === undefined) {
    thirds = new Map();
    seconds.set(second, thirds);
  }
  let number = thirds.get(third);
  if (number === undefined) {
    number = numberOf(`h3:${first}${second}${third}`);
    remembered += 1;
    thirds.set(third, number);
  }
  return number;
}

// One message's features: `seen[number] === reading` marks a feature counted in this reading;
// the first `weighedCount` of `weighed` are the ones with weights, in the order they first appeared.
let seen = new Int32Array(1024);
let reading = 0;
let featureCount = 0;
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
  count(numberOf('bias'));
  let previousWord = '<s>';
  let tokens = 0;
  for (let start = tokenStart(text, 0), end = 0; start < text.length; start = tokenStart(text, end)) {
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
