import { z } from 'zod';
import { describeZodError, jsonError } from './json';

/** The largest page `GET /api/tickets` and `GET /api/todos` answer (also their default). */
export const maxListPageSize = 100;

/** `?cursor=…&limit=…` of a newest-first list: anything else in the query is a 400. */
const newestFirstQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(64).optional(),
  limit: z.coerce.number().int().min(1).max(maxListPageSize).default(maxListPageSize),
});

/** Which page a list request asks for: rows older than `beforeId`, at most `limit`. */
export type NewestFirstPage = { beforeId?: number; limit: number };

/** The page a request's query asks for, or the 400 to answer (nothing is read then). */
export function newestFirstPageOf(searchParams: URLSearchParams): NewestFirstPage | { response: Response } {
  const parsed = newestFirstQuerySchema.safeParse(Object.fromEntries(searchParams));
  if (!parsed.success) return { response: jsonError(400, describeZodError(parsed.error)) };
  const { cursor, limit } = parsed.data;
  if (cursor === undefined) return { limit };
  const beforeId = decodeCursor(cursor);
  if (beforeId === undefined) return { response: jsonError(400, 'cursor: not a cursor this endpoint gave') };
  return { beforeId, limit };
}

function decodeCursor(cursor: string): number | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(value) && Number.isSafeInteger(value[0]) && value[0] > 0 ? value[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A page of a newest-first list: the body stays a JSON array (as it always was); when older
 * rows remain, `Link: <…?cursor=…>; rel="next"` and `X-Next-Cursor` say where the next page
 * starts. `rows` holds up to `limit + 1` rows (one more than the page, read to know whether
 * another page exists); `idOf` gives a row's numeric id.
 */
export function newestFirstPageResponse<ROW>(
  path: string,
  rows: readonly ROW[],
  { limit }: NewestFirstPage,
  idOf: (row: ROW) => number,
): Response {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  if (rows.length <= limit || last === undefined) return Response.json(page);
  const cursor = Buffer.from(JSON.stringify([idOf(last)])).toString('base64url');
  return Response.json(page, {
    headers: {
      Link: `<${path}?cursor=${cursor}&limit=${limit}>; rel="next"`,
      'X-Next-Cursor': cursor,
    },
  });
}
