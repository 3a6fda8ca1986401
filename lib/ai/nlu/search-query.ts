import { readsAsQuestion } from './message-scope';
import { sentencesOf, withoutFrame } from './person-title';
import { wordBoundaries } from './words';

/** The longest question the help-centre search takes. */
export const queryLimit = 500;

/**
 * What the help centre is asked for a message: the message as typed when it is one sentence; of a
 * letter, the first sentence that asks (without greeting or sign-off), else the letter without
 * them; never longer than the search takes, cut between words.
 */
export function searchQuery(text: string): string {
  const whole = text.trim();
  const sentences = sentencesOf(whole);
  if (sentences.length <= 1 && whole.length <= queryLimit) return whole;
  const asking = sentences.map(withoutFrame).find((sentence) => sentence !== '' && readsAsQuestion(sentence));
  const query = asking ?? (withoutFrame(whole) || whole);
  if (query.length <= queryLimit) return query;
  const boundaries = wordBoundaries(query);
  let end = queryLimit;
  while (end > 0 && !boundaries.has(end)) end -= 1;
  return query.slice(0, end > 0 ? end : queryLimit).trim();
}
