import { getChatModel } from '@/lib/ai/models';
import { getConfig } from '@/lib/config';
import { toolNamesByWorker, workerNames } from '@/lib/tools';

export const dynamic = 'force-dynamic';

/** What the page shows about this server: the model answering, the workers and their tools, approvals. */
export function GET() {
  const config = getConfig();
  return Response.json({
    model: getChatModel(config).label,
    workers: workerNames.map((name) => ({ name, tools: [...toolNamesByWorker[name]] })),
    confirmTools: [...config.AGENT_CONFIRM_TOOLS],
    confirmTimeoutMs: config.AGENT_CONFIRM_TIMEOUT_MS,
  });
}
