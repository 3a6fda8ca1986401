import { join } from 'node:path';
import { createMemoryIdempotencyStore, wrapToolsWithIdempotency } from '@toolgate/engine';
import type { EffectRecorder } from '@toolgate/engine/shells';
import pg from 'pg';
import type { Db } from '../../lib/db/engine';
import { openDatabase } from '../../lib/db/open-database';
import { commitToolEffect } from '../../lib/db/tool-effects';
import { createCreateTicketTool } from '../../lib/tools/create-ticket';
import { startPostgresCluster } from '../../tests/support/postgres-cluster';
import { median, nowMs, round } from '../support/stats';
import type { BenchCase, BenchResult } from '../support/types';

type Side = 'store only' | 'effect + record';

/** Calls `run` back to back for `durationMs`; returns calls per second. */
async function measure(run: () => Promise<unknown>, durationMs: number): Promise<number> {
  let calls = 0;
  const start = nowMs();
  while (nowMs() - start < durationMs) {
    await run();
    calls += 1;
  }
  return (calls * 1000) / (nowMs() - start);
}

/**
 * What writing a tool's effect and the record of its result in one transaction costs,
 * against the path through the idempotency store alone: one `createTicket` call through
 * the idempotency shell (memory store), each call a new ticket (nothing replays), with and
 * without the effect recorder, on SQLite and on Postgres. The two sides alternate round by
 * round on one database; the ratio is the median of the per-round time ratios.
 */
export const effectRecords: BenchCase = async ({ quick, scratch, log }) => {
  const rounds = quick ? 3 : 11;
  const roundMs = quick ? 150 : 1_000;
  const cluster = await startPostgresCluster();
  try {
    const rows: BenchResult[] = [];
    for (const engine of ['sqlite', 'postgres'] as const) {
      let db: Db;
      if (engine === 'sqlite') {
        db = await openDatabase({ path: join(scratch, 'effect-records.db') });
      } else {
        const admin = new pg.Client({ connectionString: cluster.url });
        await admin.connect();
        await admin.query('CREATE DATABASE effect_records');
        await admin.end();
        const url = new URL(cluster.url);
        url.pathname = '/effect_records';
        db = await openDatabase({ url: url.toString() });
      }
      try {
        const recorder: EffectRecorder = {
          commit: (call, effect) =>
            commitToolEffect(db, { ...call, userId: call.partition }, (transaction) => effect(transaction), {
              ttlMs: 600_000,
            }),
        };
        let counter = 0;
        const tables = {
          'store only': wrapToolsWithIdempotency(
            { createTicket: createCreateTicketTool(db, { userId: 'bench', chatId: 'bench' }) },
            createMemoryIdempotencyStore({ maxEntries: 1_000_000, maxTotalEntries: 1_000_000 }),
            { scope: 'bench', partition: 'bench', tools: ['createTicket'] },
          ),
          'effect + record': wrapToolsWithIdempotency(
            { createTicket: createCreateTicketTool(db, { userId: 'bench', chatId: 'bench' }) },
            createMemoryIdempotencyStore({ maxEntries: 1_000_000, maxTotalEntries: 1_000_000 }),
            { scope: 'bench', partition: 'bench', tools: ['createTicket'], effects: recorder },
          ),
        };
        const runOf = (side: Side) => () => {
          counter += 1;
          return Promise.resolve(
            tables[side].createTicket.execute?.(
              { title: `bench ticket ${counter}` },
              { toolCallId: `call-${counter}`, messages: [], context: {} },
            ),
          );
        };
        const sides: Side[] = ['store only', 'effect + record'];
        for (const side of sides) await measure(runOf(side), quick ? 50 : 300);
        const samples: Record<Side, number[]> = { 'store only': [], 'effect + record': [] };
        for (let index = 0; index < rounds; index += 1) {
          log(`effect records: ${engine} round ${index + 1}/${rounds}`);
          const order = index % 2 === 0 ? sides : [...sides].reverse();
          for (const side of order) samples[side].push(await measure(runOf(side), roundMs));
        }
        const ratios = samples['store only'].map(
          (ops, index) => ops / (samples['effect + record'][index] ?? Number.NaN),
        );
        rows.push({
          name: `effect-records/${engine}`,
          baseline: {
            label: `createTicket, store only (${engine})`,
            opsPerSecond: Math.round(median(samples['store only'])),
          },
          subject: {
            label: `createTicket, ticket + record in one transaction (${engine})`,
            opsPerSecond: Math.round(median(samples['effect + record'])),
            ratioSpread: `${round(Math.min(...ratios))}–${round(Math.max(...ratios))}`,
          },
          ratio: round(median(ratios)),
          ratioOf: 'time per write, subject ÷ baseline (median of the per-round ratios; spread min–max)',
          target: 'report',
          pass: null,
        });
      } finally {
        await db.destroy();
      }
    }
    return rows;
  } finally {
    cluster.destroy();
  }
};
