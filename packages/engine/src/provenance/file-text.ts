import { pdfText } from './pdf-text';

/** The most bytes of one attached file that are read for comparing. */
const maxFileBytes = 256_000;

/**
 * The text of an attached file given inline (a base64 or percent-encoded `data:` URL), whatever
 * media type it claims: UTF-8 (a byte-order mark dropped), UTF-16 with its byte-order mark, a
 * PDF's text. Undefined when no text can be read from it (an image, an archive, a PDF whose
 * text is not stored as text): such a file keeps its chat marked, since nobody can say what
 * the model read in it.
 */
export function fileText(part: { url?: unknown }): string | undefined {
  const bytes = bytesOf(part.url);
  if (bytes === undefined) return undefined;
  if (bytes.length === 0) return '';
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return pdfText(bytes);
  if (startsWith(bytes, [0xff, 0xfe])) return decode('utf-16le', bytes.subarray(2));
  if (startsWith(bytes, [0xfe, 0xff])) return decode('utf-16be', bytes.subarray(2));
  const text = decode('utf-8', startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes);
  // Valid UTF-8 that holds control characters beyond the usual whitespace is binary, not text.
  return text !== undefined && !holdsBinaryControl(text) ? text : undefined;
}

/** Control characters other than tab, line breaks and form feed: a binary file's, not a text's. */
function holdsBinaryControl(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 && (code < 0x09 || code > 0x0d)) return true;
  }
  return false;
}

function bytesOf(url: unknown): Uint8Array | undefined {
  if (typeof url !== 'string' || url.slice(0, 5).toLowerCase() !== 'data:') return undefined;
  const comma = url.indexOf(',');
  if (comma === -1) return undefined;
  const header = url.slice(5, comma).toLowerCase();
  const body = url.slice(comma + 1);
  try {
    if (header.endsWith(';base64')) {
      return new Uint8Array(Buffer.from(body.slice(0, Math.ceil((maxFileBytes * 4) / 3)), 'base64'));
    }
    return new Uint8Array(Buffer.from(decodeURIComponent(body).slice(0, maxFileBytes), 'utf8'));
  } catch {
    return undefined;
  }
}

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

function decode(encoding: 'utf-8' | 'utf-16le' | 'utf-16be', bytes: Uint8Array): string | undefined {
  try {
    // A cut at the byte limit may split the last character: drop it, do not refuse the file.
    return new TextDecoder(encoding, { fatal: true }).decode(
      bytes.length >= maxFileBytes ? bytes.subarray(0, trimmedLength(encoding, bytes)) : bytes,
    );
  } catch {
    return undefined;
  }
}

function trimmedLength(encoding: string, bytes: Uint8Array): number {
  if (encoding !== 'utf-8') return bytes.length - (bytes.length % 2) - 2;
  let end = bytes.length;
  while (end > 0 && ((bytes[end - 1] ?? 0) & 0xc0) === 0x80) end -= 1;
  return Math.max(0, end - 1);
}
