import { auditOutcomeOfDenial, type DenialReason, denialReasons } from '@toolgate/engine';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { auditDecisionLines } from '@/app/audit/audit-decision-lines';
import { dictionaries } from '@/components/i18n';
import { ToolCard } from '@/components/tool-card';
import type { ToolPart } from '@/components/tool-part-outcome';
import { WorkspaceProvider } from '@/components/workspace-provider';
import type { AuditDetail } from '@/lib/db/audit-chain';
import { toolDenial } from '../../packages/engine/src/shells/wrap-tools-with-approval';

const noNames = new Map<string, string>();

/** The audit page's lines for a refused call's row, in `locale`. */
function auditLines(locale: 'en' | 'zh', reason: DenialReason, detail: AuditDetail): string[] {
  return auditDecisionLines(
    { outcome: auditOutcomeOfDenial[reason], detail },
    dictionaries[locale].audit,
    dictionaries[locale].denials,
    noNames,
  );
}

/** The card of a refund call that ended with a denial for `reason`, in `locale`. */
function card(locale: 'en' | 'zh', reason: DenialReason): string {
  const part = {
    type: 'tool-issueRefund',
    toolCallId: `call-${reason}`,
    state: 'output-available',
    input: { orderId: 'A1002', amount: 80, reason: 'arrived broken' },
    output: toolDenial(reason, 'issueRefund'),
  } as unknown as ToolPart;
  return renderToStaticMarkup(
    createElement(
      WorkspaceProvider,
      { initialLocale: locale } as Parameters<typeof WorkspaceProvider>[0],
      createElement(ToolCard, { part, live: false, chatId: 'chat-1', onDecided: () => undefined }),
    ),
  );
}

describe('what the audit page says of a call refused before anyone was asked', () => {
  // The flags the approval shell has always written beside `denied`; newer rows name the reason too.
  const flagsOf: Partial<Record<DenialReason, AuditDetail>> = {
    policy: { policy: true },
    sign_in_required: { policy: true, signInRequired: true },
    quota: { policy: true, quota: { retryAfterMs: 60_000 } },
    no_approver: { policy: true, noApprover: true },
    policy_changed: { policyChanged: true },
  };
  const refusals = Object.keys(flagsOf) as DenialReason[];

  it.each(refusals)('tells %s apart from every other refusal, in English and Chinese', (reason) => {
    for (const locale of ['en', 'zh'] as const) {
      const [line] = auditLines(locale, reason, flagsOf[reason] ?? {});
      expect(line).toBeTruthy();
      for (const other of refusals.filter((candidate) => candidate !== reason)) {
        expect(auditLines(locale, other, flagsOf[other] ?? {})[0]).not.toBe(line);
      }
    }
  });

  it('says the same of a row that names its reason as of an older row that only has the flags', () => {
    for (const reason of refusals) {
      expect(auditLines('en', reason, { ...flagsOf[reason], reason })).toEqual(
        auditLines('en', reason, flagsOf[reason] ?? {}),
      );
    }
  });

  it('adds no refusal line to a call a person declined, or one nobody answered', () => {
    expect(auditLines('en', 'denied', { reason: 'denied', deciders: ['u1'] })).toEqual(['Decided by u1']);
    expect(auditLines('en', 'timeout', { reason: 'timeout', waitMs: 60_000 })).toEqual(['Waited 60 s']);
  });
});

describe('what the card says of a refused call', () => {
  const expected: Record<'declined' | 'refused' | 'expired' | 'cancelled', RegExp> = {
    declined: /You declined, so nothing was done/,
    refused: /Refused before anyone was asked/,
    expired: /Nobody answered in time/,
    cancelled: /Cancelled before anyone answered/,
  };
  const told: Record<Exclude<DenialReason, 'policy_changed'>, keyof typeof expected> = {
    denied: 'declined',
    timeout: 'expired',
    aborted: 'cancelled',
    closed: 'cancelled',
    superseded: 'cancelled',
    withdrawn: 'cancelled',
    policy: 'refused',
    sign_in_required: 'refused',
    quota: 'refused',
    no_approver: 'refused',
  };

  it.each(denialReasons.filter((reason) => reason !== 'policy_changed'))('explains %s', (reason) => {
    const english = card('en', reason);
    const kind = told[reason as keyof typeof told];
    expect(english).toMatch(expected[kind]);
    for (const [other, text] of Object.entries(expected))
      if (other !== kind) expect(english).not.toMatch(text);
    expect(card('zh', reason)).not.toMatch(/[A-Z][a-z]+ (declined|before|answered)/);
  });
});
