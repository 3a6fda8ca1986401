/** Whether a tool's output may steer a write: the app's own rows are `trusted`, an outsider's text is not. */
export type ToolTrust = 'trusted' | 'untrusted';

/** One place an input value was found: the user's own text, an earlier tool output, or neither. */
export type ValueSource =
  | { source: 'user' }
  | { source: 'tool'; tool: string; toolCallId: string; trusted: boolean }
  | { source: 'model' };

/** An untrusted read a write call follows: in the same turn, or anywhere in a marked chat. */
export type ContextSource = { tool: string; toolCallId: string };

/** An untrusted read that marks its chat: a tool output, or an attached file (`unreadable` when its text could not be read). */
export type UntrustedRead = ContextSource & { unreadable?: true };

/**
 * Where a chat's mark is kept (the database): the untrusted reads it holds until the person
 * clears them on the page. Without one, every untrusted read the history holds marks it.
 */
export type ChatMark = {
  /** Keeps a read as it happens (before the model sees it). */
  record: (read: UntrustedRead) => Promise<void>;
  /** Keeps the reads found in the saved history, then answers the chat's reads not cleared, newest first. */
  reads: (found: readonly UntrustedRead[]) => Promise<UntrustedRead[]>;
};

/**
 * Where the values of one write call came from: the sources of each input path (dotted when
 * nested), the paths an untrusted output supplied and the user did not type, and the untrusted
 * reads the call follows (earlier in the turn; in a marked chat, any not cleared, when a value
 * is not the person's own). `untraced` when the input was past the tracing limits. Names and
 * ids only, never a value.
 */
export type CallProvenance = {
  tainted: string[];
  provenance: Record<string, ValueSource[]>;
  context?: ContextSource[];
  untraced?: true;
};

/** True when a person must see the call: a tainted path, an untrusted read it follows, or an input past the limits. */
export function isTainted(provenance: CallProvenance | undefined): boolean {
  return (
    provenance !== undefined &&
    (provenance.tainted.length > 0 || (provenance.context?.length ?? 0) > 0 || provenance.untraced === true)
  );
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
