import { type DenialReason, denialReasons } from '@toolgate/engine';
import type { UIMessage } from 'ai';

/** A tool part of a message (static or dynamic). */
export type ToolPart = Extract<UIMessage['parts'][number], { toolCallId: string }>;

/** Why an approval did not end in an allow, as the card and the model tell them apart. */
export type DenialCode = DenialReason;

const denialCodes: readonly string[] = denialReasons;

/** True for a tool part (static `tool-*` or `dynamic-tool`). */
export function isToolPart(part: UIMessage['parts'][number]): part is ToolPart {
  return part.type === 'dynamic-tool' || part.type.startsWith('tool-');
}

/**
 * The `approval.reason` of a denied part: the code, then the explanation the model
 * read. The SDK keeps one free-text reason; the code in front lets the card tell
 * "expired" from "declined" without a field of our own.
 */
export function denialReasonText(denial: { reason: DenialCode; message: string }): string {
  return `${denial.reason}: ${denial.message}`;
}

/** The code at the front of a denied part's `approval.reason`, if it carries one. */
export function denialCodeOf(reason: unknown): DenialCode | undefined {
  if (typeof reason !== 'string') return undefined;
  const code = reason.slice(0, reason.indexOf(':'));
  return denialCodes.includes(code) ? (code as DenialCode) : undefined;
}

/** How a call that waited for approval ended. */
export type ApprovalEnd =
  | { kind: 'output'; output: unknown }
  | { kind: 'error'; errorText: string }
  | { kind: 'denied'; reason: DenialCode; message: string };

/**
 * The tool part in the settled shape the SDK's own `validateUIMessages` accepts:
 * `output-available` / `output-error` with `approval.approved: true`, or
 * `output-denied` with `approved: false` and the reason.
 */
export function settleApprovalPart(part: ToolPart, approvalId: string, end: ApprovalEnd): ToolPart {
  const {
    output: _output,
    errorText: _errorText,
    approval,
    ...rest
  } = part as ToolPart & {
    output?: unknown;
    errorText?: unknown;
  };
  const descriptor = (approval as { descriptor?: unknown } | undefined)?.descriptor;
  const base = { id: approvalId, ...(descriptor !== undefined && { descriptor }) };
  switch (end.kind) {
    case 'output':
      return {
        ...rest,
        state: 'output-available',
        output: end.output,
        approval: { ...base, approved: true },
      } as ToolPart;
    case 'error':
      return {
        ...rest,
        state: 'output-error',
        errorText: end.errorText,
        approval: { ...base, approved: true },
      } as ToolPart;
    case 'denied':
      return {
        ...rest,
        state: 'output-denied',
        approval: { ...base, approved: false, reason: denialReasonText(end) },
      } as ToolPart;
  }
}

/** How long an excerpt of the user's message may be. */
const maxExcerptLength = 280;

/** The text of the last user message in `messages`, cut to a few lines: what led to a call. */
export function excerptOf(messages: readonly UIMessage[]): string | undefined {
  const last = messages.findLast((message) => message.role === 'user');
  if (last === undefined) return undefined;
  const text = last.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join(' ')
    .trim();
  if (text === '') return undefined;
  return text.length > maxExcerptLength ? `${text.slice(0, maxExcerptLength - 1)}…` : text;
}

/** `message` with the tool part of `toolCallId` replaced by `change(part)`. */
export function mapToolPart(
  message: UIMessage,
  toolCallId: string,
  change: (part: ToolPart) => ToolPart,
): UIMessage {
  return {
    ...message,
    parts: message.parts.map((part) =>
      isToolPart(part) && part.toolCallId === toolCallId ? change(part) : part,
    ),
  };
}
