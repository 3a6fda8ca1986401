import type { ApprovalPreview } from '@toolgate/engine/stores';
import type { Language } from '@/lib/shared/language';
import type { Localized } from './tool-facts';

/** A preview in one language: the contract's shape (`GET /api/approvals/:id`, the card). */
export type LocalizedPreview = { lines: { label: string; value: string }[]; warnings: string[] };

/** Why a tool that declares a preview has none for this call, as the card and the API say it. */
export const previewUnavailableText: Record<NonNullable<ApprovalPreview['unavailable']>, Localized> = {
  timeout: {
    en: 'No preview: working out what this call would change took too long.',
    zh: '没有预览：计算这次调用的影响超时了。',
  },
  error: {
    en: 'No preview: what this call would change could not be worked out.',
    zh: '没有预览：无法计算这次调用的影响。',
  },
};

const inLanguage = (text: Readonly<Record<string, string>>, language: Language): string =>
  text[language] ?? text.en ?? Object.values(text)[0] ?? '';

/**
 * A stored preview (every language) for one reader: `preview` when there is one, or
 * `previewNote` saying why it was left out. Client-safe: the card uses it too.
 */
export function localizePreview(
  stored: ApprovalPreview | undefined,
  language: Language,
): { preview?: LocalizedPreview; previewNote?: string } {
  if (stored === undefined) return {};
  if (stored.unavailable !== undefined) {
    return { previewNote: previewUnavailableText[stored.unavailable][language] };
  }
  return {
    preview: {
      lines: stored.lines.map((line) => ({ label: inLanguage(line.label, language), value: line.value })),
      warnings: stored.warnings.map((warning) => inLanguage(warning, language)),
    },
  };
}
