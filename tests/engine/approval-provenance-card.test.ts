import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ApprovalView } from '@/components/api-types';
import { ApprovalProvenance } from '@/components/approval-provenance';
import { dictionaries } from '@/components/i18n';
import type { ToolPart } from '@/components/tool-part-outcome';

const part = {
  type: 'tool-issueRefund',
  toolCallId: 'call-1',
  state: 'approval-requested',
  input: { orderId: 'A1003', amount: 480, reason: 'Goodwill' },
  approval: {
    id: 'approval-1',
    descriptor: {
      provenance: {
        tainted: ['amount'],
        provenance: {
          orderId: [{ source: 'user' }],
          amount: [{ source: 'tool', tool: 'mail__read_inbox', toolCallId: 'read-1', trusted: false }],
        },
        context: [{ tool: 'mail__read_inbox', toolCallId: 'read-1' }],
      },
    },
  },
} as unknown as ToolPart;

const labels = { amount: { en: 'Amount', zh: '金额' }, orderId: { en: 'Order number', zh: '订单号' } };

function render(locale: 'en' | 'zh', view?: ApprovalView, target: ToolPart = part): string {
  return renderToStaticMarkup(
    createElement(ApprovalProvenance, { part: target, view, t: dictionaries[locale], locale, labels }),
  );
}

describe('ApprovalProvenance', () => {
  it('names each tainted field with the tool that supplied it, in a labelled region (en and zh)', () => {
    const english = render('en');
    expect(english).toContain('aria-label="Where these values came from"');
    expect(english).toContain('Amount: from mail__read_inbox — not written by you');
    expect(english).not.toContain('Order number:');
    expect(english).toContain('Proposed after this chat read mail__read_inbox');
    expect(render('zh')).toContain('金额：来自 mail__read_inbox，不是你写的');
  });

  it('follows the server’s view when the card has one, and draws nothing for values the user typed', () => {
    const clean = { tainted: [], provenance: { amount: [{ source: 'user' }] } } as unknown as ApprovalView;
    expect(render('en', clean)).toBe('');
    const untraced = { ...part, approval: { id: 'approval-2' } } as unknown as ToolPart;
    expect(render('en', undefined, untraced)).toBe('');
  });
});
