import { createMemoryIdempotencyStore, idempotencyKey } from '@toolgate/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

type Step = { kind: 'call'; scope: string; title: string; fail: boolean } | { kind: 'settle'; pick: number };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('call' as const),
    scope: fc.constantFrom('chat-1', 'chat-2'),
    title: fc.constantFrom('a', 'b', 'c'),
    fail: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('settle' as const), pick: fc.nat() }),
);

type PendingExecution = {
  key: string;
  fail: boolean;
  id: number;
  resolve: (id: number) => void;
  reject: (error: Error) => void;
};

/** Lets every promise reaction run, so the store has processed each settlement before the next step. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createMemoryIdempotencyStore (property)', () => {
  it('executes exactly once per distinct successful key plus once per failed execution', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArbitrary, { maxLength: 60 }), async (steps) => {
        const store = createMemoryIdempotencyStore({ maxEntries: 1_000 });
        const pending: PendingExecution[] = [];
        const outcomes: Promise<{ key: string; ok: boolean; value?: number }>[] = [];
        let executions = 0;

        // The oracle: what each key is doing, stepped in lockstep with the store.
        const modelByKey = new Map<
          string,
          { state: 'in-flight'; fail: boolean; id: number } | { state: 'done' }
        >();
        let expectedExecutions = 0;
        let failedExecutions = 0;
        const successfulKeys = new Set<string>();
        const settledById = new Map<number, { ok: boolean }>();

        for (const step of steps) {
          if (step.kind === 'call') {
            const key = idempotencyKey(step.scope, 'createTicket', { title: step.title });
            // A call executes exactly when its key has neither a success nor an execution in flight.
            if (!modelByKey.has(key)) {
              expectedExecutions += 1;
              modelByKey.set(key, { state: 'in-flight', fail: step.fail, id: expectedExecutions });
            }
            const outcome = store
              .run(step.scope, 'createTicket', { title: step.title }, () => {
                executions += 1;
                const id = executions;
                return new Promise<number>((resolve, reject) =>
                  pending.push({ key, fail: step.fail, id, resolve, reject }),
                );
              })
              .then(
                (value) => ({ key, ok: true, value }),
                () => ({ key, ok: false }),
              );
            outcomes.push(outcome);
            expect(executions).toBe(expectedExecutions);
          } else if (pending.length > 0) {
            settle(pending.splice(step.pick % pending.length, 1)[0]);
          }
          await flush();
        }
        for (let execution = pending.shift(); execution !== undefined; execution = pending.shift()) {
          settle(execution);
          await flush();
        }

        function settle(execution: PendingExecution) {
          settledById.set(execution.id, { ok: !execution.fail });
          if (execution.fail) {
            failedExecutions += 1;
            modelByKey.delete(execution.key);
            execution.reject(new Error('failed'));
          } else {
            successfulKeys.add(execution.key);
            modelByKey.set(execution.key, { state: 'done' });
            execution.resolve(execution.id);
          }
        }

        expect(executions).toBe(expectedExecutions);
        expect(executions).toBe(successfulKeys.size + failedExecutions);
        expect(store.size).toBe(successfulKeys.size);
        // Every successful caller got the value of a successful execution of its own key.
        for (const { ok, value } of await Promise.all(outcomes)) {
          if (ok) expect(settledById.get(value ?? -1)?.ok).toBe(true);
        }
      }),
      { numRuns: 300, seed: 20261130 },
    );
  });
});
