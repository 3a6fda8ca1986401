import 'server-only';
import type { Policy, PolicyEscalation } from '@toolgate/engine/policy';
import {
  type CallFacts,
  describeRule,
  type PolicyVerdict,
  toolsNamedBy,
  verdictOf,
} from '@toolgate/engine/policy';
import { getConfig } from '@/lib/config';
import { type LoadedPolicy, loadedPolicy } from './policy-store';

export type {
  CallFacts,
  Policy,
  PolicyApprover,
  PolicyCondition,
  PolicyEscalation,
  PolicyLimit,
  PolicyRule,
  PolicyScalar,
  PolicyStep,
  PolicyVerdict,
} from '@toolgate/engine/policy';
export { conditionsHold, maxPolicyTimeoutMs, whenSchema } from '@toolgate/engine/policy';
export {
  createDatabaseQuotaCounter,
  createRedisQuotaCounter,
  getQuotaCounter,
  type QuotaAnswer,
  type QuotaCounter,
  quotaKey,
} from './policy-quota';

/**
 * The policy in force, loaded for the configured `TOOLGATE_POLICY` path: the file as the
 * start-up check validated it, or the latest valid edit of it (`watchPolicyFile`).
 * Undefined without `TOOLGATE_POLICY`.
 */
function loadedPolicyInForce(): LoadedPolicy | undefined {
  const path = getConfig().TOOLGATE_POLICY;
  if (path === undefined) return undefined;
  const loaded = loadedPolicy(path);
  // Fail closed: judging calls without the rules the operator configured would run what they deny.
  if (loaded === undefined) {
    throw new Error(`the policy file "${path}" (TOOLGATE_POLICY) is not loaded: the start-up check loads it`);
  }
  return loaded;
}

/** The policy in force (undefined without `TOOLGATE_POLICY`). */
export function getPolicy(): Policy | undefined {
  return loadedPolicyInForce()?.policy;
}

/** The version of the policy in force (hex SHA-256 of its canonical JSON) and when it was loaded; undefined without one. */
export function policyInForce(): { version: string; loadedAt?: string } | undefined {
  const loaded = loadedPolicyInForce();
  return loaded === undefined ? undefined : { version: loaded.version, loadedAt: loaded.loadedAt };
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
