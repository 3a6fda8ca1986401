'use client';

import { type WorkerChoice, workerNames } from './api-types';
import { Badge } from './ui/badge';
import { NativeSelect, NativeSelectOption } from './ui/native-select';
import { useWorkspace } from './workspace-provider';

/**
 * Pins the worker for the next messages, or leaves the choice to the router.
 * Each option shows the worker's whole tool table, which is its whole capability.
 */
export function WorkerPicker() {
  const { t, worker, setWorker, meta } = useWorkspace();
  const toolsByWorker = new Map(meta?.workers.map((entry) => [entry.name, entry.tools]));
  // Meta may list workers the client does not know yet; show those too.
  const names = [...new Set([...workerNames, ...(meta?.workers.map((entry) => entry.name) ?? [])])];
  const mcpToolsByName = new Map(
    meta?.workers.flatMap((entry) => entry.mcpTools ?? []).map((tool) => [tool.name, tool]),
  );
  const isWorkerChoice = (value: string): value is WorkerChoice => value === 'auto' || names.includes(value);
  const label = (name: string) => t.workerNames[name] ?? name;
  const selectedTools = worker === 'auto' ? null : (toolsByWorker.get(worker) ?? []);

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <NativeSelect
        aria-label={t.worker}
        value={worker}
        onChange={(event) => {
          if (isWorkerChoice(event.target.value)) setWorker(event.target.value);
        }}
        className="h-8 text-xs"
      >
        <NativeSelectOption value="auto">{t.workerAuto}</NativeSelectOption>
        {names.map((name) => {
          const tools = toolsByWorker.get(name);
          return (
            <NativeSelectOption key={name} value={name}>
              {`${label(name)} (${name})${tools ? ` — ${tools.length > 0 ? tools.join(', ') : t.noTools}` : ''}`}
            </NativeSelectOption>
          );
        })}
      </NativeSelect>
      {selectedTools === null ? (
        <span className="text-xs text-muted-foreground">{t.workerAutoHint}</span>
      ) : (
        <ul aria-label={t.toolsOf(label(worker))} className="flex flex-wrap gap-1">
          {selectedTools.map((tool) => {
            const mcp = mcpToolsByName.get(tool);
            return (
              <li key={tool} className="flex items-center gap-1">
                <Badge variant="outline" className="font-mono" title={mcp?.description}>
                  {tool}
                </Badge>
                {mcp && (
                  <span className="text-xs text-muted-foreground">
                    {t.mcpServer(mcp.server)}: {mcp.description}
                    {!mcp.available && ` (${t.unavailable})`}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
