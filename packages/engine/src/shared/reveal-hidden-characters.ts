const formatCharacter = /\p{Cf}/u;
const pictograph = /\p{Extended_Pictographic}/u;
const emojiModifier = /\p{Emoji_Modifier}/u;
const keycapBase = /^[0-9#*]$/;

/**
 * Whether a character changes how text reads without being seen: every format character
 * (Unicode category Cf: zero-width and bidirectional controls, word joiner, invisible operators,
 * soft hyphen, U+FEFF, the tag characters that can spell an instruction nobody sees), C0 and C1
 * controls (but tab and line feed) and DEL, the line and paragraph separators, the combining
 * grapheme joiner, variation selectors, blank Hangul fillers and lone surrogates. A U+202E in a
 * tool's input would make a card read "refund 1 €" for a call that says something else.
 */
function isHidden(character: string, code: number): boolean {
  if (code === 0x09 || code === 0x0a) return false;
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    formatCharacter.test(character) ||
    (code >= 0xe0000 && code <= 0xe007f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x180e ||
    code === 0x034f ||
    (code >= 0xfe00 && code <= 0xfe0f) ||
    (code >= 0xe0100 && code <= 0xe01ef) ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x3164 ||
    code === 0xffa0 ||
    (code >= 0xd800 && code <= 0xdfff)
  );
}

/**
 * Whether the hidden character at `index` is part of an emoji, so it is kept: an emoji
 * presentation selector after a pictograph or a keycap's base, or a zero-width joiner between
 * two pictographs (👩‍💻). Such a character changes how an emoji is drawn, not what text says.
 */
function joinsEmoji(characters: readonly string[], index: number): boolean {
  const character = characters[index];
  const previous = characters[index - 1] ?? '';
  const next = characters[index + 1] ?? '';
  if (character === '\ufe0f' || character === '\ufe0e') {
    return pictograph.test(previous) || (keycapBase.test(previous) && next === '\u20e3');
  }
  if (character !== '\u200d' || !pictograph.test(next)) return false;
  let base = index - 1;
  while (base >= 0 && (characters[base] === '\ufe0f' || emojiModifier.test(characters[base] ?? '')))
    base -= 1;
  return pictograph.test(characters[base] ?? '');
}

/** The code point of each character, with whether it is hidden (and not part of an emoji). */
function* readCharacters(text: string): Generator<{ character: string; code: number; hidden: boolean }> {
  const characters = Array.from(text);
  for (const [index, character] of characters.entries()) {
    const code = character.codePointAt(0) ?? 0;
    yield { character, code, hidden: isHidden(character, code) && !joinsEmoji(characters, index) };
  }
}

/**
 * Every character `isHidden` can say yes to, in one class: text without any of them (nearly all
 * text) has nothing to show, and is returned as it is without reading it a character at a time.
 * In a `u` pattern a lone surrogate is a code point of its own, so the surrogate range matches
 * only lone ones.
 */
const mayBeHidden =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the combining grapheme joiner is one of the characters looked for, on its own.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}\u{e0000}-\u{e007f}\u2028\u2029\u180e\u034f\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u115f\u1160\u3164\uffa0\ud800-\udfff]/u;

/** Whether `text` holds a character `revealHiddenCharacters` would show as its code point. */
export function hasHiddenCharacters(text: string): boolean {
  if (!mayBeHidden.test(text)) return false;
  for (const { hidden } of readCharacters(text)) if (hidden) return true;
  return false;
}

/**
 * Shows each hidden character as its code point (`⟨U+202E⟩`), so what a person reads on an
 * approval card or in the audit log is what the tool will get. The text is otherwise kept.
 */
export function revealHiddenCharacters(text: string): string {
  if (!mayBeHidden.test(text)) return text;
  let revealed = '';
  for (const { character, hidden } of readCharacters(text)) {
    revealed += hidden ? codePointOf(character) : character;
  }
  return revealed;
}

/**
 * `text` without its hidden characters (emoji kept whole): what a person typed into a free-text
 * field that others read later (a question to a requester, their answer), as it is stored.
 */
export function withoutHiddenCharacters(text: string): string {
  let kept = '';
  for (const { character, hidden } of readCharacters(text)) if (!hidden) kept += character;
  return kept;
}

/**
 * `text` on one line, as a mail or a webhook carries what a person wrote: hidden characters,
 * line feeds and tabs too, shown as code points (`⟨U+000A⟩`), so no line break reaches a
 * receiver that would draw it as one.
 */
export function revealControlCharacters(text: string): string {
  return revealHiddenCharacters(text).replace(/[\t\n]/g, (character) => codePointOf(character));
}

function codePointOf(character: string): string {
  return `⟨U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/** A call's summary in every language, with hidden characters shown. */
export function revealHiddenInSummary<SUMMARY extends Record<string, string>>(summary: SUMMARY): SUMMARY {
  return Object.fromEntries(
    Object.entries(summary).map(([language, text]) => [language, revealHiddenCharacters(text)]),
  ) as SUMMARY;
}
