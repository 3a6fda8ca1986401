import type { BenchResult, Side } from './types';

function describeSide({ label, ...figures }: Side): string {
  const parts = Object.entries(figures).map(([name, value]) => `${name} ${value}`);
  return parts.length === 0 ? label : `${label}: ${parts.join(', ')}`;
}

/** The verdict column: PASS / FAIL, `—` for rows without a target, SKIPPED / CRASHED with the reason. */
export function verdict(result: BenchResult): string {
  if (result.skipped !== undefined) return `SKIPPED (${result.skipped})`;
  if (result.pass === null) return '—';
  return result.pass ? 'PASS' : 'FAIL';
}

/** The results as a Markdown table (readable in a terminal, pasted as-is into the README). */
export function markdownTable(results: readonly BenchResult[]): string {
  const escapeCell = (text: string) => text.replaceAll('|', '\\|');
  const lines = [
    '| benchmark | baseline | subject | ratio | target | result |',
    '|---|---|---|---|---|---|',
    ...results.map((result) =>
      [
        result.name,
        describeSide(result.baseline),
        describeSide(result.subject),
        result.ratio === null ? '—' : String(result.ratio),
        result.target,
        verdict(result),
      ]
        .map(escapeCell)
        .join(' | '),
    ),
  ];
  return lines.map((line) => (line.startsWith('|') ? line : `| ${line} |`)).join('\n');
}
