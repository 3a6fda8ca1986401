import { z } from 'zod';
import { normalizeEmail } from '../shared/normalize-email';

/** A role name: lower-case letters, digits, `-` and `_`, starting with a letter (`supervisor`, `admin`). */
export const roleNamePattern = /^[a-z][a-z0-9_-]{0,39}$/;

/** The most rules a policy holds: every tool call walks them, so the work per call stays bounded. */
export const maxPolicyRules = 200;
/** The most values one `in` list holds. */
export const maxInValues = 100;
/** The most steps one rule's `approvers` lists. */
export const maxApproverSteps = 5;
/** The longest wait a rule may set: seven days. */
export const maxPolicyTimeoutMs = 7 * 24 * 60 * 60 * 1000;
const maxWhenFields = 20;
const maxRoles = 100;
const maxEmailsPerRole = 1000;
const maxTextOperand = 500;

/** A comparison of one input field: every operator given must hold. */
export type PolicyCondition = {
  eq?: PolicyScalar;
  ne?: PolicyScalar;
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
  in?: PolicyScalar[];
};

/** A value a condition compares with. */
export type PolicyScalar = string | number | boolean;

/** A step as written in the file: the chat's user, or any user holding a role. */
export type PolicyApprover = 'requester' | { role: string };

/** One rule of the policy file, as validated. */
export type PolicyRule = {
  tool: string;
  /** Input field → condition; absent means every call of the tool. */
  when?: Record<string, PolicyCondition>;
  /** Written `"when": { "$tainted": true }`: matches only calls whose values an untrusted output supplied (or only others, for false). */
  tainted?: boolean;
  effect?: 'deny';
  approvers?: PolicyApprover[];
  timeoutMs?: number;
  /** At most `max` executed calls per `windowMs` (per user, chat or all); past it, refused without a card. */
  limit?: PolicyLimit;
  /** A role step still open after `afterMs` is handed to `to.role`, once; the deadline restarts. */
  escalate?: PolicyEscalation;
};

/** Where an open role step goes when nobody decided it in time. */
export type PolicyEscalation = { afterMs: number; to: { role: string } };

/** A rule's quota: executed calls counted per user, per chat or over all, in a sliding window. */
export type PolicyLimit = { max: number; windowMs: number; per: 'user' | 'chat' | 'all' };

/** The validated policy file: role → emails (normalised), and the rules in file order. */
export type Policy = { roles: Record<string, string[]>; rules: PolicyRule[] };

/** What the file may name besides itself: the tools that exist, and the input fields each takes. */
export type PolicyNames = {
  /** True for a tool a rule may name (a built-in one, or one of a configured MCP server). */
  isKnownTool: (name: string) => boolean;
  /** The input fields of a tool, or undefined when they are not known before it runs (MCP tools). */
  fieldsOf: (name: string) => readonly string[] | undefined;
  /** The tool names an error message lists. */
  knownToolNames: readonly string[];
};

const roleName = z
  .string({ error: 'expected a role name' })
  .regex(roleNamePattern, 'a role name is lower-case letters, digits, "-" and "_", starting with a letter');

const finiteNumber = z.number({ error: 'expected a number' }).finite('expected a finite number');

const scalar = z.union(
  [
    z.string().max(maxTextOperand, `a text operand has at most ${maxTextOperand} characters`),
    finiteNumber,
    z.boolean(),
  ],
  { error: 'expected a string, a number or true / false' },
);

const operators = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'] as const;

const conditionSchema = z
  .strictObject(
    {
      eq: scalar.optional(),
      ne: scalar.optional(),
      gt: finiteNumber.optional(),
      gte: finiteNumber.optional(),
      lt: finiteNumber.optional(),
      lte: finiteNumber.optional(),
      in: z
        .array(scalar, { error: 'expected a list of values' })
        .min(1, 'in is empty: list at least one value')
        .max(maxInValues, `in lists at most ${maxInValues} values`)
        .refine(
          (values) => new Set(values.map((value) => typeof value)).size <= 1,
          'in lists values of one type (all strings, all numbers or all true / false)',
        )
        .optional(),
    },
    { error: 'expected an object of operators such as { "gt": 500 }' },
  )
  .refine((condition) => Object.keys(condition).length > 0, {
    message: `give at least one operator: ${operators.join(', ')}`,
    // An unknown operator is already reported: it is the one mistake there.
    when: (payload) => payload.issues.length === 0,
  });

// A field name is looked up as an own property of the input; `__proto__` is never one.
const fieldName = z
  .string()
  .regex(/^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$/, 'a field name is letters, digits, "_", "$" and "-"')
  .refine((name) => name !== '__proto__', 'a field name is never "__proto__"');

// Chosen by type, so a mistake reads `approvers[0].role: …` and not "no union member matched".
const approverSchema = z.unknown().transform((value, context): PolicyApprover => {
  if (value === 'requester') return 'requester';
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const parsed = z.strictObject({ role: roleName }).safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys)
          context.addIssue({ code: 'custom', path: [key], message: 'unknown field' });
      } else context.addIssue({ ...issue, code: 'custom' });
    }
    return z.NEVER;
  }
  context.addIssue({ code: 'custom', message: 'a step is "requester" or { "role": "<role name>" }' });
  return z.NEVER;
});

/**
 * Moves `when.$tainted` (whether an untrusted output supplied the call's values) out of the
 * field conditions into the rule's `tainted`, so the rest of `when` stays input fields only.
 */
function liftTainted(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const when = (value as { when?: unknown }).when;
  if (typeof when !== 'object' || when === null || Array.isArray(when) || !Object.hasOwn(when, '$tainted'))
    return value;
  const { $tainted, ...fields } = when as Record<string, unknown>;
  const { when: _when, ...rule } = value as Record<string, unknown>;
  return { ...rule, ...(Object.keys(fields).length > 0 && { when: fields }), tainted: $tainted };
}

/** Input field → condition, as a rule's (and a standing grant's) `when` holds them. */
export const whenSchema = z
  .record(fieldName, conditionSchema, { error: 'expected an object of input fields' })
  .refine((when) => Object.keys(when).length > 0, 'when is empty: leave it out to match every call')
  .refine(
    (when) => Object.keys(when).length <= maxWhenFields,
    `when compares at most ${maxWhenFields} fields`,
  );

/** The most calls a quota may allow in one window. */
export const maxLimitCalls = 1_000_000;
/** The longest quota window: thirty days. */
export const maxLimitWindowMs = 30 * 24 * 60 * 60 * 1000;

const limitSchema = z.strictObject(
  {
    max: z
      .number({ error: 'expected a number of calls' })
      .int('expected a whole number of calls')
      .positive('expected at least 1 call')
      .max(maxLimitCalls, `at most ${maxLimitCalls} calls`),
    windowMs: z
      .number({ error: 'expected a number of milliseconds' })
      .int('expected a whole number of milliseconds')
      .min(1000, 'at least 1000 (one second)')
      .max(maxLimitWindowMs, `at most ${maxLimitWindowMs} (thirty days)`),
    per: z.enum(['user', 'chat', 'all'], { error: 'per is "user", "chat" or "all"' }),
  },
  { error: 'expected { "max": N, "windowMs": W, "per": "user"|"chat"|"all" }' },
);

const ruleSchema = z.preprocess(
  liftTainted,
  z
    .strictObject(
      {
        tool: z.string({ error: 'expected a tool name' }).min(1, 'expected a tool name'),
        when: whenSchema.optional(),
        tainted: z.boolean({ error: 'when.$tainted is true or false' }).optional(),
        effect: z
          .literal('deny', { error: 'effect is "deny" (give approvers instead to ask people)' })
          .optional(),
        approvers: z
          .array(approverSchema, { error: 'expected a list of steps' })
          .min(1, 'approvers is empty: list at least one step, or use "effect": "deny"')
          .max(maxApproverSteps, `approvers lists at most ${maxApproverSteps} steps`)
          .refine(
            (steps) => steps.filter((step) => step === 'requester').length <= 1,
            '"requester" can fill only one step',
          )
          .optional(),
        timeoutMs: z
          .number({ error: 'expected a number of milliseconds' })
          .int('expected a whole number of milliseconds')
          .positive('expected a positive number of milliseconds')
          .max(maxPolicyTimeoutMs, `at most ${maxPolicyTimeoutMs} (seven days)`)
          .optional(),
        limit: limitSchema.optional(),
        escalate: z
          .strictObject(
            {
              afterMs: z
                .number({ error: 'expected a number of milliseconds' })
                .int('expected a whole number of milliseconds')
                .positive('expected a positive number of milliseconds')
                .max(maxPolicyTimeoutMs, `at most ${maxPolicyTimeoutMs} (seven days)`),
              to: z.strictObject({ role: roleName }, { error: 'expected { "role": "<role name>" }' }),
            },
            { error: 'expected { "afterMs": <milliseconds>, "to": { "role": "<role name>" } }' },
          )
          .optional(),
      },
      { error: 'expected a rule object' },
    )
    .superRefine((rule, context) => {
      const says = (rule.effect === undefined ? 0 : 1) + (rule.approvers === undefined ? 0 : 1);
      // A quota alone lets calls run without a card while within it.
      if (says === 0 && rule.limit === undefined) {
        context.addIssue({
          code: 'custom',
          message: 'a rule needs "approvers" (who must allow), "limit" (a quota) or "effect": "deny"',
        });
      }
      if (says === 2) {
        context.addIssue({
          code: 'custom',
          message: 'a rule has either "approvers" or "effect": "deny", not both',
        });
      }
      if (rule.effect === 'deny' && rule.limit !== undefined) {
        context.addIssue({
          code: 'custom',
          path: ['limit'],
          message: 'a rule that denies every call it matches needs no limit',
        });
      }
      if (rule.timeoutMs !== undefined && rule.approvers === undefined) {
        context.addIssue({
          code: 'custom',
          path: ['timeoutMs'],
          message: 'timeoutMs needs approvers to wait for',
        });
      }
      if (rule.escalate !== undefined && !rule.approvers?.some((step) => step !== 'requester')) {
        context.addIssue({
          code: 'custom',
          path: ['escalate'],
          message: 'escalate needs a role step in approvers to hand on',
        });
      }
    }),
);

const emailSchema = z
  .string({ error: 'expected an email address' })
  .max(254, 'an email address has at most 254 characters')
  .transform(normalizeEmail)
  .refine((email) => /^[^@\s]+@[^@\s]+$/.test(email), 'expected an email address such as sup@example.com');

const policySchema = z.strictObject(
  {
    roles: z
      .record(
        roleName,
        z
          .array(emailSchema, { error: 'expected a list of email addresses' })
          .max(maxEmailsPerRole, `a role lists at most ${maxEmailsPerRole} emails`),
        { error: 'expected an object of role → email list' },
      )
      .refine((roles) => Object.keys(roles).length <= maxRoles, `at most ${maxRoles} roles`)
      .default({}),
    rules: z
      .array(ruleSchema, { error: 'expected a list of rules' })
      .max(maxPolicyRules, `at most ${maxPolicyRules} rules`),
  },
  { error: 'expected an object with "roles" and "rules"' },
);

/** `rules[1].when.amount.gt`: where an issue is, as the file's reader would write it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

/** One sentence per problem, each naming the field. */
function problemsOf(error: z.ZodError, prefix: string): string[] {
  return error.issues.flatMap((issue) => {
    const where = fieldPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      // Inside a condition the unknown key is an operator; anywhere else, a field the file may not have.
      const isCondition = issue.path.length === 4 && issue.path[2] === 'when';
      return issue.keys.map((key) =>
        isCondition
          ? `${prefix} ${where}.${key}: unknown operator; use ${operators.join(', ')}`
          : `${prefix} ${where === '' ? '' : `${where}.`}${key}: unknown field`,
      );
    }
    // A bad record key (a role or field name) is reported as such; its own message says what a name may hold.
    const message =
      issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    return [`${prefix} ${where === '' ? '(file)' : where}: ${message}`];
  });
}

/**
 * Validates a parsed policy file. Tool names must be ones `names` knows, and a `when`
 * field one the tool takes, so a typo can never silently skip a rule. Returns the
 * problems, each a sentence naming the field, instead of throwing.
 */
export function parsePolicy(json: unknown, names: PolicyNames): { policy: Policy } | { problems: string[] } {
  const prefix = 'TOOLGATE_POLICY';
  const parsed = policySchema.safeParse(json);
  if (!parsed.success) return { problems: problemsOf(parsed.error, prefix) };
  const problems: string[] = [];
  parsed.data.rules.forEach((rule, index) => {
    if (!names.isKnownTool(rule.tool)) {
      problems.push(
        `${prefix} rules[${index}].tool: unknown tool "${rule.tool}"; known tools: ${names.knownToolNames.join(', ')}`,
      );
      return;
    }
    const fields = names.fieldsOf(rule.tool);
    if (fields === undefined || rule.when === undefined) return;
    for (const field of Object.keys(rule.when)) {
      if (!fields.includes(field)) {
        problems.push(
          `${prefix} rules[${index}].when.${field}: ${rule.tool} has no input field "${field}"; its fields: ${fields.join(', ')}`,
        );
      }
    }
  });
  if (problems.length > 0) return { problems };
  return { policy: parsed.data as Policy };
}

/** Validates the text of the `TOOLGATE_POLICY` file at `path` (read by policy-store.ts). */
export function parsePolicyText(
  path: string,
  text: string,
  names: PolicyNames,
): { policy: Policy } | { problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [`TOOLGATE_POLICY: "${path}" is not valid JSON: ${(error as Error).message}`] };
  }
  return parsePolicy(json, names);
}
