import { readFileSync, writeFileSync } from 'node:fs';
import { runMessage } from './tests/support/grade-offline-model';
const strs: string[] = JSON.parse(readFileSync('/tmp/strs.json', 'utf8'));
const out: Record<string, unknown> = {};
for (const s of strs) out[s] = (await runMessage(s)).calls;
writeFileSync(process.argv[2] as string, JSON.stringify(out));
