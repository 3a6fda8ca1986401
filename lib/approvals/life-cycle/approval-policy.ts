import 'server-only';
import type { ApprovalAsk, QuotaGate } from '@toolgate/engine/shells';
import { type Db, findAccountById } from '@/lib/db';
import { getQuotaCounter, type PolicyLimit, policyVerdict, type QuotaCounter, quotaKey } from '@/lib/policy';
import { rolesShortOfHolders, verifiedRoleHolders } from '@/lib/policy/unfillable-steps';
import { approvalNotices } from './approval-notices';

/**
 * Whether `userId` may ask someone holding a role: a signed-in account (not a guest) whose
 * email is verified. Four eyes need a known requester: a guest could later sign in as the
 * very person who decided. Read from the database on each call, whoever runs the turn.
 */
export async function mayAskRoles(db: Db, userId: string): Promise<boolean> {
  const account = await findAccountById(db, userId);
  return account !== undefined && !account.isAnonymous && account.emailVerified;
}

/**
 * What the approval policy (`TOOLGATE_POLICY`) asks of each call, on its validated input:
 * the first matching rule refuses it, or names its steps and deadline; with no matching
 * rule a tool of `defaultConfirmTools` (`AGENT_CONFIRM_TOOLS`, MCP tools that need it)
 * waits for its requester as without a policy, and any other runs at once. A rule with a
 * role step refuses a requester who may not ask roles ({@link mayAskRoles}) with reason
 * `sign_in_required`, without a card. A rule's quota (`limit`) is looked at before a card is
 * shown — past it, the call is refused with reason `quota` — and counted when the call runs.
 */
export function policyAsk(
  defaultConfirmTools: ReadonlySet<string>,
  {
    db,
    requesterId,
    chatId,
    quotas = getQuotaCounter(db),
  }: { db: Db; requesterId: string; chatId: string; quotas?: QuotaCounter },
) {
  return async (toolName: string, input: unknown, facts: { tainted: boolean }): Promise<ApprovalAsk> => {
    const verdict = policyVerdict(toolName, input, facts);
    if (verdict.kind === 'deny') return { kind: 'deny', rule: verdict.label };
    let quota: QuotaGate | undefined;
    if ((verdict.kind === 'run' || verdict.kind === 'approve') && verdict.limit !== undefined) {
      const limit: PolicyLimit = verdict.limit;
      // Keyed by the rule's label and limit: a rule or limit edited counts afresh.
      const key = quotaKey({ rule: verdict.label, limit }, { userId: requesterId, chatId });
      const now = await quotas.peek(key, limit);
      if (!now.ok)
        return { kind: 'deny', rule: verdict.label, reason: 'quota', retryAfterMs: now.retryAfterMs };
      quota = { take: () => quotas.take(key, limit) };
    }
    if (verdict.kind === 'run') return { kind: 'run', rule: verdict.label, ...(quota && { quota }) };
    if (verdict.kind === 'approve') {
      const asksRole = verdict.steps.some((step) => step.kind === 'role');
      if (asksRole && !(await mayAskRoles(db, requesterId)))
        return { kind: 'deny', rule: verdict.label, reason: 'sign_in_required' };
      // A step nobody can fill would only wait to expire: refused now, and the operators told.
      const roles = verdict.steps.flatMap((step) => (step.kind === 'role' ? [step.role] : []));
      const short = asksRole
        ? rolesShortOfHolders(
            verdict.steps,
            await verifiedRoleHolders(db, { roles, limit: roles.length, excluding: requesterId }),
          )
        : [];
      if (short.length > 0) {
        approvalNotices().noApprover(db, { toolName, input, rule: verdict.label, short, requesterId });
        return { kind: 'deny', rule: verdict.label, reason: 'no_approver' };
      }
      return {
        kind: 'confirm',
        steps: verdict.steps,
        rule: verdict.label,
        ...(verdict.timeoutMs !== undefined && { timeoutMs: verdict.timeoutMs }),
        ...(quota && { quota }),
      };
    }
    return defaultConfirmTools.has(toolName) ? { kind: 'confirm' } : { kind: 'run' };
  };
}
