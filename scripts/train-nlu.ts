/**
 * `npm run train:nlu` — generates the training corpus, fits the intent classifier and the
 * title tagger, and writes the weights the offline model ships with. Deterministic: run it
 * after changing the corpus templates or the features, and commit the JSON it writes.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateCorpus } from '../lib/ai/nlu/generate-corpus';
import { trainNluModel } from '../lib/ai/nlu/train-nlu-model';

const corpus = generateCorpus('train');
const started = performance.now();
const weights = trainNluModel(corpus);
const target = fileURLToPath(new URL('../lib/ai/nlu/nlu-weights.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(weights)}\n`);
console.log(
  `Trained on ${corpus.length} utterances in ${Math.round(performance.now() - started)} ms: ` +
    `${Object.keys(weights.intent.weights).length} intent features, ` +
    `${Object.keys(weights.title.weights).length} title features → lib/ai/nlu/nlu-weights.json`,
);
