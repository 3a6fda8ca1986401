import { describe, expect, it } from 'vitest';
import type { Db } from '@/lib/db/engine';
import { computeToolPreview, previewFaultOf } from '@/lib/tools/compute-tool-preview';
import { localizePreview } from '@/lib/tools/localize-preview';

// A preview that runs would need a database; these calls never reach it.
const noDatabase = {} as Db;
const call = { toolName: 'createTicket', input: { title: 'printer broken' }, context: { userId: 'user-a' } };

describe('computeToolPreview', () => {
  it('has none for a tool that declares none', async () => {
    expect(
      await computeToolPreview(noDatabase, {
        ...call,
        toolName: 'getOrderStatus',
        input: { orderId: 'A1001' },
      }),
    ).toBeUndefined();
    expect(await computeToolPreview(noDatabase, { ...call, toolName: 'toString' })).toBeUndefined();
  });

  it('gives up on a preview that takes too long instead of holding the card', async () => {
    const started = Date.now();
    const preview = await computeToolPreview(noDatabase, call, { timeoutMs: 50, fault: 'slow-preview' });
    expect(preview).toEqual({ lines: [], warnings: [], unavailable: 'timeout' });
    // Generous: the preview itself would have taken ten times the limit.
    expect(Date.now() - started).toBeLessThan(400);
  });

  it('turns a preview that throws into a note, never an error', async () => {
    expect(await computeToolPreview(noDatabase, call, { fault: 'failing-preview' })).toEqual({
      lines: [],
      warnings: [],
      unavailable: 'error',
    });
  });

  it('turns a preview that throws on a missing database into a note too', async () => {
    expect(await computeToolPreview(noDatabase, call)).toMatchObject({ unavailable: 'error' });
  });
});

describe('previewFaultOf', () => {
  it('honours a preview fault only with TOOLGATE_TESTING', () => {
    expect(previewFaultOf({ TOOLGATE_TESTING: true, TOOLGATE_FAULT: 'slow-preview' })).toBe('slow-preview');
    expect(previewFaultOf({ TOOLGATE_TESTING: false, TOOLGATE_FAULT: 'slow-preview' })).toBeUndefined();
    expect(previewFaultOf({ TOOLGATE_TESTING: true, TOOLGATE_FAULT: 'crash-after-effect' })).toBeUndefined();
  });
});

describe('localizePreview', () => {
  it('gives labels and warnings in the reader’s language, or the note when there is no preview', () => {
    const stored = {
      lines: [{ label: { en: 'Order total', zh: '订单总额' }, value: '¥899.00' }],
      warnings: [{ en: 'It will be refused.', zh: '将被拒绝。' }],
    };
    expect(localizePreview(stored, 'zh')).toEqual({
      preview: { lines: [{ label: '订单总额', value: '¥899.00' }], warnings: ['将被拒绝。'] },
    });
    expect(localizePreview({ lines: [], warnings: [], unavailable: 'timeout' }, 'en')).toEqual({
      previewNote: expect.stringMatching(/took too long/),
    });
    expect(localizePreview(undefined, 'en')).toEqual({});
  });
});
