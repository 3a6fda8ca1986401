import { ROOT_CONTEXT } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ScopeContextManager } from '@/lib/telemetry/scope-context-manager';
import { currentToolCall, telemetryScope } from '../../packages/engine/src/telemetry/telemetry-scope';

const key = Symbol('test key');

describe('ScopeContextManager', () => {
  const manager = new ScopeContextManager(ROOT_CONTEXT);
  const outer = ROOT_CONTEXT.setValue(key, 'outer');
  const inner = ROOT_CONTEXT.setValue(key, 'inner');

  it('is the root outside every scope, and the given context inside, across awaits', async () => {
    expect(manager.active()).toBe(ROOT_CONTEXT);
    await manager.with(outer, async () => {
      expect(manager.active()).toBe(outer);
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(manager.active()).toBe(outer);
      manager.with(inner, () => expect(manager.active()).toBe(inner));
      expect(manager.active()).toBe(outer);
    });
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('keeps the tool call of the store it runs in, and passes this and the arguments', () => {
    const call = { toolName: 'createTicket', toolCallId: 'call-1', executed: false, event: () => undefined };
    telemetryScope().run({ call }, () => {
      const result = manager.with(
        outer,
        function (this: { n: number }, add: number) {
          expect(currentToolCall()).toBe(call);
          return this.n + add;
        },
        { n: 1 },
        2,
      );
      expect(result).toBe(3);
    });
  });

  it('runs a bound function in the bound context wherever it is called', () => {
    const bound = manager.bind(outer, () => manager.active());
    expect(manager.with(inner, bound)).toBe(outer);
    const emitter = { on: () => undefined };
    expect(manager.bind(outer, emitter)).toBe(emitter);
  });
});
