import { z } from 'zod';
import { maxRoleListLimit } from '@/lib/auth/role-admin';
import { roleNamePattern } from '@/lib/db/user-roles';
import { describeZodError } from '@/lib/http/json';

/** `GET /api/admin/roles` query (also the `/admin/roles` page's search): `?q=&offset=&limit=`. */
export const roleListQuerySchema = z.object({
  q: z
    .string()
    .max(254, 'q has at most 254 characters')
    .optional()
    .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim())),
  offset: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .optional()
    .transform((value) => value ?? 0),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(maxRoleListLimit)
    .optional()
    .transform((value) => value ?? 50),
});

/** Validates query parameters; a repeated parameter counts by its first value. */
export function parseRoleListQuery(
  searchParams: URLSearchParams | Record<string, string | string[] | undefined>,
): { success: true; data: z.output<typeof roleListQuerySchema> } | { success: false; error: string } {
  const entries =
    searchParams instanceof URLSearchParams
      ? [...searchParams.keys()].map((key) => [key, searchParams.get(key) ?? undefined] as const)
      : Object.entries(searchParams).map(
          ([key, value]) => [key, Array.isArray(value) ? value[0] : value] as const,
        );
  const parsed = roleListQuerySchema.safeParse(Object.fromEntries(entries));
  return parsed.success
    ? { success: true, data: parsed.data }
    : { success: false, error: describeZodError(parsed.error) };
}

/** `POST /api/admin/roles/grant` and `/revoke` body. */
export const roleChangeSchema = z.strictObject({
  userId: z.string().min(1).max(128),
  role: z
    .string({ error: 'role is required' })
    .regex(
      roleNamePattern,
      'role must be lower-case letters, digits, "-" and "_", starting with a letter (e.g. supervisor)',
    ),
});
