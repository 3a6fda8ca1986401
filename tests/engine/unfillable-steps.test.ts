import { describe, expect, it } from 'vitest';
import type { Policy } from '@/lib/policy';
import { rolesShortOfHolders, unfillableSteps } from '@/lib/policy/unfillable-steps';

const role = (name: string) => ({ kind: 'role', role: name });

describe('rolesShortOfHolders', () => {
  it('counts a holder of two roles once: a supervisor step and a manager step need two people', () => {
    const holders = new Map([
      ['supervisor', ['wang']],
      ['manager', ['wang']],
    ]);
    expect(rolesShortOfHolders([role('supervisor'), role('manager')], holders)).toEqual([
      { roles: ['manager', 'supervisor'], needed: 2, holders: 1 },
    ]);
  });

  it('finds the one way to fill every step when there is one', () => {
    // Li holds only manager, so Wang must take the supervisor step.
    const holders = new Map([
      ['supervisor', ['wang']],
      ['manager', ['wang', 'li']],
    ]);
    expect(rolesShortOfHolders([role('manager'), role('supervisor')], holders)).toEqual([]);
  });

  it('names a role nobody holds, and M steps of a role fewer than M hold', () => {
    const holders = new Map([['supervisor', ['wang']]]);
    expect(
      rolesShortOfHolders(
        [role('supervisor'), role('supervisor'), role('supervisor'), role('auditor')],
        holders,
      ),
    ).toEqual([
      { roles: ['supervisor'], needed: 3, holders: 1 },
      { roles: ['auditor'], needed: 1, holders: 0 },
    ]);
  });
});

describe('unfillableSteps', () => {
  it('warns of a two-role rule whose only holder of both is one person', () => {
    const policy = {
      rules: [{ tool: 'issueRefund', approvers: [{ role: 'supervisor' }, { role: 'manager' }] }],
    } as unknown as Policy;
    const holders = new Map([
      ['supervisor', ['wang']],
      ['manager', ['wang']],
    ]);
    expect(unfillableSteps(policy, holders)).toEqual([
      'rules[0] (issueRefund): its steps for "manager" and "supervisor" need 2 different people (one person fills one step), but only 1 verified account holds any of those roles',
    ]);
  });
});
