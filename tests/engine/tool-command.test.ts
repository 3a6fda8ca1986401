import { describe, expect, it } from 'vitest';
import { parseToolCommand } from '@/lib/ai/tool-command';

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
});
