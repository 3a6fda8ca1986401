import { z } from 'zod';

/** An approval id in a path. */
export const approvalIdSchema = z.string().min(1).max(128);
