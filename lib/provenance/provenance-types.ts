/** Whether a tool's output may steer a write: the app's own rows are `trusted`, an outsider's text is not. */
export type ToolTrust = 'trusted' | 'untrusted';

/** One place an input value was found: the user's own text, an earlier tool output, or neither. */
export type ValueSource =
  | { source: 'user' }
  | { source: 'tool'; tool: string; toolCallId: string; trusted: boolean }
  | { source: 'model' };

/** An untrusted output read earlier in the same turn as a write call. */
export type ContextSource = { tool: string; toolCallId: string };

/**
 * Where the values of one write call came from: the sources of each input path (dotted when
 * nested), the paths an untrusted output supplied and the user did not type, and the untrusted
 * outputs read earlier in the turn. Names and ids only, never a value.
 */
export type CallProvenance = {
  tainted: string[];
  provenance: Record<string, ValueSource[]>;
  context?: ContextSource[];
};

/** True when a person must see the call: a tainted path, or an untrusted read earlier in the turn. */
export function isTainted(provenance: CallProvenance | undefined): boolean {
  return provenance !== undefined && (provenance.tainted.length > 0 || (provenance.context?.length ?? 0) > 0);
}

/** The value at a dotted path of an input (own properties only), or undefined. */
function valueAt(input: unknown, path: string): unknown {
  if (path === '$') return input;
  let node: unknown = input;
  for (const key of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * The provenance of an input a person edited: a value they changed is theirs (`user`, not
 * tainted); the others keep their sources. The turn's context stays what it was.
 */
export function provenanceAfterEdit(
  provenance: CallProvenance,
  input: unknown,
  editedInput: unknown,
): CallProvenance {
  const changed = (path: string) => valueAt(input, path) !== valueAt(editedInput, path);
  const sources = Object.fromEntries(
    Object.entries(provenance.provenance).map(([path, list]) => [
      path,
      changed(path) ? [{ source: 'user' as const }] : list,
    ]),
  );
  return { ...provenance, tainted: provenance.tainted.filter((path) => !changed(path)), provenance: sources };
}
