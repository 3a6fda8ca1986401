import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@/lib/config';
import { checkStartupConfiguration } from '@/lib/startup/check-startup-configuration';
import { type PolicyNames, parsePolicy } from '../../packages/engine/src/policy/policy-file';

const names: PolicyNames = {
  isKnownTool: (name) => ['issueRefund', 'createTicket'].includes(name),
  fieldsOf: (name) => ({ issueRefund: ['orderId', 'amount', 'reason'], createTicket: ['title'] })[name],
  knownToolNames: ['issueRefund', 'createTicket'],
};

const problemsOf = (json: unknown) => {
  const result = parsePolicy(json, names);
  return 'problems' in result ? result.problems : [];
};
const rule = (extra: Record<string, unknown>) => ({ rules: [{ tool: 'issueRefund', ...extra }] });

describe('parsePolicy', () => {
  it('keeps the roles with their emails normalised, and the rules in file order', () => {
    const result = parsePolicy(
      {
        roles: { supervisor: [' Sup1@Example.COM '] },
        rules: [
          {
            tool: 'issueRefund',
            when: { amount: { gt: 500 } },
            approvers: [{ role: 'supervisor' }, 'requester'],
          },
          { tool: 'createTicket', effect: 'deny' },
        ],
      },
      names,
    );
    expect(result).toEqual({
      policy: {
        roles: { supervisor: ['sup1@example.com'] },
        rules: [
          {
            tool: 'issueRefund',
            when: { amount: { gt: 500 } },
            approvers: [{ role: 'supervisor' }, 'requester'],
          },
          { tool: 'createTicket', effect: 'deny' },
        ],
      },
    });
  });

  it('names the field of a comparison with the wrong operand type', () => {
    expect(
      problemsOf({
        rules: [
          { tool: 'createTicket', effect: 'deny' },
          { tool: 'issueRefund', when: { amount: { gt: '500' } }, effect: 'deny' },
        ],
      }),
    ).toEqual(['TOOLGATE_POLICY rules[1].when.amount.gt: expected a number']);
  });

  it('rejects an unknown operator, naming it and the ones there are', () => {
    expect(problemsOf(rule({ when: { amount: { greater: 5 } }, effect: 'deny' }))).toEqual([
      'TOOLGATE_POLICY rules[0].when.amount.greater: unknown operator; use eq, ne, gt, gte, lt, lte, in',
    ]);
  });

  it('rejects an unknown key anywhere instead of ignoring it', () => {
    expect(problemsOf({ ...rule({ effect: 'deny', timeout: 5 }), role: {} })).toEqual([
      'TOOLGATE_POLICY rules[0].timeout: unknown field',
      'TOOLGATE_POLICY role: unknown field',
    ]);
    expect(problemsOf(rule({ approvers: [{ role: 'supervisor', count: 2 }] }))).toEqual([
      'TOOLGATE_POLICY rules[0].approvers[0].count: unknown field',
    ]);
  });

  it('rejects an unknown tool, listing the known ones', () => {
    expect(problemsOf({ rules: [{ tool: 'issueRefnud', effect: 'deny' }] })).toEqual([
      'TOOLGATE_POLICY rules[0].tool: unknown tool "issueRefnud"; known tools: issueRefund, createTicket',
    ]);
  });

  it('rejects a when field the tool does not take, so a typo cannot skip a rule', () => {
    expect(problemsOf(rule({ when: { amuont: { gt: 5 } }, effect: 'deny' }))).toEqual([
      'TOOLGATE_POLICY rules[0].when.amuont: issueRefund has no input field "amuont"; its fields: orderId, amount, reason',
    ]);
  });

  it('rejects a bad role name in a step and in the roles map', () => {
    expect(problemsOf(rule({ approvers: [{ role: 'Super Visor' }] }))).toEqual([
      'TOOLGATE_POLICY rules[0].approvers[0].role: a role name is lower-case letters, digits, "-" and "_", starting with a letter',
    ]);
    expect(problemsOf({ roles: { 'Super Visor': ['a@example.com'] }, rules: [] })).toEqual([
      'TOOLGATE_POLICY roles.Super Visor: a role name is lower-case letters, digits, "-" and "_", starting with a letter',
    ]);
  });

  it('keeps an escalation of a role step, and names what is wrong with a bad one', () => {
    const escalate = { afterMs: 3_600_000, to: { role: 'manager' } };
    const parsed = parsePolicy(rule({ approvers: [{ role: 'supervisor' }], escalate }), names);
    expect('policy' in parsed && parsed.policy.rules[0].escalate).toEqual(escalate);
    expect(problemsOf(rule({ approvers: ['requester'], escalate }))).toEqual([
      'TOOLGATE_POLICY rules[0].escalate: escalate needs a role step in approvers to hand on',
    ]);
    expect(
      problemsOf(
        rule({ approvers: [{ role: 'supervisor' }], escalate: { afterMs: -1, to: { role: 'Boss' } } }),
      ),
    ).toEqual([
      'TOOLGATE_POLICY rules[0].escalate.afterMs: expected a positive number of milliseconds',
      'TOOLGATE_POLICY rules[0].escalate.to.role: a role name is lower-case letters, digits, "-" and "_", starting with a letter',
    ]);
    expect(problemsOf(rule({ approvers: [{ role: 'supervisor' }], escalate: { after: 5 } }))).toContain(
      'TOOLGATE_POLICY rules[0].escalate.after: unknown field',
    );
  });

  it('rejects an approvers list that is empty, too long, or asks the requester twice', () => {
    expect(problemsOf(rule({ approvers: [] }))).toEqual([
      'TOOLGATE_POLICY rules[0].approvers: approvers is empty: list at least one step, or use "effect": "deny"',
    ]);
    expect(
      problemsOf(rule({ approvers: Array.from({ length: 6 }, () => ({ role: 'supervisor' })) })),
    ).toEqual(['TOOLGATE_POLICY rules[0].approvers: approvers lists at most 5 steps']);
    expect(problemsOf(rule({ approvers: ['requester', 'requester'] }))).toEqual([
      'TOOLGATE_POLICY rules[0].approvers: "requester" can fill only one step',
    ]);
    expect(problemsOf(rule({ approvers: ['supervisor'] }))).toEqual([
      'TOOLGATE_POLICY rules[0].approvers[0]: a step is "requester" or { "role": "<role name>" }',
    ]);
  });

  it('rejects a timeout that is not a positive whole number of at most seven days', () => {
    for (const timeoutMs of [0, -1, 1.5, 8 * 24 * 60 * 60 * 1000, '1000']) {
      const problems = problemsOf(rule({ approvers: ['requester'], timeoutMs }));
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^TOOLGATE_POLICY rules\[0\]\.timeoutMs: /);
    }
    expect(problemsOf(rule({ approvers: ['requester'], timeoutMs: 604_800_000 }))).toEqual([]);
  });

  it('rejects an effect other than deny, and a rule that says neither or both', () => {
    expect(problemsOf(rule({ effect: 'allow' }))).toEqual([
      'TOOLGATE_POLICY rules[0].effect: effect is "deny" (give approvers instead to ask people)',
    ]);
    expect(problemsOf(rule({}))).toEqual([
      'TOOLGATE_POLICY rules[0]: a rule needs "approvers" (who must allow), "limit" (a quota) or "effect": "deny"',
    ]);
    expect(problemsOf(rule({ effect: 'deny', approvers: ['requester'] }))).toEqual([
      'TOOLGATE_POLICY rules[0]: a rule has either "approvers" or "effect": "deny", not both',
    ]);
    expect(problemsOf(rule({ effect: 'deny', timeoutMs: 1000 }))).toEqual([
      'TOOLGATE_POLICY rules[0].timeoutMs: timeoutMs needs approvers to wait for',
    ]);
  });

  it('bounds the work: at most 200 rules and 100 values in an in list', () => {
    const rules = Array.from({ length: 201 }, () => ({ tool: 'issueRefund', effect: 'deny' }));
    expect(problemsOf({ rules })).toEqual(['TOOLGATE_POLICY rules: at most 200 rules']);
    expect(problemsOf({ rules: rules.slice(0, 200) })).toEqual([]);
    const values = Array.from({ length: 101 }, (_, index) => `A${index}`);
    expect(problemsOf(rule({ when: { orderId: { in: values } }, effect: 'deny' }))).toEqual([
      'TOOLGATE_POLICY rules[0].when.orderId.in: in lists at most 100 values',
    ]);
  });

  it('rejects an empty when, an empty condition, a mixed in list and a bad email', () => {
    expect(problemsOf(rule({ when: {}, effect: 'deny' }))).toEqual([
      'TOOLGATE_POLICY rules[0].when: when is empty: leave it out to match every call',
    ]);
    expect(problemsOf(rule({ when: { amount: {} }, effect: 'deny' }))).toEqual([
      'TOOLGATE_POLICY rules[0].when.amount: give at least one operator: eq, ne, gt, gte, lt, lte, in',
    ]);
    expect(problemsOf(rule({ when: { orderId: { in: ['A1', 1] } }, effect: 'deny' }))).toEqual([
      'TOOLGATE_POLICY rules[0].when.orderId.in: in lists values of one type (all strings, all numbers or all true / false)',
    ]);
    expect(problemsOf({ roles: { supervisor: ['not-an-email'] }, rules: [] })).toEqual([
      'TOOLGATE_POLICY roles.supervisor[0]: expected an email address such as sup@example.com',
    ]);
  });

  it('needs the rules list, and an object at the top', () => {
    expect(problemsOf({ roles: {} })).toEqual(['TOOLGATE_POLICY rules: expected a list of rules']);
    expect(problemsOf([])).toEqual(['TOOLGATE_POLICY (file): expected an object with "roles" and "rules"']);
  });
});

describe('checkStartupConfiguration with TOOLGATE_POLICY', () => {
  const write = (content: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'toolgate-policy-')), 'policy.json');
    writeFileSync(path, content);
    return path;
  };

  it('leaves the policy undefined when unset', () => {
    expect(checkStartupConfiguration({}).policy).toBeUndefined();
  });

  it('loads a valid file against the built-in tools and their input fields', () => {
    const path = write(
      JSON.stringify({
        rules: [{ tool: 'createTicket', when: { title: { eq: 'x' } }, approvers: ['requester'] }],
      }),
    );
    expect(checkStartupConfiguration({ TOOLGATE_POLICY: path }).policy?.rules).toHaveLength(1);
    const typo = write(
      JSON.stringify({ rules: [{ tool: 'createTicket', when: { titel: { eq: 'x' } }, effect: 'deny' }] }),
    );
    expect(() => checkStartupConfiguration({ TOOLGATE_POLICY: typo })).toThrow(
      /rules\[0\]\.when\.titel: createTicket has no input field/,
    );
  });

  it('stops on an unreadable file, bad JSON or an unknown tool, naming the problem', () => {
    expect(() => checkStartupConfiguration({ TOOLGATE_POLICY: '/nonexistent/policy.json' })).toThrow(
      ConfigError,
    );
    expect(() => checkStartupConfiguration({ TOOLGATE_POLICY: '/nonexistent/policy.json' })).toThrow(
      /TOOLGATE_POLICY: cannot read "\/nonexistent\/policy.json"/,
    );
    expect(() => checkStartupConfiguration({ TOOLGATE_POLICY: write('{ "rules": [') })).toThrow(
      /TOOLGATE_POLICY: ".*" is not valid JSON/,
    );
    expect(() =>
      checkStartupConfiguration({
        TOOLGATE_POLICY: write('{"rules":[{"tool":"dropTables","effect":"deny"}]}'),
      }),
    ).toThrow(/rules\[0\]\.tool: unknown tool "dropTables"; known tools: getOrderStatus, createTicket/);
  });

  it('accepts a tool of a configured MCP server, and no other server', () => {
    const mcp = write(JSON.stringify({ servers: { notes: { command: 'node', worker: 'notes' } } }));
    const ok = write('{"rules":[{"tool":"notes__delete_note","when":{"id":{"eq":"n1"}},"effect":"deny"}]}');
    expect(checkStartupConfiguration({ MCP_CONFIG: mcp, TOOLGATE_POLICY: ok }).policy?.rules[0]?.tool).toBe(
      'notes__delete_note',
    );
    const other = write('{"rules":[{"tool":"mail__send","effect":"deny"}]}');
    expect(() => checkStartupConfiguration({ MCP_CONFIG: mcp, TOOLGATE_POLICY: other })).toThrow(
      /unknown tool "mail__send"/,
    );
  });
});
