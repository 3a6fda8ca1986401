import { jsonError } from './json';

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
