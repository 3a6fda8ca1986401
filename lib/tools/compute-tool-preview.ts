import type { ApprovalPreview } from '@toolgate/engine/stores';
import { type AppConfig, testFault } from '@/lib/config';
import type { Db } from '@/lib/db/engine';
import { toolRegistry } from './registry';
import type { ToolContext } from './tool-context';

/** How long a preview may take before the card is shown without it. */
export const previewTimeoutMs = 1000;

/**
 * The preview of one call of `toolName` (its validated input, the user and chat of the
 * turn), or undefined when the tool declares none. Never throws and never waits longer
 * than `timeoutMs`: a preview that fails or is slow comes back `unavailable`, so the card
 * is shown, and the call waits, exactly as without one.
 */
export async function computeToolPreview(
  db: Db,
  { toolName, input, context }: { toolName: string; input: unknown; context: ToolContext },
  {
    timeoutMs = previewTimeoutMs,
    fault = previewFaultOf(),
  }: {
    timeoutMs?: number;
    /** Test-only (`TOOLGATE_FAULT`, read through `testFault`): the tool's preview hangs or throws instead. */
    fault?: 'slow-preview' | 'failing-preview';
  } = {},
): Promise<ApprovalPreview | undefined> {
  const descriptor = toolRegistry.find((candidate) => candidate.name === toolName);
  const declared = descriptor?.preview as
    | ((db: Db, input: unknown, context: ToolContext) => Promise<ApprovalPreview>)
    | undefined;
  if (declared === undefined) return undefined;
  const preview = fault === undefined ? declared : faultyPreview(fault, timeoutMs);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<ApprovalPreview>((resolve) => {
    timer = setTimeout(() => resolve({ lines: [], warnings: [], unavailable: 'timeout' }), timeoutMs);
  });
  try {
    const computed = Promise.resolve()
      .then(() => preview(db, input, context))
      .catch((): ApprovalPreview => ({ lines: [], warnings: [], unavailable: 'error' }));
    return await Promise.race([computed, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function faultyPreview(fault: 'slow-preview' | 'failing-preview', timeoutMs: number) {
  return (): Promise<ApprovalPreview> =>
    fault === 'failing-preview'
      ? Promise.reject(new Error('TOOLGATE_FAULT=failing-preview'))
      : new Promise((resolve) => setTimeout(() => resolve({ lines: [], warnings: [] }), timeoutMs * 10));
}

/** The test-only preview fault `TOOLGATE_FAULT` asks for, if any (honoured only with `TOOLGATE_TESTING=1`). */
export function previewFaultOf(
  config?: Pick<AppConfig, 'TOOLGATE_TESTING' | 'TOOLGATE_FAULT'>,
): 'slow-preview' | 'failing-preview' | undefined {
  const fault = testFault(config);
  return fault === 'slow-preview' || fault === 'failing-preview' ? fault : undefined;
}
