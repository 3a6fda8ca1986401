import type { Language } from '@/lib/shared/language';
import { hanPattern, orderIdPattern } from './nlu/features';

export type { Language } from '@/lib/shared/language';

/**
 * The language `text` is written in: Chinese when it holds a Han character, English when it
 * holds a Latin word other than an order number or a `/tool` command, and `undefined` when it
 * says nothing either way ("A1008", "42"), so the caller can keep the conversation's language.
 */
export function detectLanguage(text: string): Language | undefined {
  if (hanPattern.test(text)) return 'zh';
  const words = text.replace(/^\s*\/tool\b.*$/s, '').replace(orderIdPattern, ' ');
  return /[A-Za-z]{2,}/.test(words) ? 'en' : undefined;
}
