import type { IntentLabel } from '@/lib/tools/intent-labels';
import { characterGrams, isHan, isWord, normalizeToken, tokenize } from './features';
import { nluWeights } from './load-weights';
import { remembered } from './remembered';

/** The intent model's reading of one clause: the best label, its probability, and all of them. */
export type IntentReading = {
  intent: IntentLabel;
  confidence: number;
  probabilities: Record<IntentLabel, number>;
};

/** Classifies one clause with the shipped logistic-regression weights (a softmax over the labels). */
export const classifyIntent = remembered((text: string) => new ClauseReader(text).reading(), 64);

/*
 * The model's features as numbers: every feature the weights know has its id (its row in one
 * array of weights). A feature they do not know still counts (the scores are scaled by how many
 * distinct features a clause has), so a clause keeps those by name. A Latin word's features (the
 * word and its character n-grams) are sorted into known and unknown once per word, not per use.
 * These are the same features as `intentFeatures`, which training reads; only the lookups differ.
 */
type WordFeatures = { known: Int32Array; unknown: readonly string[] };
type FeatureTable = {
  labelCount: number;
  /** `rows[id * labelCount + label]`: the weight of feature `id` towards `label`. */
  rows: Float64Array;
  ids: ReadonlyMap<string, number>;
  words: Map<string, WordFeatures>;
};

let table: FeatureTable | undefined;

/** Words whose features are remembered at most; past this they are forgotten and looked up again. */
const wordMemory = 8192;

function featureTable(): FeatureTable {
  if (table !== undefined) return table;
  const { labels, weights } = nluWeights.intent;
  const entries = Object.entries(weights);
  const rows = new Float64Array(entries.length * labels.length);
  const ids = new Map<string, number>();
  entries.forEach(([feature, values], id) => {
    ids.set(feature, id);
    for (let label = 0; label < labels.length; label += 1)
      rows[id * labels.length + label] = values[label] ?? 0;
  });
  table = { labelCount: labels.length, rows, ids, words: new Map() };
  return table;
}

function wordFeaturesOf(features: FeatureTable, word: string): WordFeatures {
  let found = features.words.get(word);
  if (found === undefined) {
    const all = [`w:${word}`, ...(word.startsWith('#') ? [] : characterGrams(word))];
    found = {
      known: Int32Array.from(all.flatMap((feature) => features.ids.get(feature) ?? [])),
      unknown: all.filter((feature) => !features.ids.has(feature)),
    };
    if (features.words.size >= wordMemory) features.words.clear();
    features.words.set(word, found);
  }
  return found;
}

/**
 * A clause read with the classifier. Later pieces of the message may join it (`read`): each
 * piece's tokens are read once and the per-label sums of the features found so far are kept, so
 * a clause that grows piece by piece costs its length, not its length times its pieces. Its
 * reading is that of the whole clause: the features of `intentFeatures`, each counted once.
 */
export class ClauseReader {
  private readonly features = featureTable();
  private readonly seen = new Set<number>();
  private readonly seenUnknown = new Set<string>();
  private readonly sums = new Float64Array(this.features.labelCount);
  private previousWord = '<s>';
  // The last two Han tokens of the run the text read so far ends in ('' when it ends in none).
  private han1 = '';
  private han2 = '';
  private tokenCount = 0;

  constructor(text: string) {
    this.addFeature('bias');
    this.read(text);
  }

  private add(id: number): void {
    if (this.seen.has(id)) return;
    this.seen.add(id);
    const { labelCount, rows } = this.features;
    for (let label = 0; label < labelCount; label += 1)
      this.sums[label] = (this.sums[label] ?? 0) + (rows[id * labelCount + label] ?? 0);
  }

  private addFeature(feature: string): void {
    const id = this.features.ids.get(feature);
    if (id === undefined) this.seenUnknown.add(feature);
    else this.add(id);
  }

  /** Reads the next piece of the clause. */
  read(text: string): this {
    for (const { text: raw } of tokenize(text)) {
      const token = normalizeToken(raw);
      this.tokenCount += 1;
      if (isHan(token)) {
        this.addFeature(`h1:${token}`);
        if (this.han1 !== '') this.addFeature(`h2:${this.han1}${token}`);
        if (this.han2 !== '') this.addFeature(`h3:${this.han2}${this.han1}${token}`);
        this.han2 = this.han1;
        this.han1 = token;
        continue;
      }
      this.han1 = '';
      this.han2 = '';
      if (isWord(token)) {
        const { known, unknown } = wordFeaturesOf(this.features, token);
        for (const id of known) this.add(id);
        for (const feature of unknown) this.seenUnknown.add(feature);
        this.addFeature(`w2:${this.previousWord}_${token}`);
        this.previousWord = token;
      } else if (token === '?' || token === '？') {
        this.addFeature('p:?');
      } else if (token === ':' || token === '：') {
        this.addFeature('p::');
      } else if (token === '$' || token === '¥' || token === '￥') {
        this.addFeature('p:money');
      }
    }
    return this;
  }

  /** The reading of the clause as read so far. */
  reading(): IntentReading {
    const { labels } = nluWeights.intent;
    const { ids, labelCount, rows } = this.features;
    const scores = Array.from(this.sums);
    // What depends on where the clause ends: its length and its last word (never among the features read).
    const length = this.tokenCount;
    const ending = [`len:${length <= 2 ? 'xs' : length <= 5 ? 's' : length <= 9 ? 'm' : 'l'}`];
    if (this.previousWord !== '<s>') ending.push(`w2:${this.previousWord}_</s>`);
    for (const feature of ending) {
      const id = ids.get(feature);
      if (id === undefined) continue;
      for (let label = 0; label < labelCount; label += 1)
        scores[label] = (scores[label] ?? 0) + (rows[id * labelCount + label] ?? 0);
    }
    const scale = 1 / Math.sqrt(this.seen.size + this.seenUnknown.size + ending.length);
    let best = 0;
    for (let label = 0; label < labelCount; label += 1) {
      scores[label] = (scores[label] ?? 0) * scale;
      if ((scores[label] ?? 0) > (scores[best] ?? 0)) best = label;
    }
    const top = scores[best] ?? 0;
    let total = 0;
    for (let label = 0; label < labelCount; label += 1) {
      scores[label] = Math.exp((scores[label] ?? 0) - top);
      total += scores[label] ?? 0;
    }
    const probabilities = {} as Record<IntentLabel, number>;
    for (let label = 0; label < labelCount; label += 1)
      probabilities[labels[label] as IntentLabel] = (scores[label] ?? 0) / total;
    return { intent: labels[best] as IntentLabel, confidence: (scores[best] ?? 0) / total, probabilities };
  }
}
