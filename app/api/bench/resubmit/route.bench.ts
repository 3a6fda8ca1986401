import { convertToModelMessages, safeValidateUIMessages, stepCountIs, streamText } from 'ai';
import { z } from 'zod';
import { getChatModel } from '@/lib/ai/models';
import { withSession } from '@/lib/auth/with-session';
import { maxTurnSteps } from '@/lib/chat/turn-model-call';
import { workerInstructions } from '@/lib/chat/worker-instructions';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db';
import { describeZodError, jsonError, readJsonBody } from '@/lib/http/json';
import { createWorkerTools, defaultConfirmToolNames } from '@/lib/tools';

const bodySchema = z.object({ messages: z.array(z.unknown()).min(1).max(100) });

/**
 * Benchmark baseline for the approval resume: the AI SDK 7 stop-and-resubmit
 * flow, which Toolgate deliberately does not use. The refund worker's tools that
 * ask a person by default are marked `user-approval`, so the first request ends with a
 * `tool-approval-request`; the client then posts the whole history again with
 * the tool part in state `approval-responded`, and this second request executes
 * the tool and streams its output.
 *
 * Kept as lean as the flow allows (no routing, ownership check or persistence),
 * so the comparison favours the baseline. Mounted only in a bench
 * build (`app/api/bench/README.md`). Never for production: it trusts
 * the client's approval, which is exactly why the product does not do this.
 */
export const POST = withSession(async (request, user) => {
  const config = getConfig();
  const body = await readJsonBody(request);
  if (!body.ok) return body.response;
  const parsed = bodySchema.safeParse(body.value);
  if (!parsed.success) return jsonError(400, describeZodError(parsed.error));

  const tools = createWorkerTools('refund', await getDb(), { userId: user.id });
  const validated = await safeValidateUIMessages({ messages: parsed.data.messages, tools });
  if (!validated.success) return jsonError(400, `messages: ${validated.error.message}`);

  const result = streamText({
    model: getChatModel(config).model,
    system: workerInstructions('refund'),
    messages: await convertToModelMessages(validated.data, { tools }),
    tools,
    toolApproval: Object.fromEntries(defaultConfirmToolNames.map((name) => [name, 'user-approval' as const])),
    stopWhen: stepCountIs(maxTurnSteps),
    abortSignal: request.signal,
  });
  return result.toUIMessageStreamResponse({ originalMessages: validated.data });
});
