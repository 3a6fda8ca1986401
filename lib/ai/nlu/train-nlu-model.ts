import { createHash } from 'node:crypto';
import { intentLabels } from '@/lib/tools/intent-labels';
import {
  intentFeatures,
  normalizeToken,
  placeholderOf,
  titleTokenContext,
  titleTokenFeatures,
  titleTokenForm,
  tokenize,
} from './features';
import { seededRandom, type Utterance } from './generate-corpus';
import type { NluWeights } from './nlu-weights';

// `|| 0` folds -0 into 0, which JSON cannot tell apart anyway.
const round = (value: number) => Math.round(value * 1000) / 1000 || 0;

/** A stable fingerprint of a corpus, stored with the weights fitted on it. */
export function hashCorpus(utterances: readonly Utterance[]): string {
  return createHash('sha256').update(JSON.stringify(utterances)).digest('hex').slice(0, 16);
}

function shuffled<VALUE>(values: readonly VALUE[], random: () => number): VALUE[] {
  const copy = [...values];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as VALUE, copy[index] as VALUE];
  }
  return copy;
}

/**
 * Multinomial logistic regression over `intentFeatures`, fitted by plain SGD in a seeded
 * order with a little weight decay (so probabilities stay usable as confidence).
 */
function trainIntent(utterances: readonly Utterance[]): NluWeights['intent'] {
  const labels = [...intentLabels];
  const examples = utterances.map((utterance) => ({
    features: intentFeatures(utterance.text),
    label: labels.indexOf(utterance.intent),
  }));
  const weights = new Map<string, number[]>();
  const row = (feature: string) => {
    let values = weights.get(feature);
    if (values === undefined) {
      values = labels.map(() => 0);
      weights.set(feature, values);
    }
    return values;
  };
  const random = seededRandom(13);
  const epochs = 30;
  for (let epoch = 0; epoch < epochs; epoch += 1) {
    const rate = 0.8 / (1 + epoch * 0.15);
    for (const { features, label } of shuffled(examples, random)) {
      const scale = 1 / Math.sqrt(features.length);
      const scores = labels.map(() => 0);
      for (const feature of features) {
        const values = row(feature);
        for (let index = 0; index < labels.length; index += 1) scores[index] += (values[index] ?? 0) * scale;
      }
      const top = Math.max(...scores);
      const exps = scores.map((score) => Math.exp(score - top));
      const total = exps.reduce((sum, value) => sum + value, 0);
      for (const feature of features) {
        const values = row(feature);
        for (let index = 0; index < labels.length; index += 1) {
          const gradient = (index === label ? 1 : 0) - (exps[index] ?? 0) / total;
          values[index] = (values[index] ?? 0) + rate * gradient * scale;
        }
      }
    }
    for (const values of weights.values()) {
      for (let index = 0; index < values.length; index += 1) values[index] = (values[index] ?? 0) * 0.995;
    }
  }
  const kept: Record<string, number[]> = {};
  for (const [feature, values] of [...weights].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (Math.max(...values.map(Math.abs)) >= 0.02) kept[feature] = values.map(round);
  }
  return { labels, weights: kept };
}

/** The gold title labels of an utterance's tokens: T inside the title span, O elsewhere. */
export function goldTitleLabels(utterance: Utterance): ('T' | 'O')[] {
  const span = utterance.titleSpan;
  return tokenize(utterance.text).map((token) =>
    span !== undefined && token.start >= span[0] && token.end <= span[1] ? 'T' : 'O',
  );
}

/**
 * An averaged perceptron that tags each token as title or not, left to right, trained on the
 * utterances whose intent carries a title (tickets and to-dos).
 */
function trainTitle(utterances: readonly Utterance[]): NluWeights['title'] {
  const titled = utterances
    .filter((utterance) => utterance.intent === 'createTicket' || utterance.intent === 'addTodo')
    .map((utterance) => ({
      tokens: tokenize(utterance.text).map((token) => normalizeToken(token.text)),
      labels: goldTitleLabels(utterance),
      intent: utterance.intent,
    }));
  const counts = new Map<string, number>();
  for (const { tokens } of titled)
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  const vocabulary = [...counts].flatMap(([token, count]) => (count >= 2 ? [token] : [])).sort();
  const known = new Set(vocabulary);
  // Word dropout: title words often, framing words sometimes, are shown as placeholders, so an
  // unknown word at run time is judged by where it sits, as a new title word would be.
  const dropout = seededRandom(31);
  const withDropout = (tokens: readonly string[], labels: readonly string[]) =>
    tokens.map((token, index) =>
      dropout() < (labels[index] === 'T' ? 0.6 : 0.12) ? placeholderOf(token) : titleTokenForm(token, known),
    );
  const weights = new Map<string, number>();
  const totals = new Map<string, number>();
  const stamps = new Map<string, number>();
  let clock = 0;
  const update = (feature: string, delta: number) => {
    const weight = weights.get(feature) ?? 0;
    totals.set(feature, (totals.get(feature) ?? 0) + (clock - (stamps.get(feature) ?? 0)) * weight);
    stamps.set(feature, clock);
    weights.set(feature, weight + delta);
  };
  const random = seededRandom(29);
  for (let epoch = 0; epoch < 12; epoch += 1) {
    for (const { tokens: words, labels, intent } of shuffled(titled, random)) {
      const tokens = withDropout(words, labels);
      const context = titleTokenContext(tokens);
      let previous = 'O';
      for (let index = 0; index < tokens.length; index += 1) {
        clock += 1;
        const features = titleTokenFeatures(context, index, previous, intent);
        const score = features.reduce((sum, feature) => sum + (weights.get(feature) ?? 0), 0);
        const predicted = score > 0 ? 'T' : 'O';
        const gold = labels[index] ?? 'O';
        if (predicted !== gold) for (const feature of features) update(feature, gold === 'T' ? 1 : -1);
        // Train on the model's own history, as it will tag at run time.
        previous = predicted;
      }
    }
  }
  const averaged: Record<string, number> = {};
  for (const feature of [...weights.keys()].sort()) {
    const total =
      (totals.get(feature) ?? 0) + (clock - (stamps.get(feature) ?? 0)) * (weights.get(feature) ?? 0);
    const value = round(total / clock);
    if (Math.abs(value) >= 0.001) averaged[feature] = value;
  }
  return { vocabulary, weights: averaged };
}

/** Fits both parts of the model on `utterances`. Deterministic: the same corpus gives the same weights. */
export function trainNluModel(utterances: readonly Utterance[]): NluWeights {
  return {
    corpusHash: hashCorpus(utterances),
    intent: trainIntent(utterances),
    title: trainTitle(utterances),
  };
}
