import {
  type ApprovalRequestEvent,
  createMemoryApprovalRegistry,
  hardenTools,
  type NewAuditRow,
} from '@toolgate/engine';
import { isToolDenial } from '@toolgate/engine/client';
import { tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call } from '../support/call-tool';

function table() {
  const sent: string[] = [];
  const tools = {
    findCustomer: tool({
      inputSchema: z.object({ name: z.string() }),
      execute: async ({ name }) => ({ customerId: `cus_${name}` }),
    }),
    sendInvoice: tool({
      inputSchema: z.object({ customerId: z.string() }),
      execute: async ({ customerId }) => {
        sent.push(customerId);
        return { invoice: `inv_${sent.length}` };
      },
    }),
  };
  return { tools, sent };
}

describe('hardenTools', () => {
  it('holds a confirm tool until a person allows it, runs a write once per chat and input, and audits every call', async () => {
    const { tools, sent } = table();
    const approvals = createMemoryApprovalRegistry();
    const requests: ApprovalRequestEvent[] = [];
    const rows: NewAuditRow[] = [];
    const hardened = hardenTools(tools, {
      chatId: 'chat-1',
      confirmTools: ['sendInvoice'],
      writeTools: ['sendInvoice'],
      approvals,
      onApprovalRequest: (request) => {
        requests.push(request);
        queueMicrotask(() => approvals.resolve(request.approvalId, 'chat-1', true));
      },
      audit: (row) => rows.push(row),
    });

    await call(hardened.findCustomer, { name: 'ada' }, 'call-1');
    const first = await call(hardened.sendInvoice, { customerId: 'cus_ada' }, 'call-2');
    const again = await call(hardened.sendInvoice, { customerId: 'cus_ada' }, 'call-3');

    expect(sent).toEqual(['cus_ada']);
    expect(again).toEqual(first);
    expect(requests.map((request) => request.toolName)).toEqual(['sendInvoice', 'sendInvoice']);
    expect(rows.map((row) => [row.toolName, row.outcome, row.chatId, row.worker])).toEqual([
      ['findCustomer', 'executed', 'chat-1', 'agent'],
      ['sendInvoice', 'executed', 'chat-1', 'agent'],
      ['sendInvoice', 'replayed', 'chat-1', 'agent'],
    ]);
  });

  it('answers a denied call with a denial the model reads, and the write never runs', async () => {
    const { tools, sent } = table();
    const approvals = createMemoryApprovalRegistry();
    const rows: NewAuditRow[] = [];
    const hardened = hardenTools(tools, {
      chatId: 'chat-1',
      confirmTools: ['sendInvoice'],
      writeTools: ['sendInvoice'],
      approvals,
      onApprovalRequest: (request) => {
        queueMicrotask(() => approvals.resolve(request.approvalId, 'chat-1', false));
      },
      audit: (row) => rows.push(row),
    });

    const output = await call(hardened.sendInvoice, { customerId: 'cus_ada' }, 'call-1');

    expect(isToolDenial(output) && output.reason).toBe('denied');
    expect(sent).toEqual([]);
    expect(rows.map((row) => row.outcome)).toEqual(['denied']);
  });

  it('leaves a tool outside confirmTools and writeTools to run every time, unasked', async () => {
    const { tools, sent } = table();
    const hardened = hardenTools(tools, {
      chatId: 'chat-1',
      onApprovalRequest: () => {
        throw new Error('nobody should be asked');
      },
    });

    await call(hardened.sendInvoice, { customerId: 'cus_ada' }, 'call-1');
    await call(hardened.sendInvoice, { customerId: 'cus_ada' }, 'call-2');

    expect(sent).toEqual(['cus_ada', 'cus_ada']);
  });
});
