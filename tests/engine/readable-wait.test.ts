import { describe, expect, it } from 'vitest';
import { readableDeadline, readableWait } from '@/lib/shared/readable-wait';

describe('readableWait', () => {
  it('reads hours and minutes as people do, never rounding up', () => {
    expect(readableWait(14_391_000, 'en')).toBe('3 h 59 min');
    expect(readableWait(14_391_000, 'zh')).toBe('3 小时 59 分');
    expect(readableWait(25 * 60_000 + 59_999, 'en')).toBe('25 min');
    expect(readableWait(25 * 60_000, 'zh')).toBe('25 分');
  });

  it('shows seconds only in the last minute', () => {
    expect(readableWait(60_001, 'en')).toBe('1 min');
    expect(readableWait(60_000, 'en')).toBe('60 s');
    expect(readableWait(59_999, 'en')).toBe('59 s');
    expect(readableWait(45_000, 'zh')).toBe('45 秒');
    expect(readableWait(-5, 'en')).toBe('0 s');
  });
});

describe('readableDeadline', () => {
  const now = Date.UTC(2026, 11, 2, 6, 0);

  it('gives the wait up to a day, and a clock time with its zone beyond', () => {
    expect(readableDeadline(now + 4 * 3_600_000, now, 'en', 'UTC')).toBe('4 h 0 min');
    expect(readableDeadline(now + 3 * 86_400_000, now, 'en', 'UTC')).toMatch(/5 Dec 2026.*06:00.*UTC/);
    expect(readableDeadline(now + 3 * 86_400_000, now, 'zh', 'UTC')).toMatch(/2026.*12.*5.*06:00/);
  });
});
