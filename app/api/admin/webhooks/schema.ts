import { z } from 'zod';
import { describeZodError } from '@/lib/http/json';

/** The most deliveries one request may ask for. */
export const maxWebhookDeliveryLimit = 500;

// An empty field (a GET form's "All" choice) means no filter.
const optional = <SCHEMA extends z.ZodType>(schema: SCHEMA) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** `GET /api/admin/webhooks` query (also the `/admin/webhooks` page's filter). */
export const webhookDeliveriesQuerySchema = z.object({
  status: optional(z.enum(['pending', 'delivered', 'failed'])),
  limit: optional(z.coerce.number().int().min(1).max(maxWebhookDeliveryLimit)).transform(
    (value) => value ?? 100,
  ),
});

export type WebhookDeliveriesQuery = z.output<typeof webhookDeliveriesQuerySchema>;

/** Validates query parameters; a repeated parameter counts by its first value. */
export function parseWebhookDeliveriesQuery(
  searchParams: URLSearchParams | Record<string, string | string[] | undefined>,
): { success: true; data: WebhookDeliveriesQuery } | { success: false; error: string } {
  const entries =
    searchParams instanceof URLSearchParams
      ? [...searchParams.keys()].map((key) => [key, searchParams.get(key)] as const)
      : Object.entries(searchParams).map(
          ([key, value]) => [key, Array.isArray(value) ? value[0] : value] as const,
        );
  const parsed = webhookDeliveriesQuerySchema.safeParse(Object.fromEntries(entries));
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, error: describeZodError(parsed.error) };
}
