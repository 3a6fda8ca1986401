import { idempotencyKey, stableStringify } from '@toolgate/engine';
import { describe, expect, it } from 'vitest';

describe('stableStringify', () => {
  it('gives the same string whatever the key order', () => {
    expect(stableStringify({ a: 1, b: 2 })).toBe(stableStringify({ b: 2, a: 1 }));
  });

  it('sorts keys in nested objects too', () => {
    expect(stableStringify({ outer: { y: [1, { d: 1, c: 2 }], x: true } })).toBe(
      '{"outer":{"x":true,"y":[1,{"c":2,"d":1}]}}',
    );
  });

  it('drops undefined fields', () => {
    expect(stableStringify({ a: 1, b: undefined })).toBe(stableStringify({ a: 1 }));
  });

  it('writes bigints as digits', () => {
    expect(stableStringify({ amount: 10n })).toBe('{"amount":10}');
  });

  it('throws on a circular structure instead of inventing a shared marker', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => stableStringify(cyclic)).toThrow(TypeError);
  });

  it('always returns a string, even for undefined', () => {
    expect(stableStringify(undefined)).toBe('undefined');
    expect(stableStringify('undefined')).toBe('"undefined"');
  });
});

describe('idempotencyKey', () => {
  it('joins scope, tool name and the canonical args', () => {
    expect(idempotencyKey('chat-1', 'createTicket', { title: 'x', detail: undefined })).toBe(
      'chat-1::createTicket::{"title":"x"}',
    );
  });

  it('differs between scopes for the same args', () => {
    expect(idempotencyKey('chat-1', 'addTodo', { title: 'x' })).not.toBe(
      idempotencyKey('chat-2', 'addTodo', { title: 'x' }),
    );
  });
});
