/**
 * Checks an audit export (`GET /api/audit/export`, JSON Lines) against its hash chain:
 * `npm run audit:verify -- toolgate-audit.jsonl`. Exits 0 and prints the row count when
 * every row chains; exits 1 naming the first row that does not (its seq and id), 2 when
 * the file cannot be read.
 */
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createChainVerifier } from '../lib/db/audit-chain';

/** Where {@link verifyAuditExport} says what it found. */
export type VerifyAuditExportOptions = {
  /** Receives the row count of an export that chains. */
  out: (text: string) => void;
  /** Receives what stops it: the first row that does not chain, a line that is not JSON. */
  error: (text: string) => void;
};

/** Checks the export at `path`; resolves to the exit status (0 chains, 1 does not, 2 unreadable). */
export async function verifyAuditExport(
  path: string | undefined,
  { out, error: say }: VerifyAuditExportOptions,
): Promise<number> {
  if (path === undefined) {
    say('usage: npm run audit:verify -- <export.jsonl>');
    return 2;
  }
  const verifier = createChainVerifier();
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        say(`line ${lineNumber}: not JSON`);
        return 1;
      }
      const verdict = verifier.push(row);
      if (verdict !== undefined && !verdict.ok) {
        say(
          `line ${lineNumber}: row seq ${String(verdict.seq)} (id ${String(verdict.id)}) does not chain: ${verdict.reason}`,
        );
        return 1;
      }
    }
  } catch (error) {
    say(`cannot read ${path}: ${(error as Error).message}`);
    return 2;
  }
  const verdict = verifier.end();
  if (!verdict.ok) return 1;
  const range = verdict.rows === 0 ? '' : ` (seq ${verdict.firstSeq} to ${verdict.lastSeq})`;
  out(`${verdict.rows} rows chain${range}`);
  return 0;
}

// Run as a command (not imported).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void verifyAuditExport(process.argv[2], {
    out: (text) => console.log(text),
    error: (text) => console.error(text),
  }).then((code) => {
    process.exitCode = code;
  });
}
