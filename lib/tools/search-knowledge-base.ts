import { tool } from 'ai';
import { z } from 'zod';
import type { Language } from '@/lib/ai/language';
import type { Db } from '@/lib/db/engine';
import { searchArticles } from '@/lib/db/knowledge';
import type { FieldLabels } from './field-labels';
import { listLength, textField } from './text-field';

/** One line saying what a `searchKnowledgeBase` call will do, for the card title. */
export function summarizeSearchKnowledgeBase(input: unknown, language: Language): string {
  const query = textField(input, 'query');
  return language === 'zh' ? `搜索帮助中心「${query}」` : `Search the help centre for “${query}”`;
}

/** One line saying what a `searchKnowledgeBase` call found, for its folded part. */
export function summarizeSearchKnowledgeBaseResult(output: unknown, language: Language): string {
  const count = listLength(output, 'hits');
  if (language === 'zh') return count === 0 ? '没有找到文章' : `找到 ${count} 篇文章`;
  if (count === 0) return 'No articles found';
  return count === 1 ? '1 article found' : `${count} articles found`;
}

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

/** The edit form's label of each `searchKnowledgeBase` field. */
export const searchKnowledgeBaseFieldLabels: FieldLabels<typeof searchKnowledgeBaseInput> = {
  query: { en: 'Question', zh: '问题' },
  limit: { en: 'How many articles (1–10, optional)', zh: '文章数量（1–10，可选）' },
};

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
