import { describe, expect, it } from 'vitest';
import { foldTitle, similarTitles, titleSimilarity } from '@/lib/tools/similar-title';

describe('foldTitle', () => {
  it('folds case, full-width forms and punctuation', () => {
    expect(foldTitle('  Ｐｒｉｎｔｅｒ   BROKEN!! (floor 3) ')).toBe('printer broken floor 3');
    expect(foldTitle('耳机坏了！')).toBe('耳机坏了');
  });
});

describe('titleSimilarity', () => {
  it('takes titles that differ only in case, width or punctuation as the same', () => {
    expect(titleSimilarity('Printer broken on floor 3', 'printer BROKEN on floor 3!')).toBe(1);
    expect(titleSimilarity('耳机坏了', '耳机坏了。')).toBe(1);
  });

  it('rates a title with a word more or less as similar, and another subject as not', () => {
    expect(titleSimilarity('my headphones are broken', 'Headphones broken')).toBeGreaterThanOrEqual(0.6);
    expect(titleSimilarity('我的耳机坏了', '耳机坏了')).toBeGreaterThanOrEqual(0.6);
    expect(titleSimilarity('Printer broken on floor 3', 'Refund for order A1001')).toBeLessThan(0.6);
    expect(titleSimilarity('耳机坏了', '退款申请')).toBe(0);
  });

  it('never matches an empty title', () => {
    expect(titleSimilarity('', '')).toBe(0);
    expect(titleSimilarity('!!!', 'abc')).toBe(0);
  });
});

describe('similarTitles', () => {
  it('keeps the similar items, most similar first', () => {
    const items = [
      { id: 1, title: 'Headphones broken' },
      { id: 2, title: 'Refund for order A1001' },
      { id: 3, title: 'my headphones are broken' },
    ];
    expect(similarTitles('My headphones are broken!', items).map((item) => item.id)).toEqual([3, 1]);
  });
});
