import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict';
import { distance } from 'fastest-levenshtein';
import englishModel from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';
import { remembered } from './remembered';

/*
 * Words, not character windows: Chinese is cut into words by jieba (its own dictionary, a native
 * module), English is read by winkNLP's small English model (sentences and parts of speech).
 * Both load once, when this module is first imported (about half a second together), and then
 * read a message in well under a millisecond.
 */

// A native module with its dictionary: kept out of the server bundle (see next.config.ts).
const jieba = Jieba.withDict(dict);
const english = winkNLP(englishModel);
const its = english.its;

/** One word of a text and where it sits in it. */
export type WordSpan = { text: string; start: number; end: number };

const hanRun = /[\u3400-\u9fff\uf900-\ufaff]+/gu;

/** The Chinese words of `text`, with their offsets (other characters are left out). */
export const chineseWords = remembered(cutChinese);

function cutChinese(text: string): WordSpan[] {
  const words: WordSpan[] = [];
  for (const run of text.matchAll(hanRun)) {
    let at = run.index;
    for (const word of jieba.cut(run[0], false)) {
      words.push({ text: word, start: at, end: at + word.length });
      at += word.length;
    }
  }
  return words;
}

/**
 * Where word boundaries fall in `text`: every offset that starts or ends a Chinese word (by
 * jieba) or a Latin word, so a title can be cut only there.
 */
export const wordBoundaries = remembered(findWordBoundaries);

function findWordBoundaries(text: string): ReadonlySet<number> {
  const boundaries = new Set<number>([0, text.length]);
  for (const word of chineseWords(text)) {
    boundaries.add(word.start);
    boundaries.add(word.end);
  }
  for (const word of text.matchAll(/[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*/gu)) {
    boundaries.add(word.index);
    boundaries.add(word.index + word[0].length);
  }
  return boundaries;
}

/** The English sentences of `text`, in order, as written ("J. Okafor" and "Dept." do not end one). */
export const englishSentences = remembered((text: string): readonly string[] =>
  // A text with no full stop, question or exclamation mark inside it is one sentence: no need to read it.
  /[.!?]\s+\S/u.test(text) ? (english.readDoc(text).sentences().out() as string[]) : [text],
);

/** The part-of-speech tag (Universal Dependencies: NOUN, VERB, ADP…) of each English token of `text`. */
export function englishTags(text: string): { token: string; tag: string }[] {
  const doc = english.readDoc(text);
  const tokens = doc.tokens().out() as string[];
  const tags = doc.tokens().out(its.pos) as string[];
  return tokens.map((token, index) => ({ token, tag: tags[index] ?? 'X' }));
}

/**
 * The words that name an action or its object, which a typo must not hide ("tikcet", "refnd",
 * "remaind"). A word one edit away from one of them, or two letters swapped, is read as it; real
 * words that happen to be that close are listed apart and never changed.
 */
const actionWords = ['ticket', 'refund', 'remind', 'reminder', 'complaint', 'complain', 'todo', 'order'];
const realNeighbours = new Set([
  'picket',
  'wicket',
  'ticked',
  'tickle',
  'rocket',
  'pocket',
  'locket',
  'remand',
  'rewind',
  'refine',
  'refuse',
  'behind',
  'older',
  'border',
  'ordered',
  'orders',
  'odor',
  'today',
  'toad',
  'tofu',
  'tool',
  'told',
  'tons',
  'took',
]);

const sameLetters = (a: string, b: string) => [...a].sort().join('') === [...b].sort().join('');

/** The action word a mistyped word stands for, or `undefined` when it is no typo of one. */
export function actionWordOf(word: string): string | undefined {
  const folded = word.toLowerCase();
  if (folded.length < 4 || realNeighbours.has(folded) || actionWords.includes(folded)) return undefined;
  return actionWords.find((action) => {
    if (folded.startsWith(action) || Math.abs(action.length - folded.length) > 1) return false;
    if (action.length < 6 && folded.charAt(0) !== action.charAt(0)) return false;
    const edits = distance(folded, action);
    return edits === 1 || (edits === 2 && folded.length >= 5 && sameLetters(folded, action));
  });
}

/** `text` with mistyped action words written right ("can u open a tikcet pls" → "… a ticket pls"). */
export function withActionWordsSpelled(text: string): string {
  return text.replace(/[A-Za-z]{4,12}/g, (word) => actionWordOf(word) ?? word);
}
