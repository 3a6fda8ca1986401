import type { IntentLabel } from '@/lib/tools/intent-labels';
import { intentFeatures } from './features';
import { nluWeights } from './load-weights';
import { remembered } from './remembered';

/** The intent model's reading of one clause: the best label, its probability, and all of them. */
export type IntentReading = {
  intent: IntentLabel;
  confidence: number;
  probabilities: Record<IntentLabel, number>;
};

/** Classifies one clause with the shipped logistic-regression weights (a softmax over the labels). */
export const classifyIntent = remembered(classifyClause, 64);

// The weights by feature in a Map (a lookup in a plain object of thousands of keys costs several
// times more), made on first use.
let weightsByFeature: Map<string, readonly number[]> | undefined;

function classifyClause(text: string): IntentReading {
  const { labels } = nluWeights.intent;
  weightsByFeature ??= new Map(Object.entries(nluWeights.intent.weights));
  const features = intentFeatures(text);
  const scale = 1 / Math.sqrt(features.length);
  const scores = labels.map(() => 0);
  for (const feature of features) {
    const values = weightsByFeature.get(feature);
    if (values === undefined) continue;
    for (let index = 0; index < labels.length; index += 1) scores[index] += (values[index] ?? 0) * scale;
  }
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const total = exps.reduce((sum, value) => sum + value, 0);
  const probabilities = Object.fromEntries(
    labels.map((label, index) => [label, (exps[index] ?? 0) / total]),
  ) as Record<IntentLabel, number>;
  const best = scores.indexOf(top);
  return { intent: labels[best] as IntentLabel, confidence: (exps[best] ?? 0) / total, probabilities };
}
