import type { ToolSet } from 'ai';
import { isTainted } from '../provenance';
import { isAsyncIterable, wrapExecute } from './wrap-execute';
import { type ProvenanceCheck, toolDenial } from './wrap-tools-with-approval';

/**
 * Tells `record` each call's output as the model will read it (a streamed one by its last
 * value), so the turn's provenance ledger knows what the model has read before its next
 * call. The output reaches the model once `record` has settled (an untrusted read marks the
 * chat first); a failure to record fails the call rather than let it be read unmarked.
 * Observes only: the output passes through untouched, a thrown error is not an output.
 */
export function wrapToolsWithOutputRecording<TOOLS extends ToolSet>(
  table: TOOLS,
  record: (toolName: string, toolCallId: string, output: unknown) => void | Promise<void>,
): TOOLS {
  return wrapExecute(table, Object.keys(table), (execute, toolName) => (input, options) => {
    const result = execute(input, options);
    if (isAsyncIterable(result))
      return recordStream(result, (last) => record(toolName, options.toolCallId, last));
    return Promise.resolve(result).then(async (output) => {
      await record(toolName, options.toolCallId, output);
      return output;
    });
  });
}

async function* recordStream(
  stream: AsyncIterable<unknown>,
  onLast: (output: unknown) => void | Promise<void>,
) {
  let last: unknown;
  for await (const output of stream) {
    last = output;
    yield output;
  }
  await onLast(last);
}

/**
 * Where no person can be asked (the non-streaming endpoint), refuses every traced call whose
 * values an untrusted output supplied, as a policy refusal: failing closed, never running it unseen.
 */
export function wrapToolsRefusingTaint<TOOLS extends ToolSet>(table: TOOLS, check: ProvenanceCheck): TOOLS {
  return wrapExecute(table, check.tools, (execute, toolName) => async (input, options) => {
    const provenance = await check.assess(toolName, input);
    check.onAssessed?.(options.toolCallId, provenance);
    if (isTainted(provenance)) return toolDenial('policy', toolName);
    return execute(input, options);
  });
}
