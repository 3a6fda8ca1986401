import type { IntentLabel } from '@/lib/tools/intent-labels';
import { intentScores } from './intent-scores';
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

function classifyClause(text: string): IntentReading {
  const { labels } = nluWeights.intent;
  const scores = intentScores(text);
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const total = exps.reduce((sum, value) => sum + value, 0);
  const probabilities = {} as Record<IntentLabel, number>;
  labels.forEach((label, index) => {
    probabilities[label] = (exps[index] ?? 0) / total;
  });
  const best = scores.indexOf(top);
  return { intent: labels[best] as IntentLabel, confidence: (exps[best] ?? 0) / total, probabilities };
}
