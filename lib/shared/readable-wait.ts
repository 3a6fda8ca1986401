import type { Language } from './language';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/**
 * A wait as people read it: "3 h 59 min" / "3 小时 59 分", seconds only in the last minute
 * ("60 s" … "1 s" / "45 秒"). Rounded down, so a deadline never reads later than it is.
 */
export function readableWait(ms: number, language: Language): string {
  const left = Math.max(0, ms);
  // A countdown's last minute starts at 60 s (it rounds up): "60 s", not "1 min".
  if (left <= minute) {
    const seconds = Math.floor(left / 1000);
    return language === 'zh' ? `${seconds} 秒` : `${seconds} s`;
  }
  const hours = Math.floor(left / hour);
  const minutes = Math.floor((left % hour) / minute);
  if (language === 'zh') return hours > 0 ? `${hours} 小时 ${minutes} 分` : `${minutes} 分`;
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}

/**
 * A deadline as people read it: the wait from `now` ("3 h 59 min"), or for more than a day
 * the clock time in `timeZone` (default: the runtime's own, right in a browser), the zone named.
 */
export function readableDeadline(
  expiresAt: number,
  now: number,
  language: Language,
  timeZone?: string,
): string {
  if (expiresAt - now <= day) return readableWait(expiresAt - now, language);
  return new Intl.DateTimeFormat(language === 'zh' ? 'zh-CN' : 'en-GB', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
    timeZoneName: 'short',
  }).format(new Date(expiresAt));
}
