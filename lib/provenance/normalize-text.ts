/**
 * The form values and texts are compared in: NFKC (full-width digits and letters become plain
 * ones), case folded, every run of whitespace one space, trimmed. A model that copies
 * "Ａ１００２" as "a1002" is still copying.
 */
export function normalizeText(text: string): string {
  // Plain ASCII is its own NFKC form: skip the costlier pass for the common case.
  const composed = beyondPlainAscii.test(text) ? text.normalize('NFKC') : text;
  return composed.toLowerCase().replace(whitespaceRuns, ' ').trim();
}

// Every run of whitespace but a lone space (which stays as it is, the common case, untouched).
const whitespaceRuns = / ?[^\S ]\s*| {2,}\s*/g;

// Anything but printable ASCII and the usual whitespace may change under NFKC.
const beyondPlainAscii = /[^\t\n\v\f\r\x20-\x7e]/;
