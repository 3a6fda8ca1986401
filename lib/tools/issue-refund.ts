import { tool } from 'ai';
import { z } from 'zod';
import type { Db } from '@/lib/db/engine';
import { formatMoney, fromMinorUnits, hasAtMostTwoDecimals, toMinorUnits } from '@/lib/db/money';
import { getRefundBalance, insertRefund, type RefundAttempt, voidRefund } from '@/lib/db/refunds';
import { commitWrite } from './commit-write';
import { issueRefundFacts } from './issue-refund-facts';
import { orderIdSchema } from './order-id-schema';
import type { ToolContext } from './tool-context';
import { defineTool, type PreconditionRefusal, type ToolPreview } from './tool-descriptor';

/** The largest refund one call may ask for, in major units: far above any order, far below float trouble. */
const maxAmount = 1_000_000;

/** What an `issueRefund` call takes; its messages and descriptions are written for the model. */
const issueRefundInput = z.object({
  orderId: orderIdSchema.describe('The order to refund, exactly as the user gave it, e.g. "A1002".'),
  amount: z
    .number({
      error:
        'amount is required: how much to pay back as a number in the order’s currency, e.g. 80 or 45.5 (no currency sign). If the user did not say, ask them.',
    })
    .positive('amount must be more than 0: ask the user how much they want back.')
    .max(
      maxAmount,
      `amount is more than ${maxAmount}: no order is that large; check the amount with the user.`,
    )
    .refine(
      hasAtMostTwoDecimals,
      'amount has more than two decimals: give it in cents at most, e.g. 45.5 or 45.55.',
    )
    .describe(
      'How much to pay back, in the order’s currency, as a number with at most two decimals, e.g. 80 or 45.5. Never guess it: ask the user.',
    ),
  reason: z
    .string({ error: 'reason is required: why the user wants the money back, in a few words.' })
    .trim()
    .min(1, 'reason is empty: say in a few words why the user wants the money back, e.g. "arrived broken".')
    .max(500, 'reason is longer than 500 characters: summarise it in a sentence.')
    .describe('Why the user wants the money back, in their words (1–500 characters), e.g. "arrived broken".'),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, 'currency is a three-letter code such as "CNY" or "USD"; leave it out if unsure.')
    .optional()
    .describe(
      'Optional: the currency the user named, as an ISO code ("CNY" for 元/¥/RMB, "USD" for $). The refund is refused when it is not the order’s currency. Leave it out when the user named none.',
    ),
});

type IssueRefundInput = z.output<typeof issueRefundInput>;

/** The model's view of a refused or unknown-order attempt: a result it can explain, never a thrown error. */
function attemptResult(attempt: Exclude<RefundAttempt, { kind: 'issued' }>, amount: number) {
  switch (attempt.kind) {
    case 'unknown-order':
      return { found: false as const, orderId: attempt.orderId };
    case 'no-total':
      return {
        refused: true as const,
        reason: 'no_total' as const,
        orderId: attempt.orderId,
        message: `Order ${attempt.orderId} has no total on record, so it cannot be refunded here. Tell the user to contact support; do not retry.`,
      };
    case 'exceeds-remaining': {
      const { balance } = attempt;
      const remaining = formatMoney(balance.remainingMinor, balance.currency);
      return {
        refused: true as const,
        reason: 'exceeds_remaining' as const,
        orderId: balance.orderId,
        requested: amount,
        remaining: fromMinorUnits(balance.remainingMinor),
        total: fromMinorUnits(balance.totalMinor),
        refunded: fromMinorUnits(balance.refundedMinor),
        currency: balance.currency,
        message:
          `Refused: ${amount} is more than what is left to refund on order ${balance.orderId} (${remaining} of ` +
          `${formatMoney(balance.totalMinor, balance.currency)}). Nothing was refunded. Tell the user; do not retry ` +
          'with the same amount, and refund at most the remaining amount only if they ask for it.',
      };
    }
  }
}

/** Builds `issueRefund`: a write that pays money back on an order, never more than what is left of its total. */
export function createIssueRefundTool(db: Db, { userId, chatId }: ToolContext) {
  return tool({
    description:
      'Refund money on one order: pays back `amount` (in the order’s currency) and returns the refund number, e.g. RF-000001. ' +
      'Call it only when the user asks for their money back on a specific order and has said how much; if the order number or the amount is missing, ask for it instead of guessing. ' +
      'All refunds of an order together never exceed its total: a larger amount comes back refused with what remains. ' +
      'Do not call it for questions about refund policy or timing (search the help centre), do not repeat a call that succeeded, and do not call it again after the user declined it.',
    inputSchema: issueRefundInput,
    // The refund and the record of this result commit together: a repeat replays it.
    execute: ({ orderId, amount, reason, currency }: IssueRefundInput, options) =>
      commitWrite(db, options, async (transaction) => {
        if (currency !== undefined) {
          const balance = await getRefundBalance(transaction, orderId);
          if (balance !== undefined && balance.currency !== currency)
            return refundResult(
              { kind: 'currency-mismatch', currency: balance.currency },
              { orderId, amount, currency },
            );
        }
        return insertRefund(transaction, {
          orderId,
          amountMinor: toMinorUnits(amount),
          reason,
          userId,
          chatId,
        }).then((attempt) => refundResult(attempt, { orderId, amount, currency }));
      }),
  });
}

type AttemptOrMismatch = RefundAttempt | { kind: 'currency-mismatch'; currency: string };

/** The model's view of one attempt. */
function refundResult(
  attempt: AttemptOrMismatch,
  { orderId, amount, currency }: Pick<IssueRefundInput, 'orderId' | 'amount' | 'currency'>,
) {
  if (attempt.kind === 'currency-mismatch') {
    return {
      refused: true as const,
      reason: 'currency_mismatch' as const,
      orderId,
      requestedCurrency: currency,
      currency: attempt.currency,
      message: `Refused: order ${orderId} is paid in ${attempt.currency}, not ${currency}. Nothing was refunded. Ask the user for the amount in ${attempt.currency}; never convert it yourself.`,
    };
  }
  if (attempt.kind !== 'issued') return attemptResult(attempt, amount);
  const { refund } = attempt;
  return {
    refundId: refund.refundId,
    orderId: refund.orderId,
    amount: fromMinorUnits(refund.amountMinor),
    currency: refund.currency,
    status: 'issued' as const,
  };
}

/** What the card shows before a person decides: the order's total, refunded so far, and what would remain. */
async function previewRefund(db: Db, { orderId, amount }: IssueRefundInput): Promise<ToolPreview> {
  const balance = await getRefundBalance(db, orderId);
  if (balance === undefined) {
    return {
      lines: [],
      warnings: [
        {
          en: `Order ${orderId} does not exist or has no total: nothing can be refunded.`,
          zh: `订单 ${orderId} 不存在或没有金额记录：无法退款。`,
        },
      ],
    };
  }
  const money = (minor: number) => formatMoney(minor, balance.currency);
  const after = balance.remainingMinor - toMinorUnits(amount);
  // The title names the order's currency even when the model's input named none.
  const titled = { orderId, amount, currency: balance.currency };
  return {
    summary: { en: issueRefundFacts.summarize(titled, 'en'), zh: issueRefundFacts.summarize(titled, 'zh') },
    lines: [
      { label: { en: 'Order total', zh: '订单总额' }, value: money(balance.totalMinor) },
      { label: { en: 'Refunded so far', zh: '已退金额' }, value: money(balance.refundedMinor) },
      { label: { en: 'Left after this refund', zh: '本次退款后剩余' }, value: money(Math.max(0, after)) },
    ],
    // A refund that would be refused (more than is left, another currency) never reaches a card:
    // its precondition refuses it first, so the preview has nothing to warn of.
    warnings: [],
  };
}

/** Said to the model after a refusal that came before any card: nobody was asked. */
const nobodyAsked = 'This was refused before anyone was asked to approve it.';

/**
 * What must hold before anyone is asked to approve a refund: the order is known and has a
 * total, the amount fits in what is left, and a currency, when named, is the order's. A call
 * that fails gets the tool's own refusal (what is left; the order's currency) at once.
 */
async function refundPrecondition(
  db: Db,
  { orderId, amount, currency }: IssueRefundInput,
): Promise<PreconditionRefusal | undefined> {
  const balance = await getRefundBalance(db, orderId);
  if (balance === undefined) return undefined;
  const left = formatMoney(balance.remainingMinor, balance.currency);
  if (currency !== undefined && balance.currency !== currency) {
    return {
      refused: true,
      reason: 'currency_mismatch',
      orderId,
      requestedCurrency: currency,
      currency: balance.currency,
      message:
        `Refused: order ${orderId} is paid in ${balance.currency}, not ${currency}. Nothing was refunded. ${nobodyAsked} ` +
        `Ask the user for the amount in ${balance.currency} (at most ${left} is left); never convert it yourself.`,
    };
  }
  if (toMinorUnits(amount) <= balance.remainingMinor) return undefined;
  return {
    refused: true,
    reason: 'exceeds_remaining',
    orderId,
    requested: amount,
    remaining: fromMinorUnits(balance.remainingMinor),
    total: fromMinorUnits(balance.totalMinor),
    refunded: fromMinorUnits(balance.refundedMinor),
    currency: balance.currency,
    message:
      `Refused: ${amount} is more than what is left to refund on order ${orderId}: only ${left} is left on ${orderId}. ` +
      `Nothing was refunded. ${nobodyAsked} Tell the user; a refund of at most ${left} would work, if they ask for it.`,
  };
}

/** `issueRefund`, declared once: its facts, its factory and its preview. */
export const issueRefundTool = defineTool(issueRefundFacts, {
  inputSchema: issueRefundInput,
  create: createIssueRefundTool,
  preview: previewRefund,
  precondition: refundPrecondition,
  // Undone within the window, the refund stays on record as `voided` and no longer counts.
  undo: async (db, output, { userId }) => {
    const { refundId } = output as { refundId?: string };
    if (refundId !== undefined) await voidRefund(db, { refundId, userId });
  },
});
