import { describe, expect, it } from 'vitest';
import { parseToolCommand, readToolCommand } from '@/lib/ai/tool-command';
import { maxJsonDepth } from '@/lib/http/json-depth';

/** A `/tool` command whose input is `depth` arrays, one inside the other. */
const nestedCommand = (depth: number) => `/tool createTicket ${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('parseToolCommand', () => {
  it('reads the tool name and its JSON input', () => {
    expect(parseToolCommand('/tool notes__delete_note {"id":"n1"}')).toEqual({
      toolName: 'notes__delete_note',
      input: { id: 'n1' },
    });
  });

  it('takes a missing input as an empty object', () => {
    expect(parseToolCommand('  /tool listTodos  ')).toEqual({ toolName: 'listTodos', input: {} });
  });

  it('leaves a message with malformed JSON or no command to the usual reading', () => {
    expect(parseToolCommand('/tool createTicket {title: x}')).toBeUndefined();
    expect(parseToolCommand('please /tool createTicket {}')).toBeUndefined();
    expect(parseToolCommand('create a ticket: printer broken')).toBeUndefined();
  });

  it('gives no command for an input nested deeper than a request body may be', () => {
    expect(parseToolCommand(nestedCommand(maxJsonDepth + 1))).toBeUndefined();
    expect(parseToolCommand(nestedCommand(maxJsonDepth))).toMatchObject({ toolName: 'createTicket' });
  });
});

describe('readToolCommand', () => {
  it('says why a command cannot run: not JSON, or nested too deep', () => {
    expect(readToolCommand('/tool createTicket {title: x}')).toEqual({ kind: 'malformed' });
    expect(readToolCommand('/tool')).toEqual({ kind: 'malformed' });
    expect(readToolCommand(nestedCommand(12_000))).toEqual({ kind: 'too-deep', limit: maxJsonDepth });
    expect(readToolCommand('hello')).toEqual({ kind: 'none' });
    expect(readToolCommand('/tool listTodos')).toEqual({
      kind: 'command',
      command: { toolName: 'listTodos', input: {} },
    });
  });
});
