import 'server-only';
import { policyVerdict } from '@/lib/policy';
import type { ApprovalAsk } from '@/lib/shells/wrap-tools-with-approval';

/**
 * What the approval policy (`TOOLGATE_POLICY`) asks of each call, on its validated input:
 * the first matching rule refuses it, or names its steps and deadline; with no matching
 * rule a tool of `defaultConfirmTools` (`AGENT_CONFIRM_TOOLS`, MCP tools that need it)
 * waits for its requester as without a policy, and any other runs at once.
 */
export function policyAsk(defaultConfirmTools: ReadonlySet<string>) {
  return (toolName: string, input: unknown, facts: { tainted: boolean }): ApprovalAsk => {
    const verdict = policyVerdict(toolName, input, facts);
    if (verdict.kind === 'deny') return { kind: 'deny', rule: verdict.label };
    if (verdict.kind === 'approve') {
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
