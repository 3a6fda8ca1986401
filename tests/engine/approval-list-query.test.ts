import { describe, expect, it } from 'vitest';
import { listApprovalsDecidedByMe, listApprovalsToDecide } from '@/lib/approvals';

const viewer = { id: 'user-1', roles: ['supervisor'] };

// Each of these is refused before anything is read, so no database is needed.
describe.each([
  ['listApprovalsToDecide', listApprovalsToDecide],
  ['listApprovalsDecidedByMe', listApprovalsDecidedByMe],
] as const)('%s', (_name, list) => {
  it('answers a cursor it never gave with 400 and says so', async () => {
    expect(await list(viewer, { cursor: 'nonsense' })).toEqual({
      status: 400,
      body: { error: 'cursor: not a cursor this endpoint gave' },
    });
  });

  it('answers a page larger than 50, or no number, with 400 naming the limit', async () => {
    for (const limit of ['51', '0', 'ten']) {
      const result = await list(viewer, { limit });
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ error: expect.stringMatching(/^limit: /) });
    }
  });

  it('answers a query parameter it does not know with 400', async () => {
    const result = await list(viewer, { page: '2' });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: expect.any(String) });
  });
});
