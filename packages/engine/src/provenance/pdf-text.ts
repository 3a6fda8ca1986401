import { inflateSync } from 'node:zlib';

/** The most characters of text read out of one PDF. */
const maxPdfChars = 64_000;

/**
 * The text a PDF shows with its text operators (`Tj`, `TJ`, `'`, `"`), from its plain and
 * Flate-compressed content streams, for comparing only: literal strings with their escapes, one
 * line per text object. Undefined when it holds no such text (scanned pages, text in encodings
 * this does not map): the file then counts as unreadable and keeps its chat marked.
 */
export function pdfText(bytes: Uint8Array): string | undefined {
  const raw = Buffer.from(bytes).toString('latin1');
  const lines: string[] = [];
  let length = 0;
  for (const match of raw.matchAll(streamPattern)) {
    if (length > maxPdfChars) break;
    const [, dictionary = '', body = ''] = match;
    let content = body;
    if (/\/FlateDecode/.test(dictionary)) {
      try {
        content = inflateSync(Buffer.from(body, 'latin1')).toString('latin1');
      } catch {
        continue;
      }
    } else if (/\/Filter/.test(dictionary)) continue;
    for (const block of content.matchAll(textObject)) {
      const line = textOfBlock(block[1] ?? '');
      if (line.trim() === '') continue;
      lines.push(line);
      length += line.length + 1;
    }
  }
  const text = lines.join('\n').slice(0, maxPdfChars);
  return text.trim() === '' ? undefined : text;
}

const streamPattern = /<<((?:(?!>>\s*stream)[\s\S]){0,2000})>>\s*stream\r?\n([\s\S]*?)\r?\nendstream/g;
const textObject = /\bBT\b([\s\S]*?)\bET\b/g;
// A literal string (balanced parentheses, escapes) or an array of them and kerning numbers, then its operator.
const showText =
  /(\((?:\\[\s\S]|[^\\()]|\((?:\\[\s\S]|[^\\()])*\))*\)|\[(?:[^\]\\]|\\[\s\S])*\])\s*(Tj|TJ|'|")|(T\*|Td|TD)/g;

function textOfBlock(block: string): string {
  let line = '';
  for (const [, operand, operator, move] of block.matchAll(showText)) {
    if (move !== undefined) {
      line += ' ';
      continue;
    }
    if (operand === undefined) continue;
    if (operator === 'TJ') {
      for (const [piece] of operand.matchAll(/\((?:\\[\s\S]|[^\\()])*\)/g)) line += unescapeLiteral(piece);
    } else line += unescapeLiteral(operand);
  }
  return line;
}

const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

function unescapeLiteral(literal: string): string {
  return literal
    .slice(1, -1)
    .replace(/\\(?:([0-7]{1,3})|\r?\n|([\s\S]))/g, (_, octal?: string, other?: string) => {
      if (octal !== undefined) return String.fromCharCode(Number.parseInt(octal, 8));
      if (other === undefined) return '';
      return escapes[other] ?? other;
    });
}
