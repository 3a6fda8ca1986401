import type { Policy, PolicyCondition, PolicyLimit, PolicyRule, PolicyScalar } from './policy-file';

/** One approval step: the chat's user, or any user holding `role` (never the requester). */
export type PolicyStep = { kind: 'requester' } | { kind: 'role'; role: string };

/** What the policy says of one call. */
export type PolicyVerdict =
  /** No rule matched: `AGENT_CONFIRM_TOOLS` applies as without a policy. */
  | { kind: 'none' }
  /** Refused without a card. */
  | { kind: 'deny'; rule: number; label: string }
  /** Runs without a card while within the rule's quota (a rule with a `limit` alone). */
  | { kind: 'run'; rule: number; label: string; limit: PolicyLimit }
  /** Every step must allow; `timeoutMs` overrides the default deadline; `limit` is checked first. */
  | {
      kind: 'approve';
      rule: number;
      label: string;
      steps: PolicyStep[];
      timeoutMs?: number;
      limit?: PolicyLimit;
    };

/** What a rule may match besides the input: whether an untrusted output supplied the call's values (`$tainted`). */
export type CallFacts = { tainted?: boolean };

/** Three-valued: a comparison on a value it cannot judge is `unknown`, never quietly false. */
type Judgement = true | false | 'unknown';

const symbols = { eq: '=', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=', in: 'in' } as const;
const maxLabelLength = 200;

function compare(
  operator: keyof PolicyCondition,
  operand: PolicyScalar | PolicyScalar[],
  value: unknown,
): Judgement {
  // The type a condition compares with is its operand's (an `in` list holds one type).
  const expected = typeof (Array.isArray(operand) ? operand[0] : operand);
  if (typeof value !== expected || (typeof value === 'number' && !Number.isFinite(value))) return 'unknown';
  switch (operator) {
    case 'eq':
      return value === operand;
    case 'ne':
      return value !== operand;
    case 'gt':
      return (value as number) > (operand as number);
    case 'gte':
      return (value as number) >= (operand as number);
    case 'lt':
      return (value as number) < (operand as number);
    case 'lte':
      return (value as number) <= (operand as number);
    case 'in':
      return (operand as PolicyScalar[]).includes(value as PolicyScalar);
  }
}

/**
 * All of `when` must hold (Kleene AND): one false comparison rules the rule out, even where
 * another field is missing; otherwise one it cannot judge makes the whole `unknown`.
 */
function judge(when: PolicyRule['when'], input: unknown): { judgement: Judgement; field?: string } {
  if (when === undefined) return { judgement: true };
  const fields = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
  let unknownField: string | undefined;
  for (const [field, condition] of Object.entries(when)) {
    // Own properties only: the input comes from the model.
    const value = Object.hasOwn(fields, field) ? (fields as Record<string, unknown>)[field] : undefined;
    for (const [operator, operand] of Object.entries(condition) as [keyof PolicyCondition, PolicyScalar][]) {
      const result = compare(operator, operand, value);
      if (result === false) return { judgement: false };
      if (result === 'unknown') unknownField ??= field;
    }
  }
  return unknownField === undefined ? { judgement: true } : { judgement: 'unknown', field: unknownField };
}

/** Whether every condition of `when` holds for `input`; one it cannot judge does not. */
export function conditionsHold(when: PolicyRule['when'], input: unknown): boolean {
  return judge(when, input).judgement === true;
}

/** A rule as audit rows and approvals name it: `rules[2]: <tool> amount > 500`. */
export function describeRule(rule: PolicyRule, index: number): string {
  const conditions = Object.entries(rule.when ?? {}).flatMap(([field, condition]) =>
    Object.entries(condition).map(
      ([operator, operand]) =>
        `${field} ${symbols[operator as keyof PolicyCondition]} ${Array.isArray(operand) ? `[${operand.map((value) => JSON.stringify(value)).join(', ')}]` : JSON.stringify(operand)}`,
    ),
  );
  if (rule.tainted !== undefined) conditions.push(`$tainted = ${rule.tainted}`);
  const label = [`rules[${index}]: ${rule.tool}`, conditions.join(' and ')].filter(Boolean).join(' ');
  return label.length > maxLabelLength ? `${label.slice(0, maxLabelLength - 1)}…` : label;
}

/**
 * The verdict of `policy` on one call: the first rule whose tool and `when` match decides.
 *
 * An input a rule cannot judge — a field it compares is missing, or not of the type it
 * compares with (a string where `amount > 500` wants a number) — refuses the call, naming
 * that rule. Skipping the rule instead would let an odd input fall through to a later,
 * looser rule (below `amount > 500` usually sits the one that asks less), so an input
 * the policy cannot read never gets less approval than one it can: it gets none.
 */
export function verdictOf(
  policy: Policy | undefined,
  toolName: string,
  input: unknown,
  { tainted = false }: CallFacts = {},
): PolicyVerdict {
  if (policy === undefined) return { kind: 'none' };
  for (const [index, rule] of policy.rules.entries()) {
    if (rule.tool !== toolName) continue;
    if (rule.tainted !== undefined && rule.tainted !== tainted) continue;
    const { judgement, field } = judge(rule.when, input);
    if (judgement === false) continue;
    const label = describeRule(rule, index);
    if (judgement === 'unknown') {
      return {
        kind: 'deny',
        rule: index,
        label: `${label} (refused: ${field} is missing or of another type)`,
      };
    }
    if (rule.effect === 'deny') return { kind: 'deny', rule: index, label };
    if (rule.approvers === undefined) {
      if (rule.limit !== undefined) return { kind: 'run', rule: index, label, limit: rule.limit };
      return { kind: 'deny', rule: index, label };
    }
    const steps = rule.approvers.map(
      (step): PolicyStep =>
        step === 'requester' ? { kind: 'requester' } : { kind: 'role', role: step.role },
    );
    return {
      kind: 'approve',
      rule: index,
      label,
      steps,
      ...(rule.timeoutMs === undefined ? {} : { timeoutMs: rule.timeoutMs }),
      ...(rule.limit === undefined ? {} : { limit: rule.limit }),
    };
  }
  return { kind: 'none' };
}

/** The tools some rule of `policy` names. */
export function toolsNamedBy(policy: Policy | undefined): ReadonlySet<string> {
  return new Set(policy?.rules.map((rule) => rule.tool) ?? []);
}
