import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { approvalTransitions, assertTransition } from '@/lib/approvals/life-cycle/approval-states';
import { codeFiles, repositoryRoot } from '../support/source-files';

/*
 * An approval's status changes in one module, lib/approvals/, through one table of
 * transitions. Tests and benchmarks drive the app as callers do and are left out.
 */
const home = 'lib/approvals/';
const outside = (file: string) =>
  !file.startsWith(home) && !['tests/', 'e2e/', 'bench/'].some((folder) => file.startsWith(folder));

/** The writers of approval rows; only the verbs in lib/approvals/ call them. */
const rowWriters = [
  'moveApproval',
  'claimDecision',
  'fillStep',
  'lockPendingForDecision',
  'pushDeadline',
  'insertApprovalRow',
  'reopenAllowedSteps',
  'setEditedInput',
];

/** Each query-builder statement on an approvals table, up to where it runs. */
function statementsOn(text: string): string[] {
  const statements: string[] = [];
  const start = /\b(?:updateTable|insertInto|deleteFrom)\(\s*['"](approvals|approval_steps)['"]\s*\)/g;
  for (const match of text.matchAll(start)) {
    const rest = text.slice(match.index);
    const end = rest.search(/\.execute(?:TakeFirst(?:OrThrow)?)?\(/);
    statements.push(end === -1 ? rest : rest.slice(0, end));
  }
  return statements;
}

describe('an approval status', () => {
  const files = codeFiles().filter(outside);
  const read = (file: string) => readFileSync(join(repositoryRoot, file), 'utf8');

  it('is read from a walk of the real sources', () => {
    expect(files).toContain('lib/chat/carry-out-decision.ts');
    expect(files).toContain('lib/db/guest-links.ts');
    expect(files).not.toContain('lib/approvals/life-cycle/approval-rows.ts');
    expect(statementsOn(read('lib/db/guest-links.ts'))).toHaveLength(1); // A guest's rows move to their account.
  });

  it('is written by no code outside lib/approvals/: no status in any statement on the approval tables', () => {
    const writing = files.flatMap((file) => {
      const text = read(file);
      const byBuilder = statementsOn(text).filter(
        (statement) => /\bstatus\b|\bdecision\b|\bclaimed\b/.test(statement) || /insertInto/.test(statement),
      );
      const bySql = /\b(?:UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+(?:approvals|approval_steps)\b/i.test(text);
      return byBuilder.length > 0 || bySql ? [file] : [];
    });
    expect(writing).toEqual([]);
  });

  it('changes only through the verbs: the row writers are imported nowhere outside lib/approvals/', () => {
    const importing = files.flatMap((file) => {
      const text = read(file);
      const named = rowWriters.filter((name) => new RegExp(`\\b${name}\\b`).test(text));
      return named.length === 0 ? [] : [`${file}: ${named.join(', ')}`];
    });
    expect(importing).toEqual([]);
    const barrel = read('lib/approvals/index.ts');
    expect(rowWriters.filter((name) => new RegExp(`\\b${name}\\b`).test(barrel))).toEqual([]);
  });

  it('moves only along the transition table, which ends in states that go nowhere', () => {
    expect(() => assertTransition('pending', 'approved')).not.toThrow();
    expect(() => assertTransition('pending', 'executing')).toThrow(/cannot go from pending to executing/);
    expect(() => assertTransition('executed', 'pending')).toThrow();
    const finals = Object.entries(approvalTransitions)
      .filter(([, next]) => next.length === 0)
      .map(([status]) => status);
    expect(finals.sort()).toEqual(
      ['closed', 'denied', 'executed', 'expired', 'failed', 'stopped', 'superseded', 'withdrawn'].sort(),
    );
  });
});
