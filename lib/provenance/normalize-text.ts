/**
 * The form values and texts are compared in: NFKC (full-width digits and letters become plain
 * ones), case folded, every run of whitespace one space, trimmed. A model that copies
 * "Ａ１００２" as "a1002" is still copying.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}
