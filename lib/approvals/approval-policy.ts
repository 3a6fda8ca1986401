import 'server-only';
import { type Db, findAccountById } from '@/lib/db';
import { policyVerdict } from '@/lib/policy';
import type { ApprovalAsk } from '@/lib/shells/wrap-tools-with-approval';

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
 * `sign_in_required`, without a card.
 */
export function policyAsk(
  defaultConfirmTools: ReadonlySet<string>,
  { db, requesterId }: { db: Db; requesterId: string },
) {
  return async (toolName: string, input: unknown, facts: { tainted: boolean }): Promise<ApprovalAsk> => {
    const verdict = policyVerdict(toolName, input, facts);
    if (verdict.kind === 'deny') return { kind: 'deny', rule: verdict.label };
    if (verdict.kind === 'approve') {
      const asksRole = verdict.steps.some((step) => step.kind === 'role');
      if (asksRole && !(await mayAskRoles(db, requesterId)))
        return { kind: 'deny', rule: verdict.label, reason: 'sign_in_required' };
      return {
        kind: 'confirm',
        steps: verdict.steps,
        rule: verdict.label,
        ...(verdict.timeoutMs !== undefined && { timeoutMs: verdict.timeoutMs }),
      };
    }
    return defaultConfirmTools.has(toolName) ? { kind: 'confirm' } : { kind: 'run' };
  };
}
