/**
 * Whether a character changes how text reads without being seen: C0 and C1 controls
 * (but tab and line feed) and DEL, zero-width spaces and marks (U+200B–U+200F),
 * bidirectional embeddings and overrides (U+202A–U+202E) and isolates (U+2066–U+2069),
 * and the byte-order mark (U+FEFF). A U+202E in a tool's input would make a card read
 * "refund 1 €" for a call that says something else.
 */
function isHidden(code: number): boolean {
  if (code === 0x09 || code === 0x0a) return false;
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0xfeff
  );
}

/**
 * Shows each hidden character as its code point (`⟨U+202E⟩`), so what a person reads on an
 * approval card or in the audit log is what the tool will get. The text is otherwise kept.
 */
export function revealHiddenCharacters(text: string): string {
  let revealed = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    revealed += isHidden(code) ? `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩` : character;
  }
  return revealed;
}

/** A call's summary in every language, with hidden characters shown. */
export function revealHiddenInSummary<SUMMARY extends Record<string, string>>(summary: SUMMARY): SUMMARY {
  return Object.fromEntries(
    Object.entries(summary).map(([language, text]) => [language, revealHiddenCharacters(text)]),
  ) as SUMMARY;
}
