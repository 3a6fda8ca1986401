import { maxJsonDepth, nestsDeeperThan } from './json-depth';

/** A JSON error body `{ error }` with the given status: every route answers bad input this way. */
export function jsonError(status: number, error: string): Response {
  return Response.json({ error }, { status });
}

/** The largest request body any route accepts (1 MiB). */
export const maxBodyBytes = 1024 * 1024;

/**
 * Reads and parses a JSON body without trusting its size, syntax or shape: too large →
 * 413, not JSON or nested deeper than `maxJsonDepth` → 400. The body is read as a stream so an oversized upload is cut
 * off instead of buffered whole.
 */
export async function readJsonBody(
  request: Request,
  { maxBytes = maxBodyBytes }: { maxBytes?: number } = {},
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes)
    return { ok: false, response: jsonError(413, `Body larger than ${maxBytes} bytes`) };
  if (request.body === null) return { ok: false, response: jsonError(400, 'Expected a JSON body') };

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return { ok: false, response: jsonError(413, `Body larger than ${maxBytes} bytes`) };
    }
    chunks.push(value);
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, response: jsonError(400, 'Body is not valid JSON') };
  }
  if (nestsDeeperThan(value, maxJsonDepth)) {
    return { ok: false, response: jsonError(400, `Body nests deeper than ${maxJsonDepth} levels`) };
  }
  return { ok: true, value };
}

/** Turns the first zod issue into a message a client can act on: `messages.0.role: Invalid option`. */
export function describeZodError(error: {
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>;
}): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'Invalid request';
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}
