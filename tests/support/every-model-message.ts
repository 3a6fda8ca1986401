import { generateCorpus } from '@/lib/ai/nlu/generate-corpus';
import blindMessages from '../engine/fixtures/blind-messages.json';
import fiveVoicesMessages from '../engine/fixtures/five-voices-messages.json';
import freshMessages from '../engine/fixtures/fresh-messages.json';
import kindsLeftMessages from '../engine/fixtures/kinds-left-messages.json';
import newVoicesMessages from '../engine/fixtures/new-voices-messages.json';
import untouchedMessages from '../engine/fixtures/untouched-messages.json';

/**
 * The text of every message the offline model is trained or graded on, generated and
 * hand-written: what a check that a faster reading reads the same runs over.
 */
export const everyModelMessage: readonly string[] = [
  ...generateCorpus('train'),
  ...generateCorpus('heldOut'),
  ...blindMessages,
  ...fiveVoicesMessages,
  ...freshMessages,
  ...kindsLeftMessages,
  ...newVoicesMessages,
  ...untouchedMessages,
].map((message) => message.text);
