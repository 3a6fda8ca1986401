import type { IntentLabel } from '@/lib/tools/intent-labels';

/** The trained model as shipped in `nlu-weights.json`: plain data, read by `classifyIntent` and `extractTitle`. */
export type NluWeights = {
  /** Hash of the training corpus these weights were fitted on (a stale file is caught by a test). */
  corpusHash: string;
  intent: {
    labels: IntentLabel[];
    /** Per feature, one weight per label (in `labels` order). */
    weights: Record<string, number[]>;
  };
  title: {
    /** Tokens the tagger knows by name; every other token is a placeholder (see `titleTokenForm`). */
    vocabulary: string[];
    /** Per feature, its weight towards "this token is part of the title". */
    weights: Record<string, number>;
  };
};
