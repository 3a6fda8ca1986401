import { getChatModel } from '@/lib/ai/models';
import { withSession } from '@/lib/auth/with-session';
import { getConfig } from '@/lib/config';
import { withUnavailableAs503 } from '@/lib/http/with-unavailable-as-503';
import { listWorkers, readOnlyToolNames } from '@/lib/mcp/list-workers';
import { confirmToolNamesOf } from '@/lib/tools';
import { fieldLabelsByTool } from '@/lib/tools/tool-field-labels';
import { toolInputJsonSchemas } from '@/lib/tools/tool-input-json-schemas';

export const dynamic = 'force-dynamic';

/**
 * What the page shows about this server: the model answering, the workers and their tools,
 * which tools only read (their calls fold to one line), approvals, and each built-in tool's input as JSON Schema with its fields' labels in en / zh
 * (the approval card's edit form).
 */
export const GET = withUnavailableAs503(
  withSession(async () => {
    const config = getConfig();
    const workers = await listWorkers();
    return Response.json({
      model: getChatModel(config).label,
      workers,
      readOnlyTools: readOnlyToolNames(workers),
      confirmTools: [...confirmToolNamesOf(config.AGENT_CONFIRM_TOOLS)],
      confirmTimeoutMs: config.AGENT_CONFIRM_TIMEOUT_MS,
      toolInputSchemas: toolInputJsonSchemas(),
      toolFieldLabels: fieldLabelsByTool,
    });
  }),
);
