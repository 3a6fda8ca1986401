import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Policy, type PolicyNames, parsePolicy } from '../../packages/engine/src/policy/policy-file';
import { toolsNamedBy, verdictOf } from '../../packages/engine/src/policy/policy-verdict';

const names: PolicyNames = {
  isKnownTool: (name) => ['issueRefund', 'createTicket', 'addTodo'].includes(name),
  fieldsOf: (name) =>
    ({ issueRefund: ['orderId', 'amount', 'reason', 'currency', 'express'], createTicket: ['title'] })[name],
  knownToolNames: ['issueRefund', 'createTicket', 'addTodo'],
};

function policyOf(json: unknown): Policy {
  const result = parsePolicy(json, names);
  if (!('policy' in result)) throw new Error(result.problems.join('\n'));
  return result.policy;
}

const example = policyOf(JSON.parse(readFileSync('examples/policy.json', 'utf8')));
const refund = (amount: unknown) => ({ orderId: 'A1001', amount, reason: 'broken' });

describe('verdictOf', () => {
  it('says none without a policy, whatever the call', () => {
    expect(verdictOf(undefined, 'issueRefund', refund(5000))).toEqual({ kind: 'none' });
  });

  it('says none for a tool no rule names', () => {
    expect(verdictOf(example, 'createTicket', { title: 'x' })).toEqual({ kind: 'none' });
  });

  it('refuses a call a deny rule matches, naming the rule', () => {
    expect(verdictOf(example, 'issueRefund', refund(1500))).toEqual({
      kind: 'deny',
      rule: 0,
      label: 'rules[0]: issueRefund amount > 1000',
    });
  });

  it('lets the first matching rule decide: 800 needs two supervisors, not one', () => {
    expect(verdictOf(example, 'issueRefund', refund(800))).toEqual({
      kind: 'approve',
      rule: 1,
      label: 'rules[1]: issueRefund amount > 500',
      steps: [
        { kind: 'role', role: 'supervisor' },
        { kind: 'role', role: 'supervisor' },
      ],
      timeoutMs: 14_400_000,
    });
    expect(verdictOf(example, 'issueRefund', refund(60))).toMatchObject({
      rule: 2,
      steps: [{ kind: 'role', role: 'supervisor' }],
    });
  });

  it('falls through to a rule without when, which asks the requester and sets no timeout', () => {
    const verdict = verdictOf(example, 'issueRefund', refund(50));
    expect(verdict).toEqual({
      kind: 'approve',
      rule: 3,
      label: 'rules[3]: issueRefund',
      steps: [{ kind: 'requester' }],
    });
  });

  it('compares at the boundary as each operator says', () => {
    const cases: [string, unknown, unknown, boolean][] = [
      ['eq', 'EUR', 'EUR', true],
      ['eq', 'EUR', 'USD', false],
      ['eq', true, true, true],
      ['ne', 'EUR', 'USD', true],
      ['ne', 'EUR', 'EUR', false],
      ['gt', 100, 100, false],
      ['gt', 100, 100.01, true],
      ['gte', 100, 100, true],
      ['gte', 100, 99.99, false],
      ['lt', 100, 100, false],
      ['lt', 100, 99.99, true],
      ['lte', 100, 100, true],
      ['lte', 100, 100.01, false],
      ['in', ['EUR', 'GBP'], 'GBP', true],
      ['in', ['EUR', 'GBP'], 'USD', false],
      ['in', [1, 2], 2, true],
    ];
    for (const [operator, operand, value, matches] of cases) {
      const field =
        typeof value === 'number' ? 'amount' : typeof value === 'boolean' ? 'express' : 'currency';
      const policy = policyOf({
        rules: [{ tool: 'issueRefund', when: { [field]: { [operator]: operand } }, effect: 'deny' }],
      });
      const verdict = verdictOf(policy, 'issueRefund', { ...refund(10), [field]: value });
      expect({ operator, operand, value, kind: verdict.kind }).toEqual({
        operator,
        operand,
        value,
        kind: matches ? 'deny' : 'none',
      });
    }
  });

  it('needs every field and every operator of when to hold', () => {
    const policy = policyOf({
      rules: [
        {
          tool: 'issueRefund',
          when: { amount: { gte: 10, lt: 20 }, currency: { eq: 'EUR' } },
          approvers: [{ role: 'finance' }],
        },
      ],
    });
    const call = (amount: number, currency: string) =>
      verdictOf(policy, 'issueRefund', { ...refund(amount), currency }).kind;
    expect(call(15, 'EUR')).toBe('approve');
    expect(call(25, 'EUR')).toBe('none');
    expect(call(5, 'EUR')).toBe('none');
    expect(call(15, 'USD')).toBe('none');
    expect(verdictOf(policy, 'issueRefund', { ...refund(15), currency: 'EUR' })).toMatchObject({
      label: 'rules[0]: issueRefund amount >= 10 and amount < 20 and currency = "EUR"',
    });
  });

  it('refuses an input whose compared field is missing or of another type instead of skipping to a looser rule', () => {
    for (const input of [
      { orderId: 'A1001', reason: 'x' },
      refund('2000'),
      refund(null),
      refund([2000]),
      'not an object',
      null,
    ]) {
      expect(verdictOf(example, 'issueRefund', input)).toEqual({
        kind: 'deny',
        rule: 0,
        label: 'rules[0]: issueRefund amount > 1000 (refused: amount is missing or of another type)',
      });
    }
  });

  it('still skips a rule another of whose fields rules it out, even when one is missing', () => {
    const policy = policyOf({
      rules: [
        { tool: 'issueRefund', when: { currency: { eq: 'EUR' }, amount: { gt: 5 } }, effect: 'deny' },
        { tool: 'issueRefund', approvers: ['requester'] },
      ],
    });
    expect(verdictOf(policy, 'issueRefund', { currency: 'USD' })).toMatchObject({ kind: 'approve', rule: 1 });
    expect(verdictOf(policy, 'issueRefund', { currency: 'EUR' })).toMatchObject({ kind: 'deny', rule: 0 });
  });

  it('reads only the input’s own fields, never inherited ones', () => {
    const policy = policyOf({
      rules: [{ tool: 'issueRefund', when: { amount: { lt: 100 } }, effect: 'deny' }],
    });
    const inherited = Object.create({ amount: 5 }) as object;
    expect(verdictOf(policy, 'issueRefund', inherited)).toMatchObject({
      kind: 'deny',
      label: 'rules[0]: issueRefund amount < 100 (refused: amount is missing or of another type)',
    });
  });
});

describe('toolsNamedBy', () => {
  it('lists every tool a rule names, and none without a policy', () => {
    const policy = policyOf({
      rules: [
        { tool: 'issueRefund', effect: 'deny' },
        { tool: 'addTodo', approvers: ['requester'] },
      ],
    });
    expect([...toolsNamedBy(policy)].sort()).toEqual(['addTodo', 'issueRefund']);
    expect(toolsNamedBy(undefined).size).toBe(0);
  });
});
