import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { currentClientAddress, runWithClientAddress } from '@/lib/http/request-address';
import { currentToolCall, telemetryScope } from '../../packages/engine/src/telemetry/telemetry-scope';
import { codeFiles, repositoryRoot } from '../support/source-files';

/*
 * Node copies every enabled AsyncLocalStorage onto every promise the process makes: the
 * server keeps one (the engine's shared/async-scope.ts), and each kind of value is a slot of it.
 */
describe('the server’s async-context store', () => {
  it('is the only AsyncLocalStorage the app makes', () => {
    const making = codeFiles()
      .filter((file) => /^(?:lib|app|components|packages)\//.test(file) || /^[^/]+\.tsx?$/.test(file))
      .filter((file) => /new AsyncLocalStorage\b/.test(readFileSync(join(repositoryRoot, file), 'utf8')));
    expect(making).toEqual(['packages/engine/src/shared/async-scope.ts']);
  });

  it('keeps each slot through the others’ scopes and across awaits, and sets none outside them', async () => {
    const call = { toolName: 'createTicket', toolCallId: 'call-1', executed: false, event: () => undefined };
    const headers = new Headers({ 'x-forwarded-for': '203.0.113.7' });
    expect(currentClientAddress()).toBeUndefined();
    await runWithClientAddress(headers, async () => {
      const address = currentClientAddress();
      expect(address).toBeDefined();
      await telemetryScope().run({ call }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        expect(currentToolCall()).toBe(call);
        expect(currentClientAddress()).toBe(address);
        // A new telemetry scope replaces the telemetry only.
        telemetryScope().run({}, () => {
          expect(currentToolCall()).toBeUndefined();
          expect(currentClientAddress()).toBe(address);
        });
      });
      expect(currentToolCall()).toBeUndefined();
      expect(currentClientAddress()).toBe(address);
    });
    expect(currentClientAddress()).toBeUndefined();
    expect(currentToolCall()).toBeUndefined();
  });
});
