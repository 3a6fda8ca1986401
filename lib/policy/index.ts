import 'server-only';
import { getConfig } from '@/lib/config';
import type { Policy, PolicyEscalation } from './policy-file';
import { policyVersionOf, reloadedPolicy } from './policy-store';
import { type CallFacts, describeRule, type PolicyVerdict, toolsNamedBy, verdictOf } from './policy-verdict';

export type {
  Policy,
  PolicyApprover,
  PolicyCondition,
  PolicyEscalation,
  PolicyLimit,
  PolicyRule,
  PolicyScalar,
} from './policy-file';
export { maxPolicyTimeoutMs, whenSchema } from './policy-file';
export {
  createDatabaseQuotaCounter,
  createRedisQuotaCounter,
  getQuotaCounter,
  type QuotaAnswer,
  type QuotaCounter,
  quotaKey,
} from './policy-quota';
export type { CallFacts, PolicyStep, PolicyVerdict } from './policy-verdict';
export { conditionsHold } from './policy-verdict';

/**
 * The policy in force (undefined without `TOOLGATE_POLICY`): the file as validated at start-up,
 * or the latest valid edit of it this process picked up (`watchPolicyFile`).
 */
export function getPolicy(): Policy | undefined {
  return reloadedPolicy()?.policy ?? getConfig().TOOLGATE_POLICY;
}

/** The version of the policy in force (hex SHA-256 of its canonical JSON) and when it was loaded; undefined without one. */
export function policyInForce(): { version: string; loadedAt?: string } | undefined {
  const reloaded = reloadedPolicy();
  if (reloaded !== undefined) return { version: reloaded.version, loadedAt: reloaded.loadedAt };
  const policy = getConfig().TOOLGATE_POLICY;
  return policy === undefined ? undefined : { version: policyVersionOf(policy) };
}

/**
 * Who must approve a call of `toolName` with `input`: the first rule whose tool and `when`
 * match decides; `none` without a policy or a matching rule. An input a rule cannot judge
 * is refused (see `verdictOf`). `rule` is the rule's index in the file; `facts.tainted`
 * is what `"$tainted"` compares.
 */
export function policyVerdict(toolName: string, input: unknown, facts?: CallFacts): PolicyVerdict {
  return verdictOf(getPolicy(), toolName, input, facts);
}

/**
 * The escalation of the rule a verdict labelled `label` (`rules[N]: …`), when that rule of the
 * loaded policy is still the one described and has one.
 */
export function escalationOfRule(label: string | undefined): PolicyEscalation | undefined {
  const index = label === undefined ? undefined : /^rules\[(\d+)\]/.exec(label)?.[1];
  const rule = index === undefined ? undefined : getPolicy()?.rules[Number(index)];
  if (rule?.escalate === undefined || describeRule(rule, Number(index)) !== label) return undefined;
  return rule.escalate;
}

/** Tools any rule names (so a worker table knows they may need a card even when not in AGENT_CONFIRM_TOOLS). */
export function toolsWithRules(): ReadonlySet<string> {
  const policy = getPolicy();
  if (policy === undefined) return noTools;
  let tools = toolsByPolicy.get(policy);
  if (tools === undefined) {
    tools = toolsNamedBy(policy);
    toolsByPolicy.set(policy, tools);
  }
  return tools;
}

const noTools: ReadonlySet<string> = new Set();
// Asked for every turn's tool table: worked out once per loaded policy.
const toolsByPolicy = new WeakMap<Policy, ReadonlySet<string>>();
