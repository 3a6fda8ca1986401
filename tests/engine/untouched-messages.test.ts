import { describe, expect, it } from 'vitest';
import { type BlindMessage, describeScore, grade } from '../support/grade-offline-model';
import untouched from './fixtures/untouched-messages.json';

/*
 * 40 more hand-written messages (20 zh, 20 en), written after the offline model's rules were
 * first settled. Measured once untouched: 33 of 40 right (82.5 %), no unwanted write. Its misses
 * then led to general changes (negation never reaches into the object of a request, lookups and
 * listings need their own evidence, summarising is out of scope), so it is no longer untouched:
 * fresh-messages.json, written after those, is. The score is printed; what must hold is that
 * nothing is written that nobody asked for.
 */
const messages = untouched as BlindMessage[];

describe('the offline model on untouched hand-written messages', () => {
  it('holds 40 messages, half in each language', () => {
    expect(messages).toHaveLength(40);
    expect(messages.filter((message) => message.language === 'zh')).toHaveLength(20);
  });

  it('scores them, and never writes what nobody asked for', async () => {
    const graded = await Promise.all(messages.map(grade));
    console.log(describeScore('Untouched set', graded));
    expect(graded.flatMap((row) => row.unwantedWrites.map((call) => [row.message.text, call]))).toEqual([]);
  }, 60_000);
});
