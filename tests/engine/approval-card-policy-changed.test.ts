import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '@/components/api-types';
import { dictionaries } from '@/components/i18n';
import { ToolCard } from '@/components/tool-card';
import type { ToolPart } from '@/components/tool-part-outcome';
import { WorkspaceProvider } from '@/components/workspace-provider';
import { denialReasonText } from '@/lib/approvals/life-cycle/approval-parts';
import { toolDenial } from '../../packages/engine/src/shells/wrap-tools-with-approval';

const input = { orderId: 'A1002', amount: 80, reason: 'arrived broken' };

function render(locale: 'en' | 'zh', part: ToolPart, initialView?: ApprovalView): string {
  const card = createElement(ToolCard, {
    part,
    live: false,
    chatId: 'chat-1',
    onDecided: () => undefined,
    initialView,
  });
  return renderToStaticMarkup(
    createElement(
      WorkspaceProvider,
      { initialLocale: locale } as Parameters<typeof WorkspaceProvider>[0],
      card,
    ),
  );
}

/** A view of the refund as the server gives it, with `fields` replaced. */
function viewOf(fields: Partial<ApprovalView>): ApprovalView {
  return {
    approvalId: 'approval-2',
    chatId: 'chat-1',
    tool: 'issueRefund',
    input,
    inputDigest: '0'.repeat(64),
    status: 'pending',
    requester: { name: 'ann' },
    steps: [{ kind: 'role', role: 'supervisor' }],
    tainted: [],
    provenance: {},
    expiresAt: Date.now() + 60_000,
    remainingMs: 60_000,
    viewer: { canAllow: true, canDeny: true, isRequester: false },
    ...fields,
  };
}

describe('ToolCard under a changed policy', () => {
  it('says a newer policy refused the call, not that the person declined (en and zh)', () => {
    const denial = toolDenial('policy_changed', 'issueRefund');
    const part = {
      type: 'tool-issueRefund',
      toolCallId: 'call-1',
      state: 'output-denied',
      input,
      approval: { id: 'approval-1', approved: false, reason: denialReasonText(denial) },
    } as unknown as ToolPart;
    const english = render('en', part);
    expect(english).toContain(dictionaries.en.policyChangedDenied);
    expect(english).not.toContain(dictionaries.en.denials.denied.card as string);
    expect(render('zh', part)).toContain(dictionaries.zh.policyChangedDenied);
  });

  it('says the policy changed while the call waited when the view says its steps were replaced', () => {
    const part = {
      type: 'tool-issueRefund',
      toolCallId: 'call-2',
      state: 'approval-requested',
      input,
      approval: { id: 'approval-2', descriptor: { steps: [{ kind: 'role', role: 'manager' }] } },
    } as unknown as ToolPart;
    const view = viewOf({ policyChanged: '2026-12-02T07:00:00.000Z' });
    expect(render('en', part, view)).toContain(dictionaries.en.policyChangedSteps);
    expect(render('zh', part, view)).toContain(dictionaries.zh.policyChangedSteps);
    expect(render('en', part, { ...view, policyChanged: undefined })).not.toContain(
      dictionaries.en.policyChangedSteps,
    );
  });

  it('waits for nobody once the call has ended: a step nobody filled reads "not decided"', () => {
    const denial = toolDenial('policy_changed', 'issueRefund');
    const part = {
      type: 'tool-issueRefund',
      toolCallId: 'call-3',
      state: 'output-denied',
      input,
      approval: {
        id: 'approval-3',
        approved: false,
        reason: denialReasonText(denial),
        descriptor: { steps: [{ kind: 'role', role: 'supervisor' }] },
      },
    } as unknown as ToolPart;
    const view = viewOf({
      approvalId: 'approval-3',
      status: 'denied',
      reason: 'policy_changed',
      viewer: { canAllow: false, canDeny: false, isRequester: true },
    });
    for (const locale of ['en', 'zh'] as const) {
      const html = render(locale, part, view);
      expect(html).toContain('data-testid="approval-steps"');
      expect(html).not.toContain('data-testid="approval-waiting-for"');
      expect(html).toContain(dictionaries[locale].stepUndecided);
      expect(html).not.toContain(dictionaries[locale].stepOpen);
    }
  });

  it('reads every step allowed once the call was approved, even from a view read before the last allow', () => {
    const part = {
      type: 'tool-issueRefund',
      toolCallId: 'call-4',
      state: 'output-available',
      input,
      output: { refundId: 'RF-000001' },
      approval: {
        id: 'approval-4',
        approved: true,
        descriptor: { steps: [{ kind: 'role', role: 'supervisor' }] },
      },
    } as unknown as ToolPart;
    for (const locale of ['en', 'zh'] as const) {
      const html = render(locale, part);
      expect(html).toContain('data-testid="approval-steps"');
      expect(html).not.toContain('data-testid="approval-waiting-for"');
      expect(html).toContain(dictionaries[locale].stepAllowed);
      expect(html).not.toContain(dictionaries[locale].stepOpen);
    }
  });
});
