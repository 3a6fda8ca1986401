import type { Language } from '@/lib/shared/language';
import { listLength, recordsIn, replyText, textField } from './text-field';
import { defineToolFacts } from './tool-facts';

/** What the product says about `searchKnowledgeBase` (client-safe; the tool itself is `search-knowledge-base.ts`). */
export const searchKnowledgeBaseFacts = defineToolFacts({
  name: 'searchKnowledgeBase',
  workers: ['knowledge'],
  kind: 'read',
  // The operator's own articles: trusted as a source of values for writes.
  trust: 'trusted',
  summarize: (input, language) => {
    const query = textField(input, 'query');
    return language === 'zh' ? `搜索帮助中心「${query}」` : `Search the help centre for “${query}”`;
  },
  summarizeResult: (output, language) => {
    const count = listLength(output, 'hits');
    if (language === 'zh') return count === 0 ? '没有找到文章' : `找到 ${count} 篇文章`;
    if (count === 0) return 'No articles found';
    return count === 1 ? '1 article found' : `${count} articles found`;
  },
  fieldLabels: {
    query: { en: 'Question', zh: '问题' },
    limit: { en: 'How many articles (1–10, optional)', zh: '文章数量（1–10，可选）' },
  },
  capability: {
    action: {
      zh: '搜索帮助中心（退货、退款、运费、保修等）',
      en: 'search the help centre (returns, refunds, shipping, warranty…)',
    },
    example: { zh: '退货政策是什么', en: 'what is your return policy' },
  },
  offline: {
    intent: 'searchKnowledgeBase',
    argument: {
      field: 'query',
      question: {
        zh: '你想了解什么？请把问题说得具体一些。',
        en: 'What would you like to know? Please ask a specific question.',
      },
    },
    reply: knowledgeReply,
    answersQuestions: true,
  },
});

/** The offline model's answer from a search: the top article's snippet, and up to two more titles. */
function knowledgeReply(output: Readonly<Record<string, unknown>>, language: Language): string {
  const hits = recordsIn(output, 'hits');
  if (hits.length === 0) {
    return language === 'zh'
      ? '帮助中心里没有找到相关的文章。可以换个说法再问一次。'
      : 'I found nothing about that in the help centre. Try asking in other words.';
  }
  const [top, ...others] = hits;
  const seeAlso = others.slice(0, 2).map((hit) => replyText(hit.title));
  if (language === 'zh') {
    const more = seeAlso.length > 0 ? `\n\n另见：${seeAlso.join('、')}` : '';
    return `根据帮助中心的「${replyText(top?.title)}」：\n\n${replyText(top?.snippet)}${more}`;
  }
  const more = seeAlso.length > 0 ? `\n\nSee also: ${seeAlso.join(', ')}` : '';
  return `From the help centre article “${replyText(top?.title)}”:\n\n${replyText(top?.snippet)}${more}`;
}
