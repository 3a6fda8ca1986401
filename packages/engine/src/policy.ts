/* The policy file: its parser and the pure verdict of who must approve a call. */
export {
  maxPolicyTimeoutMs,
  type Policy,
  type PolicyApprover,
  type PolicyCondition,
  type PolicyEscalation,
  type PolicyLimit,
  type PolicyNames,
  type PolicyRule,
  type PolicyScalar,
  parsePolicy,
  parsePolicyText,
  roleNamePattern,
  whenSchema,
} from './policy/policy-file';
export { rolesByEmailOf } from './policy/policy-roles';
export {
  type CallFacts,
  conditionsHold,
  describeRule,
  type PolicyStep,
  type PolicyVerdict,
  toolsNamedBy,
  verdictOf,
} from './policy/policy-verdict';
