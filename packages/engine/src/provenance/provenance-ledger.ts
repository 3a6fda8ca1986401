import type { UIMessage } from 'ai';
import { fileText } from './file-text';
import { traceInput } from './input-leaves';
import { normalizeText } from './normalize-text';
import type {
  CallProvenance,
  ChatMark,
  ContextSource,
  ToolTrust,
  UntrustedRead,
  ValueSource,
} from './provenance-types';
import { SourceIndex } from './source-index';

/** The most characters of one output, file or user message that are compared; the rest is cut. */
const maxCharsPerText = 32_000;
/**
 * The most characters of a chat's texts indexed per turn: the most recent ones. This bounds the
 * work of a turn whatever the chat's length.
 */
const maxIndexedChars = 4_000_000;
/** The most untrusted reads a call's `context` names: the most recent ones. */
const maxContextReads = 20;
/** How long the check works before it lets the server serve something else. */
const sliceMs = 8;

/** Says whether a tool's output is trusted, by its name (built-in facts, an MCP server's config). */
export type TrustOf = (toolName: string) => ToolTrust;

/** The saved trust label of a tool part (`toolMetadata.trust`), if the part carries one. */
export function savedTrustOf(part: { toolMetadata?: unknown }): ToolTrust | undefined {
  const trust = (part.toolMetadata as { trust?: unknown } | undefined)?.trust;
  return trust === 'trusted' || trust === 'untrusted' ? trust : undefined;
}

/** The name of a tool part's tool (static `tool-NAME` or dynamic). */
function toolNameOf(part: { type: string; toolName?: unknown }): string {
  return part.type === 'dynamic-tool' ? String(part.toolName) : part.type.slice('tool-'.length);
}

/** The strings and numbers of a JSON value, normalized, one per line (bounded). */
function textOf(value: unknown): string {
  const lines: string[] = [];
  let length = 0;
  const visit = (node: unknown, depth: number) => {
    if (length > maxCharsPerText || depth > 16) return;
    if (typeof node === 'string' || typeof node === 'number') {
      const line = normalizeText(String(node).slice(0, maxCharsPerText));
      lines.push(line);
      length += line.length + 1;
    } else if (typeof node === 'object' && node !== null) {
      for (const child of Object.values(node)) visit(child, depth + 1);
    }
  };
  visit(value, 0);
  return lines.join('\n').slice(0, maxCharsPerText);
}

/** Lets other work run (another user's request) once the check has worked for a slice. */
function createYielder(): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
}

type FilePart = Extract<UIMessage['parts'][number], { type: 'file' }>;

/**
 * What a chat said so far, for tracing the values of its write calls: the person's own text,
 * and every tool output and attached file with its tool, call id and trust. Built on the server
 * from the saved history, once per turn and only when a write call is traced: one pass over the
 * chat's texts into a word index (`SourceIndex`), in slices that leave the server free for
 * other requests. A turn adds the outputs of its calls as they come (`addToolOutput`).
 *
 * A chat that has read untrusted content (an output, a file) is marked until the person clears
 * it (`ChatMark`): in a marked chat a write whose values are not all the person's own follows
 * those reads (`context`), whatever turn it is in.
 */
export class ProvenanceLedger {
  private readonly index = new SourceIndex();
  /** Untrusted outputs and files read since the last user message. */
  private turnReads: UntrustedRead[] = [];
  /** The chat's reads not cleared, once known. */
  private chatReads: UntrustedRead[] = [];
  /** Outputs of this turn not yet indexed. */
  private pending: { tool: string; toolCallId: string; trusted: boolean; output: unknown }[] = [];
  private building: Promise<void> | undefined;

  private constructor(
    private readonly history: readonly UIMessage[],
    private readonly trustOf: TrustOf,
    private readonly mark: ChatMark | undefined,
  ) {}

  /**
   * The ledger of a saved history (the new user message last, or the assistant message a
   * continuation resumes). It is read in on the first `assess`, not before. With `mark`, the
   * chat's untrusted reads are kept in (and read from) the database.
   */
  static fromHistory(
    history: readonly UIMessage[],
    trustOf: TrustOf,
    { mark }: { mark?: ChatMark } = {},
  ): ProvenanceLedger {
    return new ProvenanceLedger(history, trustOf, mark);
  }

  /**
   * Whether anything in this turn could be tainted: the history holds an untrusted output or an
   * attached file, or the turn's table holds a tool whose output is untrusted. When not, the
   * model's whole prompt is the person's and the app's own, and the turn needs no ledger (a
   * quick pass over the parts, no text read).
   */
  static couldTaint(history: readonly UIMessage[], toolNames: Iterable<string>, trustOf: TrustOf): boolean {
    for (const name of toolNames) if (trustOf(name) !== 'trusted') return true;
    for (const message of history) {
      for (const part of message.parts) {
        if (part.type === 'file') return true;
        if (message.role !== 'assistant' || !('toolCallId' in part) || part.state !== 'output-available')
          continue;
        if ((savedTrustOf(part) ?? trustOf(toolNameOf(part))) !== 'trusted') return true;
      }
    }
    return false;
  }

  /** The untrusted reads of one user message: its attached files (each counts, read or not). */
  static async filesOf(message: UIMessage): Promise<{ read: UntrustedRead; text: string | undefined }[]> {
    const files: { read: UntrustedRead; text: string | undefined }[] = [];
    for (const [index, part] of message.parts.entries()) {
      if (part.type !== 'file') continue;
      const file = part as FilePart;
      const name = typeof file.filename === 'string' && file.filename !== '' ? file.filename : 'attachment';
      const text = fileText(file);
      files.push({
        read: {
          tool: `file:${name}`,
          toolCallId: `${message.id}:${index}`,
          ...(text === undefined && { unreadable: true as const }),
        },
        text,
      });
    }
    return files;
  }

  /**
   * Adds the output of a call of this turn, as the model will read it (its trust as of now).
   * An untrusted one marks the chat: the returned promise settles once that is kept.
   */
  addToolOutput(tool: string, toolCallId: string, output: unknown): Promise<void> {
    const trusted = this.trustOf(tool) === 'trusted';
    this.pending.push({ tool, toolCallId, trusted, output });
    if (trusted) return Promise.resolve();
    const read = { tool, toolCallId };
    this.turnReads.push(read);
    return this.mark?.record(read) ?? Promise.resolve();
  }

  /** Reads the saved history into the index, newest first, within the turn's budget. */
  private async build(): Promise<void> {
    const pause = createYielder();
    const lastUser = this.history.findLastIndex((message) => message.role === 'user');
    const found: UntrustedRead[] = [];
    const turnReads: UntrustedRead[] = [];
    for (let position = this.history.length - 1; position >= 0; position--) {
      const message = this.history[position] as UIMessage;
      const inTurn = position >= lastUser;
      const room = this.index.chars < maxIndexedChars;
      if (message.role === 'user') {
        const text = message.parts
          .flatMap((part) => (part.type === 'text' ? [part.text] : []))
          .join('\n')
          .slice(0, maxCharsPerText);
        if (room) this.index.add({ kind: 'user' }, normalizeText(text));
        // A file the user attaches was written by someone else: untrusted content.
        for (const { read, text: content } of await ProvenanceLedger.filesOf(message)) {
          found.push(read);
          if (inTurn) turnReads.push(read);
          if (room && content !== undefined) {
            this.index.add(
              { kind: 'tool', tool: read.tool, toolCallId: read.toolCallId, trusted: false },
              normalizeText(content.slice(0, maxCharsPerText)),
            );
          }
        }
      } else if (message.role === 'assistant') {
        for (const part of message.parts) {
          if (!('toolCallId' in part) || part.state !== 'output-available') continue;
          const tool = toolNameOf(part);
          const trusted = (savedTrustOf(part) ?? this.trustOf(tool)) === 'trusted';
          if (!trusted) {
            found.push({ tool, toolCallId: part.toolCallId });
            if (inTurn) turnReads.push({ tool, toolCallId: part.toolCallId });
          }
          if (room)
            this.index.add({ kind: 'tool', tool, toolCallId: part.toolCallId, trusted }, textOf(part.output));
        }
      }
      await pause();
    }
    this.turnReads = [...turnReads, ...this.turnReads];
    this.chatReads = this.mark === undefined ? found : await this.mark.reads(found);
  }

  /** Indexes this turn's outputs added since the last call. */
  private catchUp(): void {
    const pending = this.pending;
    this.pending = [];
    for (const { tool, toolCallId, trusted, output } of pending) {
      this.index.add({ kind: 'tool', tool, toolCallId, trusted }, textOf(output));
    }
  }

  /**
   * Where each value of a write call's input came from. A path is tainted when an untrusted
   * output is among its sources and the user's own text is not. The call follows (`context`)
   * the untrusted reads of this turn, and in a marked chat every read not cleared when any of
   * its values is not the person's own. An input past the tracing limits is `untraced`.
   */
  async assess(input: unknown): Promise<CallProvenance> {
    this.building ??= this.build();
    await this.building;
    this.catchUp();
    const pause = createYielder();
    const { leaves, beyondLimits } = traceInput(input);
    const provenance: Record<string, ValueSource[]> = {};
    const tainted: string[] = [];
    let allTyped = !beyondLimits;
    for (const leaf of leaves) {
      const { byUser, outputs } = this.index.find(leaf);
      const sources: ValueSource[] = [
        ...(byUser ? [{ source: 'user' as const }] : []),
        ...outputs.map(({ tool, toolCallId, trusted }) => ({
          source: 'tool' as const,
          tool,
          toolCallId,
          trusted,
        })),
      ];
      if (sources.length === 0) sources.push({ source: 'model' });
      const key = leaf.path === '' ? '$' : leaf.path;
      provenance[key] = sources;
      if (!byUser) allTyped = false;
      if (!byUser && outputs.some((output) => !output.trusted)) tainted.push(key);
      await pause();
    }
    const context = dedupe([...this.turnReads, ...(allTyped ? [] : this.chatReads)]).slice(
      0,
      maxContextReads,
    );
    return {
      tainted,
      provenance,
      ...(context.length > 0 && { context }),
      ...(beyondLimits && { untraced: true as const }),
    };
  }
}

function dedupe(sources: readonly UntrustedRead[]): ContextSource[] {
  const seen = new Set<string>();
  const unique: ContextSource[] = [];
  for (const { tool, toolCallId } of sources) {
    if (seen.has(toolCallId)) continue;
    seen.add(toolCallId);
    unique.push({ tool, toolCallId });
  }
  return unique;
}
