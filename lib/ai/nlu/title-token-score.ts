import { innerMap, type TitleTokenContext, tokenShape } from './features';
import { nluWeights } from './load-weights';

/*
 * The title tagger's score of one token: the weights of `titleTokenFeatures` summed in its order,
 * without building its eighteen feature strings per token. Each weight is looked up once by the
 * parts its feature is made of (the token, a neighbour, the label before it, the intent) and
 * remembered; the tagger's tokens are its vocabulary or a placeholder, so the parts are few. Same
 * weights, same order of addition: the same score to the last bit (a test compares them).
 */

let weightsByFeature: Map<string, number> | undefined;

function weightOf(feature: string): number {
  weightsByFeature ??= new Map(Object.entries(nluWeights.title.weights));
  return weightsByFeature.get(feature) ?? 0;
}

// Bounded: past this many remembered weights they are dropped (only a tagger with a far larger
// vocabulary than the shipped one could get there).
const memoryLimit = 200_000;
let remembered = 0;
const single = new Map<string, Map<string, number>>();
const paired = new Map<string, Map<string, Map<string, number>>>();

function forgetIfFull(): void {
  if (remembered < memoryLimit) return;
  remembered = 0;
  single.clear();
  paired.clear();
}

/** The weight of the feature `${prefix}${part}`. */
function weight1(prefix: string, part: string): number {
  const byPart = innerMap(single, prefix);
  let weight = byPart.get(part);
  if (weight === undefined) {
    weight = weightOf(`${prefix}${part}`);
    remembered += 1;
    byPart.set(part, weight);
  }
  return weight;
}

/** The weight of the feature `${prefix}${first}_${second}`. */
function weight2(prefix: string, first: string, second: string): number {
  const bySecond = innerMap(innerMap(paired, prefix), first);
  let weight = bySecond.get(second);
  if (weight === undefined) {
    weight = weightOf(`${prefix}${first}_${second}`);
    remembered += 1;
    bySecond.set(second, weight);
  }
  return weight;
}

// The parts of the last features as the strings they print as, made once.
const separatorsAround = [
  ['false_false', 'false_true'],
  ['true_false', 'true_true'],
] as const;
const counts = ['0', '1', '2', '3', '4'] as const;

/**
 * The tagger's score of token `index` (above 0: part of the title), given the label of the token
 * before it and the intent the message was read as: the sum of the weights of
 * `titleTokenFeatures(context, index, previousLabel, intent)`, added in the same order.
 */
export function titleTokenScore(
  context: TitleTokenContext,
  index: number,
  previousLabel: string,
  intent: string,
): number {
  forgetIfFull();
  const { tokens } = context;
  const current = tokens[index] ?? '</s>';
  const before = tokens[index - 1] ?? '<s>';
  const twoBefore = tokens[index - 2] ?? '<s>';
  const after = tokens[index + 1] ?? '</s>';
  const twoAfter = tokens[index + 2] ?? '</s>';
  const shape = tokenShape(current);
  const separatorBefore = (context.separatorsBefore[index] ?? 0) > 0 ? 1 : 0;
  const separatorAfter = (context.separatorsAfter[index] ?? 0) > 0 ? 1 : 0;
  const placeholdersAfter = context.placeholdersAfter[index] ?? 0;
  const toEnd = tokens.length - 1 - index;
  let score = 0;
  score += weight1('', 'bias');
  score += weight1('i:', intent);
  score += weight1('pl:', previousLabel);
  score += weight2('pl_i:', previousLabel, intent);
  score += weight1('w:', current);
  score += weight2('w_pl:', current, previousLabel);
  score += weight2('shape:', shape, previousLabel);
  score += weight1('p1:', before);
  score += weight2('p2:', twoBefore, before);
  score += weight1('n1:', after);
  score += weight2('n2:', after, twoAfter);
  score += weight2('p1w:', before, current);
  score += weight2('wn1:', current, after);
  score += weight2('sep:', separatorsAround[separatorBefore][separatorAfter], previousLabel);
  score += weight2('unk_after:', counts[Math.min(placeholdersAfter, 3)] as string, previousLabel);
  score += weight2('to_end:', counts[Math.min(toEnd, 4)] as string, previousLabel);
  score += weight1('first:', index === 0 ? 'true' : 'false');
  score += weight1('last:', index === tokens.length - 1 ? 'true' : 'false');
  return score;
}
