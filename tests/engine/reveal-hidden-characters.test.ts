import { describe, expect, it } from 'vitest';
import {
  hasHiddenCharacters,
  revealControlCharacters,
  revealHiddenCharacters,
} from '../../packages/engine/src/shared/reveal-hidden-characters';

const codePoint = (code: number) => `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;

describe('revealHiddenCharacters', () => {
  it.each([
    ['the Arabic letter mark', 0x061c],
    ['the word joiner', 0x2060],
    ['invisible operators', 0x2061],
    ['the invisible plus', 0x2064],
    ['deprecated format characters', 0x206a],
    ['national digit shapes', 0x206f],
    ['the line separator', 0x2028],
    ['the paragraph separator', 0x2029],
    ['the Mongolian vowel separator', 0x180e],
    ['the soft hyphen', 0x00ad],
    ['the combining grapheme joiner', 0x034f],
    ['a variation selector', 0xfe00],
    ['the text variation selector', 0xfe0e],
    ['a supplementary variation selector', 0xe0100],
    ['the language tag', 0xe0001],
    ['a tag letter', 0xe0041],
    ['the cancel tag', 0xe007f],
    ['an interlinear annotation anchor', 0xfff9],
    ['a Hangul filler', 0x3164],
    ['the right-to-left override', 0x202e],
    ['a zero-width space', 0x200b],
    ['a C1 control', 0x85],
  ])('shows %s as its code point', (_name, code) => {
    const text = `pay 1${String.fromCodePoint(code)}0 €`;
    expect(revealHiddenCharacters(text)).toBe(`pay 1${codePoint(code)}0 €`);
    expect(hasHiddenCharacters(text)).toBe(true);
  });

  it('shows an instruction smuggled in tag characters, one code point per letter', () => {
    const smuggled = [...'rm'].map((letter) => String.fromCodePoint(0xe0000 + letter.charCodeAt(0))).join('');
    expect(revealHiddenCharacters(`ok${smuggled}`)).toBe('ok⟨U+E0072⟩⟨U+E006D⟩');
  });

  it('keeps text, tab, line feed and emoji sequences as they are', () => {
    for (const text of [
      '退款 100 € to Zoë',
      'a\tb\nc',
      '👩‍💻 and 👨‍👩‍👧 and 🏳️‍🌈',
      '❤️ and ✌🏽 and 👍🏿‍',
      '1️⃣ #️⃣',
    ]) {
      expect(revealHiddenCharacters(text)).toBe(text.endsWith('‍') ? `${text.slice(0, -1)}⟨U+200D⟩` : text);
    }
    expect(hasHiddenCharacters('👩‍💻 ❤️')).toBe(false);
  });

  it('shows a joiner or a variation selector that joins no emoji', () => {
    expect(revealHiddenCharacters('a\u200db')).toBe('a⟨U+200D⟩b');
    expect(revealHiddenCharacters('a\ufe0f')).toBe('a⟨U+FE0F⟩');
    expect(revealHiddenCharacters('\u200d👍')).toBe('⟨U+200D⟩👍');
  });
});

describe('revealHiddenCharacters on text with nothing hidden', () => {
  // Text with no character that could be hidden is returned without being read a character at
  // a time; a zero-width space in front makes it read one at a time. Both must agree everywhere.
  const zeroWidthSpace = '\u200b';
  const shownSpace = codePoint(0x200b);
  const planes = [
    [0, 0xffff],
    [0x1f000, 0x1faff],
    [0xe0000, 0xe01ff],
  ] as const;

  it('shows every character the same, read at once or one at a time', () => {
    const differing: string[] = [];
    for (const [first, last] of planes) {
      for (let code = first; code <= last; code++) {
        const character = String.fromCodePoint(code);
        const slow = revealHiddenCharacters(`${zeroWidthSpace}${character}`).slice(shownSpace.length);
        if (
          revealHiddenCharacters(character) !== slow ||
          hasHiddenCharacters(character) !== (slow !== character)
        )
          differing.push(code.toString(16));
      }
    }
    expect(differing).toEqual([]);
  });

  it('returns plain text, Chinese and emoji unchanged', () => {
    for (const text of ['refund 80.00 USD on A1002', '退款 100 元，订单 A1002', '👩‍💻 ok ❤️']) {
      expect(revealHiddenCharacters(text)).toBe(text);
      expect(hasHiddenCharacters(text)).toBe(false);
    }
  });
});

describe('revealControlCharacters', () => {
  it('shows line feeds and tabs as code points too, so the text stays on one line', () => {
    expect(revealControlCharacters('Ann\r\nX-Priority: 1\tnow\u2028later')).toBe(
      'Ann⟨U+000D⟩⟨U+000A⟩X-Priority: 1⟨U+0009⟩now⟨U+2028⟩later',
    );
    expect(revealControlCharacters('plain text, 👩‍💻 kept')).toBe('plain text, 👩‍💻 kept');
  });
});
