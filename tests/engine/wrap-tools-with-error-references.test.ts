import { wrapToolsWithErrorReferences } from '@toolgate/engine';
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PublicError } from '../../packages/engine/src/errors/public-error';

const options = { toolCallId: 'call-1', messages: [], context: {} };

/** A report function that remembers what it was given and hands out fixed references. */
function recordingReport() {
  const reported: { error: unknown; context: string }[] = [];
  const report = (error: unknown, context: string) => {
    reported.push({ error, context });
    return `ERR-00000${reported.length}`;
  };
  return { reported, report };
}

function table(execute: (input: { title: string }) => unknown) {
  return {
    createTicket: tool({
      description: 'Create a support ticket.',
      inputSchema: z.object({ title: z.string() }),
      execute: execute as (input: { title: string }) => Promise<unknown>,
    }),
  };
}

describe('wrapToolsWithErrorReferences', () => {
  it('replaces a thrown error with the tool name and a reference id, and reports the original under it', async () => {
    const { reported, report } = recordingReport();
    const internal = new Error('SQLITE_BUSY: database is locked at /srv/toolgate/.data/toolgate.db');
    const wrapped = wrapToolsWithErrorReferences(
      table(async () => {
        throw internal;
      }),
      { report },
    );
    const failure = await Promise.resolve(wrapped.createTicket.execute?.({ title: 'x' }, options)).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PublicError);
    expect((failure as Error).message).toBe(
      'createTicket failed (reference ERR-000001); the details are in the server log.',
    );
    expect(reported).toEqual([{ error: internal, context: 'tool createTicket failed' }]);
  });

  it('covers an execute that throws before returning a promise', async () => {
    const { report } = recordingReport();
    const wrapped = wrapToolsWithErrorReferences(
      table(() => {
        throw new Error('connect ECONNREFUSED 10.0.0.7:6379');
      }),
      { report },
    );
    expect(() => wrapped.createTicket.execute?.({ title: 'x' }, options)).toThrow(/reference ERR-000001/);
  });

  it('covers an error in the middle of a streamed output', async () => {
    const { report } = recordingReport();
    const wrapped = wrapToolsWithErrorReferences(
      table(async function* () {
        yield { progress: 1 };
        throw new Error('upstream said: token sk-live-123 expired');
      }),
      { report },
    );
    const seen: unknown[] = [];
    const stream = wrapped.createTicket.execute?.({ title: 'x' }, options) as AsyncIterable<unknown>;
    await expect(
      (async () => {
        for await (const value of stream) seen.push(value);
      })(),
    ).rejects.toThrow('createTicket failed (reference ERR-000001); the details are in the server log.');
    expect(seen).toEqual([{ progress: 1 }]);
  });

  it('passes results through untouched and reports nothing', async () => {
    const { reported, report } = recordingReport();
    const result = { ticketId: 'TK-000001', title: 'x', status: 'open' };
    const wrapped = wrapToolsWithErrorReferences(
      table(async () => result),
      { report },
    );
    expect(await wrapped.createTicket.execute?.({ title: 'x' }, options)).toBe(result);
    expect(reported).toEqual([]);
  });
});
