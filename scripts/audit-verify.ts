/**
 * Checks an audit export (`GET /api/audit/export`, JSON Lines) against its hash chain:
 * `npm run audit:verify -- toolgate-audit.jsonl`. Exits 0 and prints the row count when
 * every row chains; exits 1 naming the first row that does not (its seq and id), 2 when
 * the file cannot be read.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createChainVerifier } from '../lib/db/audit-chain';

async function main(path: string | undefined): Promise<number> {
  if (path === undefined) {
    console.error('usage: npm run audit:verify -- <export.jsonl>');
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
        console.error(`line ${lineNumber}: not JSON`);
        return 1;
      }
      const verdict = verifier.push(row);
      if (verdict !== undefined && !verdict.ok) {
        console.error(
          `line ${lineNumber}: row seq ${String(verdict.seq)} (id ${String(verdict.id)}) does not chain: ${verdict.reason}`,
        );
        return 1;
      }
    }
  } catch (error) {
    console.error(`cannot read ${path}: ${(error as Error).message}`);
    return 2;
  }
  const verdict = verifier.end();
  if (!verdict.ok) return 1;
  const range = verdict.rows === 0 ? '' : ` (seq ${verdict.firstSeq} to ${verdict.lastSeq})`;
  console.log(`${verdict.rows} rows chain${range}`);
  return 0;
}

main(process.argv[2]).then((code) => {
  process.exitCode = code;
});
