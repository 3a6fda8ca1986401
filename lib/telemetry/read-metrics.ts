import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { renderMetrics } from './metrics';

/**
 * Whether `authorization` is `Bearer <token>`. Compared in constant time over SHA-256-sized
 * buffers of equal length, so neither the token's content nor its length leaks through timing.
 */
export function isMetricsToken(authorization: string | null, token: string): boolean {
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/** The Prometheus text of every series, with the pending gauge the caller read from the database now. */
export function readMetrics({ approvalsPending }: { approvalsPending: number }): string {
  return renderMetrics({ approvalsPending });
}
