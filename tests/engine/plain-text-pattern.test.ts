import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { forText, isPlainText } from '@/lib/ai/nlu/plain-text-pattern';
import { everyModelMessage } from '../support/every-model-message';

const modelFolder = fileURLToPath(new URL('../../lib/ai/nlu', import.meta.url));

/** Every case-insensitive Unicode regular expression literal written in the offline model's source. */
const modelPatterns = readdirSync(modelFolder)
  .filter((file) => file.endsWith('.ts'))
  .flatMap((file) =>
    [
      ...readFileSync(join(modelFolder, file), 'utf8').matchAll(
        /(?<=[=(,[:?]\s*|^\s*)\/((?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+)\/([dgimsuy]*)/gmu,
      ),
    ].flatMap(([, source = '', flags = '']) => {
      if (!flags.includes('i') || !flags.includes('u')) return [];
      try {
        return [new RegExp(source, flags)];
      } catch {
        return [];
      }
    }),
  );

// Random texts made of the words and marks the patterns look for.
const pieces = [
  ...'  ,.!?:;，。！？：、~-—\'’"“”「」\n\t\u00a0\u3000aAkKsSyY09',
  'Kind regards',
  'SINCERELY',
  'thanks',
  'ticket',
  'TK-000123',
  'A1001',
  "don't",
  'no need to',
  'cancel',
  'open a ticket',
  'remind me to',
  'refund',
  'money back',
  'already',
  'where is',
  'how do',
  'please',
  'gtg',
  'lol',
  '工单',
  '退款',
  '待办',
  '不要了',
  '取消',
  '你好',
  '谢谢',
  '帮我开个工单',
  'É',
  'ß',
  'İ',
  'ı',
  // Not plain, so left out of the comparison (the pattern runs as written on them):
  '\u212aind regards',
  'thank\u017f',
  '😀',
];

function randomTexts(count: number): string[] {
  let seed = 11;
  const random = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + Math.floor(random() * 25) },
      () => pieces[Math.floor(random() * pieces.length)],
    ).join(''),
  );
}

/** What a pattern finds in a text: every match with its index and groups (all of them for a global pattern). */
function found(pattern: RegExp, text: string): string {
  pattern.lastIndex = 0;
  const matches = pattern.global
    ? [...text.matchAll(pattern)]
    : [pattern.exec(text)].filter((match) => match !== null);
  return JSON.stringify(matches.map((match) => [match.index, ...match]));
}

describe('a case-insensitive pattern run without its u flag on plain text', () => {
  it('is read from the model source: every case-insensitive Unicode literal the model has', () => {
    expect(modelPatterns.length).toBeGreaterThan(50);
  });

  it('finds exactly what the pattern finds, with every such pattern of the model, on every message and random text', () => {
    const texts = [...everyModelMessage, ...randomTexts(4000)].filter(isPlainText);
    const differing = modelPatterns.flatMap((pattern) =>
      texts
        .filter((text) => found(forText(pattern, text), text) !== found(pattern, text))
        .map((text) => `${pattern} on ${JSON.stringify(text)}`),
    );
    expect(differing).toEqual([]);
  }, 60_000);

  it('is not used on text with an emoji, ſ or K (KELVIN SIGN), where the two differ', () => {
    const regards = /\bkind\s+regards\b/iu;
    const window = /^[^.]{0,3}$/iu;
    for (const [pattern, text] of [
      [regards, '\u212aind regards'],
      [/\bthanks\b/iu, 'thank\u017f'],
      [window, '😀😀'],
    ] as const) {
      expect(isPlainText(text)).toBe(false);
      expect(forText(pattern, text)).toBe(pattern);
    }
    expect(regards.test('\u212aind regards')).toBe(true);
    expect(new RegExp(regards.source, 'i').test('\u212aind regards')).toBe(false);
  });

  it('is never used for a pattern that needs u to mean what it says', () => {
    const han = /\p{Script=Han}/iu;
    expect(forText(han, 'plain text')).toBe(han);
  });
});
