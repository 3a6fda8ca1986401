import { describe, expect, it } from 'vitest';
import { addressBudgetKey } from '@/lib/http/client-address';

describe('addressBudgetKey', () => {
  it('counts every address of one IPv6 /64 under one key, so rotating addresses buys no budget', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:2:ffff:1:2:3', '2001:0db8:0001:0002:0:0:0:9'].map(
      addressBudgetKey,
    );
    expect(new Set(keys)).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(addressBudgetKey('2001:db8:1:3::1')).not.toBe(keys[0]);
  });

  it('keeps IPv4 addresses apart, IPv4-mapped IPv6 included', () => {
    expect(addressBudgetKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressBudgetKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressBudgetKey('203.0.113.8')).not.toBe(addressBudgetKey('203.0.113.7'));
  });

  it('handles loopback, zones and values that are no address', () => {
    expect(addressBudgetKey('::1')).toBe('0:0:0:0::/64');
    expect(addressBudgetKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressBudgetKey('unknown')).toBe('unknown');
    expect(addressBudgetKey('1::2::3')).toBe('1::2::3');
  });
});
