import { revealControlCharacters } from '@toolgate/engine/client';
import { z } from 'zod';

/**
 * The moments an approval with a role step is announced: it asks, it is escalated, it is
 * settled; or a call that needed one was refused at once because nobody can fill a step
 * (`approval.unfillable`, `status: "no_approver"`; `approvalId` is then the tool call's id).
 */
export const approvalEventTypes = [
  'approval.requested',
  'approval.escalated',
  'approval.settled',
  'approval.unfillable',
] as const;
export type ApprovalEventType = (typeof approvalEventTypes)[number];

/**
 * What the approvals code tells the webhook about an approval. `url` (the approval's page)
 * is filled in from the app's public URL when left out; `expiresAt` is epoch milliseconds,
 * an ISO 8601 string or a Date, and leaves as ISO 8601. The words a requester chose (the
 * summary, their name) leave on one line: control characters, line breaks and tabs included,
 * as code points (`⟨U+000A⟩`), so a receiver that posts them to a chat draws no line of theirs.
 */
export const approvalEventSchema = z.object({
  type: z.enum(approvalEventTypes),
  approvalId: z.string().min(1).max(200),
  tool: z.string().min(1).max(200),
  summary: z.string().max(2_000).transform(revealControlCharacters),
  roles: z.array(z.string().max(100)).max(50),
  requester: z.object({ name: z.string().max(200).transform(revealControlCharacters) }),
  expiresAt: z.union([z.number(), z.string(), z.date()]).transform((value, context) => {
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) {
      context.addIssue({ code: 'custom', message: `expiresAt is not a time: ${String(value)}` });
      return z.NEVER;
    }
    return date.toISOString();
  }),
  status: z.string().max(50).optional(),
  url: z.url().optional(),
});

export type ApprovalEvent = z.input<typeof approvalEventSchema>;

/**
 * The JSON a receiver gets, in this key order: the event and, for replay protection, its
 * `id` and `timestamp` (when it was queued), inside the signed body.
 */
export type ApprovalEventBody = {
  id: string;
  type: ApprovalEventType;
  timestamp: string;
  approvalId: string;
  tool: string;
  summary: string;
  roles: string[];
  requester: { name: string };
  expiresAt: string;
  status?: string;
  url: string;
};

/** The approval's page: the app's public base URL and `/approvals/<id>`. */
export function approvalUrl(baseUrl: string, approvalId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/approvals/${encodeURIComponent(approvalId)}`;
}
