import { join } from 'node:path';
import { writePendingApprovals } from '../../tests/support/pending-approvals';
import { median, nowMs, round } from '../support/stats';
import type { BenchCase } from '../support/types';

/** Writes `count` pending approvals with one open `supervisor` step, as many requests would. */
function writePending(db: import('@/lib/db/engine').Db, count: number, expiresAt: number) {
  return writePendingApprovals(
    db,
    Array.from({ length: count }, (_, index) => {
      const id = `ap-${index}`;
      return {
        id,
        ownerId: `requester-${index % 200}`,
        createdAt: new Date(Date.UTC(2030, 0, 1) + index).toISOString(),
        expiresAt,
        toolName: 'issueRefund',
        worker: 'refund',
        input: { orderId: 'A1002', amount: 80, reason: `request ${id}` },
        excerpt: `refund $80 on A1002 (${id})`,
        ruleLabel: 'rules[0]: issueRefund',
        steps: [{ kind: 'role', role: 'supervisor' }],
      };
    }),
  );
}

/** The configuration the product reads (`getConfig` keeps it on `globalThis`), swapped to serve another database. */
const globalForConfig = globalThis as typeof globalThis & { __toolgateConfig?: unknown };

/**
 * The approvers' inbox at volume: one read of its first page (`GET /api/approvals?limit=50`,
 * through `listApprovalsToDecide`, as the route calls it) for a supervisor with 10,000 items
 * waiting, against the same read for a supervisor of an empty database (nothing waits). Each
 * database is its own SQLite file; the product's configuration is pointed at one or the other
 * between calls (two parsed configurations, swapped). The two alternate call by call in each
 * round; the ratio is the median of the per-round ratios of the mean call time. Target: ≤ 2 ×
 * the empty inbox. A second row reports an approver of another role in the full database
 * (nothing of theirs waits among the 10,000): no target.
 */
export const inboxVolume: BenchCase = async ({ quick, scratch, log }) => {
  Object.assign(process.env, {
    AI_MODEL: 'offline',
    BETTER_AUTH_SECRET: 'bench-secret-that-is-long-enough-for-better-auth',
  });
  const { getConfig } = await import('@/lib/config');
  const { getDb } = await import('@/lib/db');
  const { listApprovalsToDecide } = await import('@/lib/approvals');
  const configOn = (file: string) => {
    process.env.DATABASE_PATH = join(scratch, file);
    globalForConfig.__toolgateConfig = undefined;
    return getConfig();
  };
  const databases = { empty: configOn('inbox-empty.db'), full: configOn('inbox-full.db') };
  const use = (which: keyof typeof databases) => {
    globalForConfig.__toolgateConfig = databases[which];
  };
  use('empty');
  const emptyDb = await getDb();
  use('full');
  const fullDb = await getDb();
  const waiting = quick ? 1_000 : 10_000;
  log(`inbox volume: writing ${waiting} waiting approvals`);
  await writePending(fullDb, waiting, Date.now() + 86_400_000);
  const supervisor = { id: 'supervisor-1', roles: ['supervisor'] };
  const auditor = { id: 'auditor-1', roles: ['auditor'] };
  const read = async (which: keyof typeof databases, viewer: typeof supervisor) => {
    use(which);
    const result = await listApprovalsToDecide(viewer, { limit: '50' });
    if (result.status !== 200) throw new Error(`the inbox answered ${result.status}`);
    return result.body.approvals.length;
  };
  if ((await read('full', supervisor)) !== 50 || (await read('empty', supervisor)) !== 0)
    throw new Error('the inbox read the wrong items');
  const sides = {
    empty: () => read('empty', supervisor),
    full: () => read('full', supervisor),
    otherRole: () => read('full', auditor),
  };
  const rounds = quick ? 3 : 9;
  const callsPerRound = quick ? 10 : 50;
  for (let warm = 0; warm < callsPerRound; warm++) for (const run of Object.values(sides)) await run();
  const msBySide = { empty: [] as number[], full: [] as number[], otherRole: [] as number[] };
  const ratios = { full: [] as number[], otherRole: [] as number[] };
  for (let roundIndex = 0; roundIndex < rounds; roundIndex++) {
    const totals = { empty: 0, full: 0, otherRole: 0 };
    for (let call = 0; call < callsPerRound; call++) {
      // The order turns every call, so drift hits every side.
      const names = Object.keys(sides) as (keyof typeof sides)[];
      const order = names.map((_, index) => names[(index + call) % names.length] as keyof typeof sides);
      for (const name of order) {
        const started = nowMs();
        await sides[name]();
        totals[name] += nowMs() - started;
      }
    }
    for (const name of Object.keys(totals) as (keyof typeof totals)[])
      msBySide[name].push(totals[name] / callsPerRound);
    ratios.full.push(totals.full / totals.empty);
    ratios.otherRole.push(totals.otherRole / totals.empty);
  }
  await emptyDb.destroy();
  await fullDb.destroy();
  const ratio = median(ratios.full);
  const baseline = { label: 'empty inbox (nothing waits)', medianMs: round(median(msBySide.empty)) };
  return [
    {
      name: `approvals-inbox/first-page-${waiting}-waiting`,
      baseline,
      subject: { label: `${waiting} waiting, first page of 50`, medianMs: round(median(msBySide.full)) },
      ratio: round(ratio),
      ratioOf: 'median of per-round mean ms per read, subject ÷ baseline',
      target: '≤ 2 × the empty inbox',
      pass: ratio <= 2,
    },
    {
      name: `approvals-inbox/other-role-among-${waiting}-waiting`,
      baseline,
      subject: {
        label: `an approver of another role, ${waiting} waiting for others`,
        medianMs: round(median(msBySide.otherRole)),
      },
      ratio: round(median(ratios.otherRole)),
      ratioOf: 'median of per-round mean ms per read, subject ÷ baseline',
      target: 'report',
      pass: null,
      notes: `Nothing of theirs waits: their list is read from the open steps of their role (none), not by walking the ${waiting} pending rows.`,
    },
  ];
};
