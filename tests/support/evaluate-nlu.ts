import { classifyIntent } from '@/lib/ai/nlu/classify-intent';
import { extractTitle } from '@/lib/ai/nlu/extract-title';
import { findOrderIds } from '@/lib/ai/nlu/features';
import type { Utterance } from '@/lib/ai/nlu/generate-corpus';
import { type IntentLabel, intentLabels } from '@/lib/tools/intent-labels';

/** How the shipped model does on a labelled corpus. */
export type NluEvaluation = {
  total: number;
  accuracy: number;
  /** `confusion[gold][predicted]` counts. */
  confusion: Record<IntentLabel, Record<IntentLabel, number>>;
  /** Accuracy per gold intent. */
  accuracyByIntent: Record<IntentLabel, number>;
  /** Of the correctly classified tickets and to-dos with a title, the share whose title came out exactly. */
  titleAccuracy: number;
  /** Of the correctly classified order lookups, the share whose order numbers came out exactly. */
  orderIdAccuracy: number;
  misses: { text: string; gold: IntentLabel; predicted: IntentLabel }[];
};

/** Scores the shipped model on `utterances` (the held-out split in the test suite). */
export function evaluateNlu(utterances: readonly Utterance[]): NluEvaluation {
  const zeros = () =>
    Object.fromEntries(intentLabels.map((label) => [label, 0])) as Record<IntentLabel, number>;
  const confusion = Object.fromEntries(
    intentLabels.map((label) => [label, zeros()]),
  ) as NluEvaluation['confusion'];
  const misses: NluEvaluation['misses'] = [];
  let correct = 0;
  let titles = 0;
  let titlesRight = 0;
  let orders = 0;
  let ordersRight = 0;
  for (const utterance of utterances) {
    const { intent } = classifyIntent(utterance.text);
    confusion[utterance.intent][intent] += 1;
    if (intent !== utterance.intent) {
      misses.push({ text: utterance.text, gold: utterance.intent, predicted: intent });
      continue;
    }
    correct += 1;
    if (utterance.titleSpan !== undefined) {
      titles += 1;
      const expected = utterance.text.slice(...utterance.titleSpan);
      if (extractTitle(utterance.text, intent) === expected) titlesRight += 1;
    }
    if (intent === 'getOrderStatus') {
      orders += 1;
      if (JSON.stringify(findOrderIds(utterance.text)) === JSON.stringify(utterance.orderIds))
        ordersRight += 1;
    }
  }
  const accuracyByIntent = zeros();
  for (const label of intentLabels) {
    const row = confusion[label];
    const count = Object.values(row).reduce((sum, value) => sum + value, 0);
    accuracyByIntent[label] = count === 0 ? 1 : row[label] / count;
  }
  return {
    total: utterances.length,
    accuracy: correct / utterances.length,
    confusion,
    accuracyByIntent,
    titleAccuracy: titles === 0 ? 1 : titlesRight / titles,
    orderIdAccuracy: orders === 0 ? 1 : ordersRight / orders,
    misses,
  };
}
