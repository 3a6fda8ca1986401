import { tool } from 'ai';
import { z } from 'zod';
import type { Db } from '@/lib/db/engine';
import { searchArticles } from '@/lib/db/knowledge';
import { searchKnowledgeBaseFacts } from './search-knowledge-base-facts';
import { defineTool } from './tool-descriptor';

/** What a `searchKnowledgeBase` call takes; its messages and descriptions are written for the model. */
const searchKnowledgeBaseInput = z.object({
  query: z
    .string({ error: 'query is required: the user’s question as text.' })
    .trim()
    .min(1, 'query is empty: pass the user’s question, e.g. "return policy".')
    .max(500, 'query is longer than 500 characters: pass the question only.')
    .describe(
      'The user’s question or its key words, in the user’s language, e.g. "退货政策" or "return policy".',
    ),
  limit: z
    .number({ error: 'limit must be a whole number from 1 to 10.' })
    .int('limit must be a whole number from 1 to 10.')
    .min(1, 'limit must be at least 1.')
    .max(10, 'limit must be at most 10.')
    .optional()
    .describe('How many articles to return, 1–10; default 3.'),
});

/** Builds `searchKnowledgeBase`: read-only full-text search of the help-centre articles (zh and en). */
export function createSearchKnowledgeBaseTool(db: Db) {
  return tool({
    description:
      'Search the help centre (returns, refunds, shipping times and costs, warranty, payment, order tracking, cancelling, exchanges, invoices, support) ' +
      'and return the best matching articles with a snippet. Works in Chinese and English. ' +
      'Call it for general policy and how-to questions and answer from the hits. ' +
      'Do not call it for one specific order’s status (that needs the order lookup) or to take any action.',
    inputSchema: searchKnowledgeBaseInput,
    execute: async ({ query, limit = 3 }) => ({ hits: await searchArticles(db, query, limit) }),
  });
}

/** `searchKnowledgeBase`, declared once: its facts and its factory. */
export const searchKnowledgeBaseTool = defineTool(searchKnowledgeBaseFacts, {
  inputSchema: searchKnowledgeBaseInput,
  create: createSearchKnowledgeBaseTool,
});
