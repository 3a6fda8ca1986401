/**
 * A plain AI SDK program, not the chat product, whose two tools are hardened with
 * `@toolgate/engine`: the invoice waits for a person's decision, runs once however often
 * the model sends it, and every call leaves an audit line. The model is a scripted mock,
 * so it runs offline.
 *
 *   npm run examples:ai-sdk-app
 */
import { createMemoryApprovalRegistry, hardenTools } from '@toolgate/engine';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

// The app's own tools: a read, and a write with an effect outside the program.
const invoicesSent: string[] = [];
const tools = {
  findCustomer: tool({
    description: 'Finds a customer by name.',
    inputSchema: z.object({ name: z.string() }),
    execute: async ({ name }) => ({
      customerId: `cus_${name.toLowerCase()}`,
      email: `${name.toLowerCase()}@example.com`,
    }),
  }),
  sendInvoice: tool({
    description: 'Emails an invoice to a customer.',
    inputSchema: z.object({ customerId: z.string(), amountCents: z.number().int().positive() }),
    execute: async ({ customerId, amountCents }) => {
      invoicesSent.push(`${customerId} ${amountCents}`);
      return { sent: true, invoice: `inv_${invoicesSent.length}` };
    },
  }),
};

// Hardening: approvals wait in a registry a person's decision reaches; a write runs once per chat and input.
const chatId = 'chat-1';
const approvals = createMemoryApprovalRegistry();
const hardened = hardenTools(tools, {
  chatId,
  confirmTools: ['sendInvoice'],
  writeTools: ['sendInvoice'],
  approvals,
  onApprovalRequest: (request) => {
    console.log(`approval asked: ${request.toolName} ${JSON.stringify(request.input)}`);
    // A person allows it a moment later (in an app: a button that calls approvals.resolve).
    setTimeout(() => approvals.resolve(request.approvalId, chatId, true), 50);
  },
  audit: (row) => console.log(`audit: ${row.toolName} ${row.outcome} args ${row.argsHash.slice(0, 12)}`),
});

// The model looks the customer up, sends the invoice, then (a retry) sends the same invoice again.
const script = [
  { toolName: 'findCustomer', input: { name: 'Ada' } },
  { toolName: 'sendInvoice', input: { customerId: 'cus_ada', amountCents: 4200 } },
  { toolName: 'sendInvoice', input: { customerId: 'cus_ada', amountCents: 4200 } },
];
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
let step = 0;
const model = new MockLanguageModelV4({
  doGenerate: async () => {
    const call = script[step];
    step += 1;
    return call === undefined
      ? {
          content: [{ type: 'text', text: 'Invoice sent.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        }
      : {
          content: [
            {
              type: 'tool-call',
              toolCallId: `call-${step}`,
              toolName: call.toolName,
              input: JSON.stringify(call.input),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
  },
});

const result = await generateText({
  model,
  tools: hardened,
  prompt: 'Invoice Ada 42 euros.',
  stopWhen: stepCountIs(6),
});
console.log(`model: ${result.text}`);
console.log(`invoices actually sent: ${invoicesSent.length}`);
if (invoicesSent.length !== 1) process.exit(1);
