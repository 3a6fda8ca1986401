import 'server-only';
import { getConfig } from '@/lib/config';
import type { Policy } from './policy-file';
import { type CallFacts, type PolicyVerdict, toolsNamedBy, verdictOf } from './policy-verdict';

export type {
  Policy,
  PolicyApprover,
  PolicyCondition,
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

/** The loaded policy (undefined without `TOOLGATE_POLICY`); validated when the configuration is parsed. */
export function getPolicy(): Policy | undefined {
  return getConfig().TOOLGATE_POLICY;
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
