import { inputDigestPattern } from '@toolgate/engine/shells';
import { z } from 'zod';
import { maxPolicyTimeoutMs, whenSchema } from '@/lib/policy';

/** The longest note a person can give with a "no". */
export const maxDenialReasonLength = 500;

/** The shortest standing grant: one second. */
export const minGrantTtlMs = 1000;
/** The longest standing grant: seven days, as the longest wait a policy rule may set. */
export const maxGrantTtlMs = maxPolicyTimeoutMs;

const chatIdField = z.string().min(1).max(128);

/**
 * The chat an approval belongs to: `chatId`, or `sessionId`, the name earlier clients
 * (and the engine) use for it. Both may be sent only when they agree.
 */
const chatIdFields = {
  chatId: chatIdField.optional(),
  sessionId: chatIdField.optional(),
};

function requireChatId(fields: { chatId?: string; sessionId?: string }, context: z.RefinementCtx): void {
  sameChatId(fields, context);
  if (fields.chatId === undefined && fields.sessionId === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['chatId'],
      message: 'chatId is required: the chat the approval is in',
    });
  }
}

function sameChatId(fields: { chatId?: string; sessionId?: string }, context: z.RefinementCtx): void {
  if (fields.chatId !== undefined && fields.sessionId !== undefined && fields.chatId !== fields.sessionId) {
    context.addIssue({
      code: 'custom',
      path: ['sessionId'],
      message: 'sessionId is another name for chatId: send one',
    });
  }
}

/** The body with `sessionId` read as `chatId`. */
function withChatId<FIELDS extends { chatId?: string; sessionId?: string }>({
  chatId,
  sessionId,
  ...rest
}: FIELDS): Omit<FIELDS, 'chatId' | 'sessionId'> & { chatId: string } {
  return { ...rest, chatId: (chatId ?? sessionId) as string };
}

/** The same, where the chat may be omitted (an approver deciding from the approval's own page). */
function withOptionalChatId<FIELDS extends { chatId?: string; sessionId?: string }>({
  chatId,
  sessionId,
  ...rest
}: FIELDS): Omit<FIELDS, 'chatId' | 'sessionId'> & { chatId?: string } {
  const chat = chatId ?? sessionId;
  return { ...rest, ...(chat !== undefined && { chatId: chat }) };
}

/**
 * A standing grant as a decision asks for it: `remember: { scope, ttlMs, when? }`. `scope`
 * `chat` covers later calls in the approval's chat, `me` in any chat of the requester.
 */
export const grantRequestSchema = z.strictObject({
  scope: z.enum(['chat', 'me'], { error: 'scope is "chat" or "me"' }),
  ttlMs: z
    .number({ error: 'ttlMs: expected a number of milliseconds' })
    .int('ttlMs: expected a whole number of milliseconds')
    .min(minGrantTtlMs, `ttlMs: at least ${minGrantTtlMs} (one second)`)
    .max(maxGrantTtlMs, `ttlMs: at most ${maxGrantTtlMs} (seven days)`),
  when: whenSchema.optional(),
});

/** `remember`: "chat" (allow the tool for the rest of the chat), or a standing grant `{ scope, ttlMs, when? }`. */
const rememberSchema = z
  .unknown()
  .transform((value, context): 'chat' | z.infer<typeof grantRequestSchema> => {
    if (value === 'chat') return 'chat';
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      context.addIssue({
        code: 'custom',
        message: 'remember is "chat" or { "scope": "chat"|"me", "ttlMs": N, "when"?: {…} }',
      });
      return z.NEVER;
    }
    const parsed = grantRequestSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) context.addIssue({ ...issue, code: 'custom' } as never);
    return z.NEVER;
  });

/**
 * A person's decision on one approval card: the `POST /api/chat/approve` body. `chatId` may be
 * omitted (an approver need not know the chat); when sent it must be the approval's. `input` (a
 * full replacement of the call's input) and `remember` go with an allow; `reason` with a deny.
 * `inputDigest` is the view's digest of the input the person saw (for an edit: the input they
 * started from). There is no tool name: an edit cannot turn one tool into another.
 */
export const approvalDecisionSchema = z
  .strictObject({
    approvalId: z.string().min(1).max(128),
    ...chatIdFields,
    approved: z.boolean(),
    input: z.record(z.string(), z.unknown()).optional(),
    remember: rememberSchema.optional(),
    reason: z.string().trim().max(maxDenialReasonLength).optional(),
    inputDigest: z
      .string()
      .regex(
        inputDigestPattern,
        'inputDigest: lowercase hex SHA-256 of the input, as the approval view gives it',
      )
      .optional(),
  })
  .superRefine((decision, context) => {
    sameChatId(decision, context);
    if (decision.approved && decision.reason !== undefined) {
      context.addIssue({ code: 'custom', path: ['reason'], message: 'reason goes with approved: false' });
    }
    if (!decision.approved && decision.input !== undefined) {
      context.addIssue({ code: 'custom', path: ['input'], message: 'input goes with approved: true' });
    }
    if (!decision.approved && decision.remember !== undefined) {
      context.addIssue({ code: 'custom', path: ['remember'], message: 'remember goes with approved: true' });
    }
  })
  .transform(withOptionalChatId);

/** The `POST /api/chat/approve/extend` body. */
export const approvalExtensionSchema = z
  .strictObject({ approvalId: z.string().min(1).max(128), ...chatIdFields })
  .superRefine(requireChatId)
  .transform(withChatId);
