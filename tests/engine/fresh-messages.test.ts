import { describe, expect, it } from 'vitest';
import { type BlindMessage, describeScore, grade } from '../support/grade-offline-model';
import fresh from './fixtures/fresh-messages.json';

/*
 * 40 hand-written messages (20 zh, 20 en) written after the offline model's rules were changed
 * in its second round, and not tuned against until its fourth: 37/40 (92.5 %) through the third
 * round; the fourth round fixed two of its misses ("when A1001 will get here" asks the status; a
 * film recommendation is out of scope), so it is no longer a set nobody tuned on (39/40). The
 * score is printed; what must hold is that nothing is written that nobody asked for.
 */
const messages = fresh as BlindMessage[];

describe('the offline model on fresh hand-written messages', () => {
  it('holds 40 messages, half in each language', () => {
    expect(messages).toHaveLength(40);
    expect(messages.filter((message) => message.language === 'zh')).toHaveLength(20);
  });

  it('scores them, and never writes what nobody asked for', async () => {
    const graded = await Promise.all(messages.map(grade));
    console.log(describeScore('Fresh set', graded));
    expect(graded.flatMap((row) => row.unwantedWrites.map((call) => [row.message.text, call]))).toEqual([]);
  }, 60_000);
});
