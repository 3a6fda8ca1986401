import type { UIMessage } from 'ai';
import { z } from 'zod';
import { isBase64DataUrl, isDataUrl } from '@/lib/chat/inline-files';
import { describeZodError } from '@/lib/http/json';
import { getMcpConfig } from '@/lib/mcp/get-mcp-config';
import { allWorkerNames } from '@/lib/mcp/mcp-config';

/**
 * Limits that keep one request from costing more than a conversation should. They cap
 * the new message; the history is the server's and has no cap. `maxMessageLength`
 * bounds the text and inline files of the whole message, `maxTextLength` one part's,
 * `maxMessageJsonLength` the message as it is stored (escapes included).
 * `maxMessages` only bounds the legacy `{ messages }` body, of which just the last user
 * message is read.
 */
export const chatLimits = {
  maxMessages: 10_000,
  maxParts: 50,
  maxTextLength: 8_000,
  maxMessageLength: 24_000,
  maxMessageJsonLength: 65_536,
  maxIdLength: 128,
  maxFileFieldLength: 255,
};

const textPartSchema = z.object({
  type: z.literal('text'),
  text: z.string().max(chatLimits.maxTextLength, `text longer than ${chatLimits.maxTextLength} characters`),
});

const fileFieldSchema = (field: string) =>
  z
    .string()
    .max(chatLimits.maxFileFieldLength, `${field} longer than ${chatLimits.maxFileFieldLength} characters`);

const filePartSchema = z.object({
  type: z.literal('file'),
  mediaType: fileFieldSchema('mediaType').min(1),
  filename: fileFieldSchema('filename').optional(),
  // The server never fetches a URL a client names (that would let anyone make it call any address).
  url: z
    .string()
    .refine(
      isDataUrl,
      'a file part must carry its content inline as a data: URL; the server does not fetch URLs',
    )
    .refine(
      isBase64DataUrl,
      'a file part must carry its content as a base64 data: URL (data:<type>;base64,…)',
    ),
});

/**
 * A part of the new message: text or an inline file, with only the fields the product reads
 * (anything else, provider metadata included, is dropped, so nothing uncounted is stored).
 */
const partSchema = z
  .looseObject({ type: z.string() })
  .refine((part) => part.type === 'text' || part.type === 'file', {
    message: 'a new message may hold only text and file parts',
    path: ['type'],
    abort: true,
  })
  .pipe(z.discriminatedUnion('type', [textPartSchema, filePartSchema]));

/** The characters of text and inline files a message's parts carry. */
function messageLength(parts: ReadonlyArray<z.output<typeof partSchema>>): number {
  let length = 0;
  for (const part of parts) length += part.type === 'text' ? part.text.length : part.url.length;
  return length;
}

// No `metadata`: the server writes a message's metadata; a client's is dropped.
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
});

const userMessageSchema = messageSchema
  .refine((message) => message.role === 'user', 'the new message must come from the user')
  // Escapes make JSON longer than its text (a control character takes six): the stored row is bounded too.
  .refine((message) => JSON.stringify(message).length <= chatLimits.maxMessageJsonLength, {
    message: `the message is longer than ${chatLimits.maxMessageJsonLength.toLocaleString('en')} characters as JSON`,
  });

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
    const choices = ['auto', ...allWorkerNames(getMcpConfig())];
    if (!choices.includes(worker)) {
      context.addIssue({ code: 'custom', message: `worker must be one of ${choices.join(', ')}` });
    }
  })
  .optional();

/** `POST /api/chat` and `POST /api/chat/complete` body: `{ id, message }`. */
const chatBodySchema = z.object({ id: chatIdSchema, message: userMessageSchema, worker: workerSchema });

/** The older `{ id, messages }` body, of which only the last user message is read (the stored history wins). */
const legacyChatBodySchema = z.object({
  id: chatIdSchema,
  messages: z
    .array(z.looseObject({ role: z.unknown() }))
    .min(1, 'messages must hold at least the user message')
    .max(chatLimits.maxMessages)
    .transform((messages) => messages.findLast((message) => message.role === 'user'))
    .pipe(userMessageSchema),
  worker: workerSchema,
});

/** A parsed chat body: the chat, the new user message and the worker choice. */
export type ChatRequest = { id: string; message: UIMessage; worker?: z.output<typeof workerSchema> };

/**
 * Validates a chat body's shape and the new message's limits. The body's form is chosen by its
 * `message` key rather than by a union, so an error names the field at fault. The parts
 * themselves are checked by lib/chat after untrusted approval state is stripped (see
 * sanitizeUIMessages).
 */
export function parseChatRequest(
  value: unknown,
): { success: true; data: ChatRequest } | { success: false; error: string } {
  const legacy = typeof value === 'object' && value !== null && !('message' in value);
  const parsed = legacy ? legacyChatBodySchema.safeParse(value) : chatBodySchema.safeParse(value);
  if (!parsed.success) return { success: false, error: describeZodError(parsed.error) };
  const { id, worker } = parsed.data;
  const message = ('message' in parsed.data ? parsed.data.message : parsed.data.messages) as UIMessage;
  return { success: true, data: { id, message, worker } };
}
