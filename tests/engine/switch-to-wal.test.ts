import { describe, expect, it } from 'vitest';
import { switchToWal } from '@/lib/db/open-database';

/** A database whose WAL switch answers SQLITE_BUSY the first `busyTimes` times. */
function contendedDatabase(busyTimes: number) {
  const calls: string[] = [];
  return {
    calls,
    pragma(source: string) {
      calls.push(source);
      if (calls.length <= busyTimes)
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      return 'wal';
    },
  };
}

describe('switchToWal', () => {
  it('waits out another process switching the same new file, instead of failing the start-up', () => {
    const database = contendedDatabase(3);
    const pauses: number[] = [];
    switchToWal(database, { timeoutMs: 5000, now: () => 0, pause: (ms) => pauses.push(ms) });
    expect(database.calls).toEqual(Array(4).fill('journal_mode = WAL'));
    expect(pauses).toEqual([5, 10, 20]);
  });

  it('gives up with the busy error once the timeout has passed', () => {
    let clock = 0;
    const database = contendedDatabase(1_000);
    expect(() =>
      switchToWal(database, {
        timeoutMs: 100,
        now: () => clock,
        pause: (ms) => {
          clock += ms;
        },
      }),
    ).toThrow(/database is locked/);
  });

  it('throws any other error at once', () => {
    const database = {
      pragma: () => {
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
      },
    };
    expect(() => switchToWal(database, { timeoutMs: 5000, pause: () => undefined })).toThrow(/disk I\/O/);
  });
});
