import { z } from 'zod';
import { auditOutcomes } from '@/lib/db/audit';
import { describeZodError } from '@/lib/http/json';
import { toolNames } from '@/lib/tools/tool-catalog';

/** The most rows one request may ask for. */
export const maxAuditLimit = 500;

// An empty field (a GET form's "All" choice) means no filter.
const optional = <SCHEMA extends z.ZodType>(schema: SCHEMA) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** `GET /api/audit` query (also the `/audit` page's filters). */
export const auditQuerySchema = z.object({
  userId: optional(
    z
      .string()
      .max(128)
      .regex(/^[\w-]+$/, 'userId may hold letters, digits, "_" and "-" only'),
  ),
  chatId: optional(
    z
      .string()
      .max(128)
      .regex(/^[\w-]+$/, 'chatId may hold letters, digits, "_" and "-" only'),
  ),
  // MCP tools are named `<server>__<tool>`; which exist depends on the servers, so only the shape is checked.
  tool: optional(
    z.union([
      z.enum(toolNames),
      z
        .string()
        .max(64)
        .regex(/^[\w-]+__[\w-]+$/),
    ]),
  ),
  outcome: optional(z.enum(auditOutcomes)),
  limit: optional(z.coerce.number().int().min(1).max(maxAuditLimit)).transform((value) => value ?? 100),
});

export type AuditQueryParams = z.output<typeof auditQuerySchema>;

/** Validates query parameters; a repeated parameter counts by its first value. */
export function parseAuditQuery(
  searchParams: URLSearchParams | Record<string, string | string[] | undefined>,
): { success: true; data: AuditQueryParams } | { success: false; error: string } {
  const entries =
    searchParams instanceof URLSearchParams
      ? [...searchParams.keys()].map((key) => [key, searchParams.get(key)] as const)
      : Object.entries(searchParams).map(
          ([key, value]) => [key, Array.isArray(value) ? value[0] : value] as const,
        );
  const parsed = auditQuerySchema.safeParse(Object.fromEntries(entries));
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, error: describeZodError(parsed.error) };
}
