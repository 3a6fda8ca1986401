import { getChatModel } from '@/lib/ai/models';
import { getConfig } from '@/lib/config';
import { listWorkers } from '@/lib/mcp/list-workers';

export const dynamic = 'force-dynamic';

/** What the page shows about this server: the model answering, the workers and their tools, approvals. */
export async function GET() {
  const config = getConfig();
  return Response.json({
    model: getChatModel(config).label,
    workers: await listWorkers(),
    confirmTools: [...config.AGENT_CONFIRM_TOOLS],
    confirmTimeoutMs: config.AGENT_CONFIRM_TIMEOUT_MS,
  });
}
