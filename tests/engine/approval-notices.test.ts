import { afterEach, describe, expect, it, vi } from 'vitest';
import '@/lib/approvals';
import { approvalNotices } from '@/lib/approvals/life-cycle/approval-notices';
import { tellOfApprovals } from '@/lib/approvals/notices/tell-of-approvals';

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

describe('approvalNotices', () => {
  it('are the notices this product sends once the door to approvals has loaded', () => {
    expect(approvalNotices()).toBe(tellOfApprovals);
  });

  it('send nothing when the life cycle is reached past its door, say so once in the log, and never throw', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // A fresh copy of the life cycle's port, as a bundle that skipped the door would load it.
    const { approvalNotices } = await import('@/lib/approvals/life-cycle/approval-notices');
    const db = {} as Parameters<ReturnType<typeof approvalNotices>['settled']>[0];
    const waiting = { id: 'a1', steps: [{ kind: 'role' as const, role: 'supervisor' }], expiresAt: 2_000 };
    expect(approvalNotices().requested(db, waiting)).toBeUndefined();
    expect(approvalNotices().stepsReplaced(db, waiting, 1_000)).toBeUndefined();
    expect(() => approvalNotices().settled(db, 'a1', 'denied')).not.toThrow();
    await expect(approvalNotices().escalated(db, 'a1', { to: 'admin', now: 1_000 })).resolves.toBeUndefined();
    expect(approvalNotices().reminderAt(1_000, 2_000)).toBeUndefined();
    await expect(approvalNotices().nextReminderAt(db)).resolves.toBeUndefined();
    await expect(approvalNotices().sendDueReminders(db, 1_000)).resolves.toBeUndefined();
    await expect(
      approvalNotices().requesterTold(db, 'a1', { kind: 'expired' }, { notice: true }),
    ).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]?.[0])).toMatch(/no notices are installed.*through lib\/approvals/);
  });
});
