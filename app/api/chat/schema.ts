import type { UIMessage } from 'ai';
import { z } from 'zod';
import { getConfig } from '@/lib/config';
import { describeZodError } from '@/lib/http/json';
import { allWorkerNames } from '@/lib/mcp/mcp-config';

/** Limits that keep one request from costing more than a conversation should. */
export const chatLimits = { maxMessages: 100, maxParts: 50, maxTextLength: 8_000, maxIdLength: 128 };

const partSchema = z.looseObject({ type: z.string().min(1).max(64) }).superRefine((part, context) => {
  if (typeof part.text === 'string' && part.text.length > chatLimits.maxTextLength) {
    context.addIssue({ code: 'custom', message: `text longer than ${chatLimits.maxTextLength} characters` });
  }
});

const messageSchema = z.object({
  id: z.string().min(1).max(chatLimits.maxIdLength),
  // The client may not write system prompts: only the server speaks as `system`.
  role: z.enum(['user', 'assistant']),
  parts: z.array(partSchema).max(chatLimits.maxParts),
  metadata: z.unknown().optional(),
});

/** `POST /api/chat` and `POST /api/chat/complete` body. */
export const chatRequestSchema = z.object({
  id: z
    .string()
    .min(1)
    .max(chatLimits.maxIdLength)
    .regex(/^[\w-]+$/, 'id may hold letters, digits, "_" and "-" only'),
  messages: z
    .array(messageSchema)
    .min(1, 'messages must hold at least the user message')
    .max(chatLimits.maxMessages)
    .refine((messages) => messages.at(-1)?.role === 'user', 'the last message must come from the user'),
  // The built-in workers, and those MCP servers add (read from the configuration per request).
  worker: z
    .string()
    .max(64)
    .superRefine((worker, context) => {
      const choices = ['auto', ...allWorkerNames(getConfig().MCP_CONFIG)];
      if (!choices.includes(worker)) {
        context.addIssue({ code: 'custom', message: `worker must be one of ${choices.join(', ')}` });
      }
    })
    .optional(),
});

export type ChatRequest = Omit<z.output<typeof chatRequestSchema>, 'messages'> & { messages: UIMessage[] };

/**
 * Validates a chat body's shape and limits. The parts themselves are checked by
 * lib/chat after untrusted approval state is stripped (see sanitizeUIMessages).
 */
export function parseChatRequest(
  value: unknown,
): { success: true; data: ChatRequest } | { success: false; error: string } {
  const parsed = chatRequestSchema.safeParse(value);
  if (!parsed.success) return { success: false, error: describeZodError(parsed.error) };
  return { success: true, data: { ...parsed.data, messages: parsed.data.messages as UIMessage[] } };
}
