import type { UIMessage } from 'ai';
import { z } from 'zod';
import { isDataUrl } from '@/lib/chat/inline-files';
import { getConfig } from '@/lib/config';
import { describeZodError } from '@/lib/http/json';
import { allWorkerNames } from '@/lib/mcp/mcp-config';

/**
 * Limits that keep one request from costing more than a conversation should. They cap
 * the new message; the history is the server's and has no cap. `maxMessageLength`
 * bounds the text and inline files of the whole message, `maxTextLength` one part's.
 * `maxMessages` only bounds the legacy `{ messages }` body, of which just the last user
 * message is read.
 */
export const chatLimits = {
  maxMessages: 10_000,
  maxParts: 50,
  maxTextLength: 8_000,
  maxMessageLength: 24_000,
  maxIdLength: 128,
};

const partSchema = z.looseObject({ type: z.string().min(1).max(64) }).superRefine((part, context) => {
  if (typeof part.text === 'string' && part.text.length > chatLimits.maxTextLength) {
    context.addIssue({ code: 'custom', message: `text longer than ${chatLimits.maxTextLength} characters` });
  }
  // The server never fetches a URL a client names (that would let anyone make it call any address).
  if (part.type === 'file' && !isDataUrl(part.url)) {
    context.addIssue({
      code: 'custom',
      message: 'a file part must carry its content inline as a data: URL; the server does not fetch URLs',
    });
  }
});

/** The characters of text and inline files a message's parts carry. */
function messageLength(parts: ReadonlyArray<Record<string, unknown>>): number {
  let length = 0;
  for (const part of parts) {
    if (typeof part.text === 'string') length += part.text.length;
    if (typeof part.url === 'string') length += part.url.length;
  }
  return length;
}

const messageSchema = z.object({
  id: z.string().min(1).max(chatLimits.maxIdLength),
  // The client may not write system prompts: only the server speaks as `system`.
  role: z.enum(['user', 'assistant']),
  parts: z
    .array(partSchema)
    .max(chatLimits.maxParts)
    .refine((parts) => messageLength(parts) <= chatLimits.maxMessageLength, {
      message: `the message holds more than ${chatLimits.maxMessageLength} characters of text and files in all`,
    }),
  metadata: z.unknown().optional(),
});

const userMessageSchema = messageSchema.refine(
  (message) => message.role === 'user',
  'the new message must come from the user',
);

const chatIdSchema = z
  .string()
  .min(1)
  .max(chatLimits.maxIdLength)
  .regex(/^[\w-]+$/, 'id may hold letters, digits, "_" and "-" only');

// The built-in workers, and those MCP servers add (read from the configuration per request).
const workerSchema = z
  .string()
  .max(64)
  .superRefine((worker, context) => {
    const choices = ['auto', ...allWorkerNames(getConfig().MCP_CONFIG)];
    if (!choices.includes(worker)) {
      context.addIssue({ code: 'custom', message: `worker must be one of ${choices.join(', ')}` });
    }
  })
  .optional();

/**
 * `POST /api/chat` and `POST /api/chat/complete` body: `{ id, message }`, or the older
 * `{ id, messages }`, of which only the last user message is read (the stored history wins).
 */
export const chatRequestSchema = z.union([
  z.object({ id: chatIdSchema, message: userMessageSchema, worker: workerSchema }),
  z.object({
    id: chatIdSchema,
    messages: z
      .array(z.looseObject({ role: z.unknown() }))
      .min(1, 'messages must hold at least the user message')
      .max(chatLimits.maxMessages)
      .transform((messages) => messages.findLast((message) => message.role === 'user'))
      .pipe(userMessageSchema),
    worker: workerSchema,
  }),
]);

/** A parsed chat body: the chat, the new user message and the worker choice. */
export type ChatRequest = { id: string; message: UIMessage; worker?: z.output<typeof workerSchema> };

/**
 * Validates a chat body's shape and the new message's limits. The parts themselves are
 * checked by lib/chat after untrusted approval state is stripped (see sanitizeUIMessages).
 */
export function parseChatRequest(
  value: unknown,
): { success: true; data: ChatRequest } | { success: false; error: string } {
  const parsed = chatRequestSchema.safeParse(value);
  if (!parsed.success) return { success: false, error: describeZodError(parsed.error) };
  const { id, worker } = parsed.data;
  const message = ('message' in parsed.data ? parsed.data.message : parsed.data.messages) as UIMessage;
  return { success: true, data: { id, message, worker } };
}
