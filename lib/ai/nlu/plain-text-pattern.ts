/*
 * V8 runs a case-insensitive pattern several times faster without the `u` flag than with it
 * (`/…/iu` spent a fifth of the model's time reading a message). On most text the two find the
 * same: without `u` a pattern reads code units instead of code points and folds case by upper
 * case instead of Unicode case folding, and that differs only on text with surrogates (emoji and
 * other characters outside the Basic Multilingual Plane, where a code point is two code units)
 * or with ſ (U+017F) or K (U+212A), the two characters that fold to an ASCII letter (s, k). On
 * such "plain" text the pattern runs without `u`; on any other text, as written. Patterns that
 * need `u` to mean what they say (`\p{…}`, `\u{…}`) always run as written.
 */

const notPlain = /[\ud800-\udfff\u017f\u212a]/;

// The text asked about last: a message is asked about by many patterns in a row.
let lastText: string | undefined;
let lastPlain = false;

/** True when `text` reads the same with and without the `u` flag (see above). */
export function isPlainText(text: string): boolean {
  if (text !== lastText) {
    lastText = text;
    lastPlain = !notPlain.test(text);
  }
  return lastPlain;
}

const withoutUnicode = new WeakMap<RegExp, RegExp>();

/** `pattern` without its `u` flag when that finds the same on any plain text; else `pattern` itself. */
function plainTwin(pattern: RegExp): RegExp {
  let twin = withoutUnicode.get(pattern);
  if (twin === undefined) {
    twin =
      !pattern.unicode || !pattern.ignoreCase || /\\[pPu]\{/.test(pattern.source)
        ? pattern
        : new RegExp(pattern.source, pattern.flags.replace('u', ''));
    withoutUnicode.set(pattern, twin);
  }
  return twin;
}

/** The pattern to run on `text`: `pattern` without `u` when `text` is plain, finding exactly what `pattern` would; else `pattern`. */
export function forText(pattern: RegExp, text: string): RegExp {
  return isPlainText(text) ? plainTwin(pattern) : pattern;
}
