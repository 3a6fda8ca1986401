'use client';

import Link from 'next/link';
import { AccountMenu } from './account-menu';
import type { AccountSummary, ApprovalView } from './api-types';
import { ToolCard } from './tool-card';
import type { ToolPart } from './tool-part-outcome';
import { useWorkspace } from './workspace-provider';

/** The tool part an approval's card draws, built from the server's view of it. */
function partOf(view: ApprovalView): ToolPart {
  return {
    type: `tool-${view.tool}`,
    toolCallId: view.approvalId,
    state: 'approval-requested',
    input: view.input,
    approval: {
      id: view.approvalId,
      descriptor: {
        expiresAt: view.expiresAt,
        remainingMs: view.remainingMs,
        timeoutMs: view.remainingMs,
        toolName: view.tool,
        inputDigest: view.inputDigest,
        steps: view.steps,
        ...(view.summary !== undefined && { summary: view.summary }),
      },
    },
  } as ToolPart;
}

/**
 * One approval on a page of its own, for an approver (or its requester): the same card
 * as in the chat — allow, deny with a reason, edit then allow — following its steps live.
 * Reusable by an inbox listing several.
 */
export function ApprovalCardPage({
  view,
  onDecided,
}: {
  view: ApprovalView;
  /** Called once this person's decision is in (the inbox reads its list again). */
  onDecided?: () => void;
}) {
  const { t } = useWorkspace();
  return (
    <section className="flex flex-col gap-2" data-testid="approval-page" data-approval-id={view.approvalId}>
      <p className="text-xs text-muted-foreground">{t.requestedBy(view.requester.name)}</p>
      {view.chatExcerpt !== undefined && view.chatExcerpt !== '' && (
        <blockquote className="border-l-2 border-border pl-2 text-sm">
          <span className="text-xs text-muted-foreground">{t.askedIn}</span> {view.chatExcerpt}
        </blockquote>
      )}
      <ToolCard
        part={partOf(view)}
        live={false}
        chatId={view.chatId}
        initialView={view}
        onDecided={onDecided ?? (() => undefined)}
      />
      {view.viewer.isRequester && (
        <Link className="text-xs underline" href={`/chat/${encodeURIComponent(view.chatId)}`}>
          {view.chatId}
        </Link>
      )}
    </section>
  );
}

/** What a visitor without an account sees: sign in, and come back here. */
export function ApprovalSignIn({ account }: { account: AccountSummary }) {
  const { t } = useWorkspace();
  return (
    <section className="flex flex-col gap-2" data-testid="approval-sign-in">
      <p className="text-sm">{t.approvalPageTitle}</p>
      <AccountMenu account={account} />
    </section>
  );
}
