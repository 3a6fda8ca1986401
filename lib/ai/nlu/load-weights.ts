import type { NluWeights } from './nlu-weights';
import weights from './nlu-weights.json';

/** The shipped weights (`npm run train:nlu` writes them; they are data, not code). */
export const nluWeights = weights as unknown as NluWeights;
