import { z } from 'zod';
import { maxApprovalPageSize } from '@/lib/approvals';

/** `GET /api/approvals?cursor=…&limit=…`. */
export const approvalListQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(512).optional(),
  limit: z.coerce.number().int().min(1).max(maxApprovalPageSize).default(20),
});

/** An approval id in a path. */
export const approvalIdSchema = z.string().min(1).max(128);
