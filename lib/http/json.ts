import { maxJsonDepth, nestsDeeperThan } from './json-depth';

/** A JSON error body `{ error }` with the given status: every route answers bad input this way. */
export function jsonError(status: number, error: string): Response {
  return Response.json({ error }, { status });
}

/**
 * `Response.json` with its Content-Length: a body under 1 KB is then sent as it is, where
 * without a length Next.js's response compression starts a gzip stream for a few bytes.
 */
export function jsonWithLength(body: unknown, init: { status: number }): Response {
  const text = JSON.stringify(body);
  return new Response(text, {
    status: init.status,
    headers: {
      'content-type': 'application/json',
      'content-length': String(new TextEncoder().encode(text).byteLength),
    },
  });
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
  const read = await readLimitedBody(request, maxBytes);
  if (!read.ok) return read;
  if (read.bytes === null) return { ok: false, response: jsonError(400, 'Expected a JSON body') };
  const text = new TextDecoder().decode(read.bytes);
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

/**
 * Reads a request body of at most `maxBytes`, as a stream, so an oversized upload is cut
 * off rather than buffered whole: 413 `{ error }` past the limit.
 */
export async function readLimitedBody(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; bytes: Uint8Array<ArrayBuffer> | null } | { ok: false; response: Response }> {
  const tooLarge = () => ({
    ok: false as const,
    response: jsonError(413, `Body larger than ${maxBytes} bytes`),
  });
  if (Number(request.headers.get('content-length') ?? '0') > maxBytes) return tooLarge();
  if (request.body === null) return { ok: true, bytes: null };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return tooLarge();
    }
    chunks.push(value);
  }
  return { ok: true, bytes: new Uint8Array(Buffer.concat(chunks)) };
}
