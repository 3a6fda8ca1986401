import { z } from 'zod';
import { describeZodError } from '@/lib/http/json';

// An ISO 8601 time, with `Z` or an offset; the query holds it as UTC so it compares with stored times.
const isoTime = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z.iso
    .datetime({ offset: true, message: 'expected an ISO 8601 time such as 2026-01-31T00:00:00Z' })
    .transform((value) => new Date(value).toISOString())
    .optional(),
);

/** `GET /api/audit/export` query: the window of time the rows joined the chain in, `[since, until)`. */
export const auditExportQuerySchema = z
  .object({ since: isoTime, until: isoTime })
  .refine(({ since, until }) => since === undefined || until === undefined || since < until, {
    message: 'since must be earlier than until',
  });

/** Validates the export's query parameters; a repeated parameter counts by its first value. */
export function parseAuditExportQuery(
  searchParams: URLSearchParams,
): { success: true; data: z.output<typeof auditExportQuerySchema> } | { success: false; error: string } {
  const parsed = auditExportQuerySchema.safeParse({
    since: searchParams.get('since') ?? undefined,
    until: searchParams.get('until') ?? undefined,
  });
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, error: describeZodError(parsed.error) };
}
