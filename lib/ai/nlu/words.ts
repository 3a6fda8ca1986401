import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';
import { distance } from 'fastest-levenshtein';
import type englishModel from 'wink-eng-lite-web-model';
import type winkNLP from 'wink-nlp';
import { remembered } from './remembered';

/*
 * Words, not character windows: Chinese is cut into words by jieba (its own dictionary, a native
 * module), English sentences are found by winkNLP's small English model ("J. Okafor" and "Dept."
 * end none). Mistyped action words are found by edit distance (fastest-levenshtein).
 */

// Built on first use (about half a second together, once), so that importing the model costs little.
// jieba is a native module with its dictionary, kept out of the server bundle (see next.config.ts).
const load = createRequire(import.meta.url);
let jieba: Jieba | undefined;
let english: ReturnType<typeof winkNLP> | undefined;
const segmenter = () => {
  if (jieba === undefined) {
    const { Jieba: JiebaClass } = load('@node-rs/jieba') as { Jieba: typeof Jieba };
    const { dict } = load('@node-rs/jieba/dict') as { dict: Uint8Array };
    jieba = JiebaClass.withDict(dict);
  }
  return jieba;
};
const englishReader = () => {
  if (english === undefined) {
    const reader = load('wink-nlp') as typeof winkNLP;
    // Only sentence boundaries are read: the model's other annotations (parts of speech, entities,
    // negation, sentiment) would cost three times as much per letter and are not used.
    english = reader(load('wink-eng-lite-web-model') as typeof englishModel, ['sbd']);
  }
  return english;
};

/** Builds the segmenter and the sentence reader now, so the first message read does not wait on them. */
export function warmUpWords(): void {
  segmenter();
  englishReader();
}

/** One word of a text and where it sits in it. */
export type WordSpan = { text: string; start: number; end: number };

const hanRun = /[\u3400-\u9fff\uf900-\ufaff]+/gu;

/** The Chinese words of `text`, with their offsets (other characters are left out). */
export const chineseWords = remembered(cutChinese);

function cutChinese(text: string): WordSpan[] {
  const words: WordSpan[] = [];
  for (const run of text.matchAll(hanRun)) {
    let at = run.index;
    for (const word of segmenter().cut(run[0], false)) {
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
  /[.!?]\s+\S/u.test(text) ? (englishReader().readDoc(text).sentences().out() as string[]) : [text],
);

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
  'todd',
  'tods',
  'ticker',
  'compliant',
  'odder',
]);

const sameLetters = (a: string, b: string) => [...a].sort().join('') === [...b].sort().join('');

// Each word's reading, remembered: most words of most messages are the same few hundred.
const readWords = new Map<string, string | null>();

/** The action word a mistyped word stands for, or `undefined` when it is no typo of one. */
export function actionWordOf(word: string): string | undefined {
  const known = readWords.get(word);
  if (known !== undefined) return known ?? undefined;
  const meant = spelledActionWord(word);
  if (readWords.size >= 4096) readWords.clear();
  readWords.set(word, meant ?? null);
  return meant;
}

function spelledActionWord(word: string): string | undefined {
  const folded = word.toLowerCase();
  if (folded.length < 4 || realNeighbours.has(folded) || actionWords.includes(folded)) return undefined;
  return actionWords.find((action) => {
    if (folded.startsWith(action) || Math.abs(action.length - folded.length) > 1) return false;
    if (folded.charAt(0) !== action.charAt(0) && (action.length < 6 || folded.charAt(1) !== action.charAt(1)))
      return false;
    const edits = distance(folded, action);
    return edits === 1 || (edits === 2 && folded.length >= 5 && sameLetters(folded, action));
  });
}

/**
 * `text` with mistyped action words written right ("can u open a tikcet pls" → "… a ticket pls").
 * A capitalised word inside a sentence is a name ("call Todd"), never changed.
 */
export function withActionWordsSpelled(text: string): string {
  return text
    .replace(/[A-Za-z]{4,12}/g, (word, offset: number) => {
      const named =
        /^[A-Z][a-z]/.test(word) &&
        !/(?:^|[.!?。！？]\s*)$/u.test(text.slice(Math.max(0, offset - 3), offset));
      return named ? word : (actionWordOf(word) ?? word);
    })
    .replace(pinyinSlip, (slip) => pinyinSlips[slip] ?? slip);
}

/**
 * Chinese action words as a pinyin keyboard mistypes them: the same sounds, other characters
 * ("推款" for 退款, "代办" for 待办, "公单" for 工单). None of them is a word a request would use.
 */
const pinyinSlips: Readonly<Record<string, string>> = {
  推款: '退款',
  退宽: '退款',
  腿款: '退款',
  代办事项: '待办事项',
  代办: '待办',
  待半: '待办',
  公单: '工单',
  工当: '工单',
};
const pinyinSlip = new RegExp(Object.keys(pinyinSlips).join('|'), 'gu');
