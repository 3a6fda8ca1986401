import { describe, expect, it } from 'vitest';
import { type BlindMessage, describeScore, grade } from '../support/grade-offline-model';
import newVoices from './fixtures/new-voices-messages.json';

/*
 * 130 hand-written messages (65 zh, 65 en) in five voices none of the other sets uses —
 * shop-floor staff typing on a phone, parents in a hurry, angry customers in capitals,
 * people mixing Chinese and English in one message, and people who paste an order
 * confirmation before their request — committed, with its score, before the model was
 * changed for it, and never tuned against. They cover corrections mid-message, typos in the
 * verb, asking for a person, tools that do not exist, an unclear message naming an order,
 * list questions that must not write, refusals beside a lookup, and two requests in one.
 * Untouched, before any change made after it was written: 82/130 (63.1 %; zh 64.6 %, en 61.5 %)
 * with 4 unwanted writes. After the fourth round, tuned on the other sets and on new examples
 * only: 115/130 (88.5 %) with none. The score is printed; what must hold is that nothing is
 * written that nobody asked for.
 */
const messages = newVoices as BlindMessage[];

describe('the offline model on messages in five more voices nobody tuned on', () => {
  it('holds at least 120 messages, 60 or more in each language, in five voices', () => {
    expect(messages.length).toBeGreaterThanOrEqual(120);
    for (const language of ['zh', 'en'] as const)
      expect(messages.filter((message) => message.language === language).length).toBeGreaterThanOrEqual(60);
    expect(new Set(messages.map((message) => message.kind)).size).toBe(5);
  });

  it('scores them, and writes nothing nobody asked for', async () => {
    const graded = await Promise.all(messages.map(grade));
    console.log(describeScore('New-voices set', graded));
    expect(graded.flatMap((row) => row.unwantedWrites)).toEqual([]);
  }, 60_000);
});
