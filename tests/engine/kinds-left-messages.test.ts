import { describe, expect, it } from 'vitest';
import { type BlindMessage, describeScore, grade } from '../support/grade-offline-model';
import kindsLeft from './fixtures/kinds-left-messages.json';

/*
 * 62 hand-written messages (29 zh, 33 en) of the kinds the new-voices set showed the model still
 * missed — a request word with no "to" before its object, hurried or angry asides around the
 * request, corrections whose words do not line up with what they correct, a pasted amount beside
 * the person's own refund, a question beside a refused refund, a person asked for beside an order,
 * questions without a question word, a to-do and then the list, a pasted letter that opens about
 * the paste, typos and list questions — written new (none is one of that set's messages or a
 * paraphrase of one) and tuned on, so that the new-voices set stays untouched.
 * Before any change for them: 31/62 (50.0 %; zh 16/29, en 15/33) with no unwanted write (one refund
 * paid the pasted total, 89, instead of the corrected 25: a wrong write the grader counts as a miss).
 * After the changes made for them: 53/62 (85.5 %), no unwanted write. The score is printed; what
 * must hold is that nothing is written that nobody asked for.
 */
const messages = kindsLeft as BlindMessage[];

describe('the offline model on the kinds of message it still missed', () => {
  it('holds at least 60 messages in both languages', () => {
    expect(messages.length).toBeGreaterThanOrEqual(60);
    for (const language of ['zh', 'en'] as const)
      expect(messages.filter((message) => message.language === language).length).toBeGreaterThanOrEqual(25);
  });

  it('scores them, and writes nothing nobody asked for', async () => {
    const graded = await Promise.all(messages.map(grade));
    console.log(describeScore('Kinds-left set', graded));
    expect(graded.flatMap((row) => row.unwantedWrites)).toEqual([]);
  }, 60_000);
});
