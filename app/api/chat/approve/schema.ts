import { z } from 'zod';

/** `POST /api/chat/approve` body; the server action takes the same shape. */
export const approveRequestSchema = z.strictObject({
  approvalId: z.string().min(1).max(128),
  sessionId: z.string().min(1).max(128),
  approved: z.boolean(),
});
