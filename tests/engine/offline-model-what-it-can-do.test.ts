import { describe, expect, it } from 'vitest';
import { runMessage } from '../support/grade-offline-model';

/*
 * Asking what the assistant can do, after thanking it or greeting it, gets the list of what it
 * can do: no help-centre search of the question, and no call at all.
 */
describe('asking what else it can do', () => {
  it.each([
    'thanks, what else can you do?',
    'thank you! what else can you help me with?',
    'cool thanks, what else do you do',
    '谢谢，你还能做什么？',
    '好的谢谢，你还会什么',
  ])('%s gets what it can do, and makes no call', async (text) => {
    const { calls, reply } = await runMessage(text);
    expect(calls).toEqual([]);
    expect(reply).toMatch(/offline assistant|离线助手/u);
  });
});
