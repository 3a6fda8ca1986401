import { type IntentLabel, intentLabels, requestIntentLabels } from '@/lib/tools/intent-labels';
import type { Language } from '../language';
import { type CorpusSource, heldOutSource, trainSource } from './corpus-templates';

/** One labelled utterance. `titleSpan` marks the title in `text` for the title extractor. */
export type Utterance = {
  text: string;
  intent: IntentLabel;
  language: Language;
  titleSpan?: readonly [number, number];
  orderIds: readonly string[];
};

/** A small seeded generator (mulberry32): the same seed always gives the same corpus. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The labels the corpus began with. They draw their slot values and frames from one shared
 * stream, in this order, so their utterances (and so the held-out set they are graded on) stay
 * as they were when a label joins later; each later label draws from a stream of its own (the
 * next seeds, in label order), after them.
 */
const firstLabels: readonly IntentLabel[] = [
  'createTicket',
  'getOrderStatus',
  'searchKnowledgeBase',
  'addTodo',
  'listTodos',
  'greeting',
  'thanks',
  'other',
];

const pick = <VALUE>(random: () => number, values: readonly VALUE[]): VALUE =>
  values[Math.floor(random() * values.length)] as VALUE;

/** Variations people add around a request: politeness, punctuation, capitals. */
const framesByLanguage: Record<Language, { prefixes: readonly string[]; suffixes: readonly string[] }> = {
  en: {
    prefixes: ['', '', '', 'please ', 'hey, ', 'could you '],
    suffixes: ['', '', '.', '?', '!', ' thanks'],
  },
  zh: { prefixes: ['', '', '', '请', '麻烦', '你好，'], suffixes: ['', '', '。', '？', '！', '，谢谢'] },
};

const requestIntents = new Set<IntentLabel>(requestIntentLabels);

type Realization = { text: string; titleSpan?: [number, number]; orderIds: string[] };

function orderId(random: () => number, letters: string): string {
  const id = `${pick(random, [...letters])}${1000 + Math.floor(random() * 9000)}`;
  return random() < 0.2 ? id.toLowerCase() : id;
}

/** Fills one template's slots; the `{title}` span is recorded as it is written. */
function realize(
  template: string,
  intent: IntentLabel,
  language: Language,
  title: string,
  source: CorpusSource,
  random: () => number,
): Realization {
  let text = '';
  let titleSpan: [number, number] | undefined;
  const orderIds: string[] = [];
  for (const piece of template.split(/(\{\w+\})/)) {
    switch (piece) {
      case '{title}': {
        // A ticket title may name an order ("order {id} arrived broken").
        const filled = title.replace(/\{id\}/g, () => orderId(random, source.values.orderLetters));
        titleSpan = [text.length, text.length + filled.length];
        text += filled;
        break;
      }
      case '{id}':
      case '{id2}': {
        const id = orderId(random, source.values.orderLetters);
        orderIds.push(id.toUpperCase());
        text += id;
        break;
      }
      case '{item}':
        text += pick(random, source.values.item[language]);
        break;
      case '{topic}':
        text += pick(random, source.values.topic[language]);
        break;
      case '{amount}':
        text += pick(random, source.values.amount[language]);
        break;
      case '{reason}':
        text += pick(random, source.values.refundReason[language]);
        break;
      default:
        text += piece;
    }
  }
  // Titles are only supervised where the intent carries one: a bare title is `other`.
  const keepSpan = intent === 'createTicket' || intent === 'addTodo';
  return { text, titleSpan: keepSpan ? titleSpan : undefined, orderIds: [...new Set(orderIds)] };
}

/** Wraps a realization in a random frame (and sometimes a capital), moving the title span with it. */
function frame(realization: Realization, intent: IntentLabel, language: Language, random: () => number) {
  const { prefixes, suffixes } = framesByLanguage[language];
  const prefix = requestIntents.has(intent) ? pick(random, prefixes) : '';
  // Thanks after a greeting or a remark makes it thanks: only requests get the thankful endings.
  const suffix = pick(
    random,
    requestIntents.has(intent) ? suffixes : suffixes.filter((end) => !/thanks|谢谢/.test(end)),
  );
  let text = `${prefix}${realization.text}${suffix}`;
  if (language === 'en' && random() < 0.3) text = text.charAt(0).toUpperCase() + text.slice(1);
  const titleSpan = realization.titleSpan?.map((offset) => offset + prefix.length) as
    | [number, number]
    | undefined;
  return { text, titleSpan, orderIds: realization.orderIds };
}

/**
 * The labelled corpus of one split. `train` is what the shipped weights are fitted on;
 * `heldOut` uses other templates and other slot values and is only ever scored. Each template
 * is realised several times with different slot values and frames; duplicates are dropped.
 */
export function generateCorpus(split: 'train' | 'heldOut'): Utterance[] {
  const source = split === 'train' ? trainSource : heldOutSource;
  const seed = split === 'train' ? 20261201 : 777;
  const shared = seededRandom(seed);
  const laterLabels = intentLabels.filter((label) => !firstLabels.includes(label));
  const perTitleTemplate = split === 'train' ? 6 : 5;
  const perOtherTemplate = split === 'train' ? 6 : 3;
  const seen = new Set<string>();
  const utterances: Utterance[] = [];
  for (const intent of [...firstLabels, ...laterLabels]) {
    const random = firstLabels.includes(intent)
      ? shared
      : seededRandom(seed + 1 + laterLabels.indexOf(intent));
    for (const language of ['en', 'zh'] as const) {
      const titles =
        intent === 'createTicket'
          ? source.values.ticketTitle[language]
          : intent === 'addTodo'
            ? source.values.todoTitle[language]
            : [...source.values.todoTitle[language], ...source.values.ticketTitle[language]];
      for (const template of source.templates[intent][language]) {
        // A bare title is what follow-up answers look like: give the model many to tell them from requests.
        const count = !template.includes('{title}')
          ? perOtherTemplate
          : template === '{title}'
            ? perTitleTemplate * 5
            : perTitleTemplate;
        for (let index = 0; index < count; index += 1) {
          const title = pick(random, titles);
          const realization = frame(
            realize(template, intent, language, title, source, random),
            intent,
            language,
            random,
          );
          if (seen.has(realization.text)) continue;
          seen.add(realization.text);
          utterances.push({ ...realization, intent, language });
        }
      }
    }
  }
  return utterances;
}
