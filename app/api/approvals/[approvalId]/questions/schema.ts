import { z } from 'zod';

/**
 * A question to a waiting call's requester: `{ question }`, free text. Its length is checked
 * once hidden characters are taken out (at most 500 characters remain); the raw text is bounded here.
 */
export const askRequesterSchema = z.strictObject({
  question: z.string({ error: 'question: expected the question as text' }).max(4000, 'question: too long'),
});
