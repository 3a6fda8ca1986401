import type { UIMessage } from 'ai';
import { type InputLeaf, inputLeaves } from './input-leaves';
import { normalizeText } from './normalize-text';
import type { CallProvenance, ContextSource, ToolTrust, ValueSource } from './provenance-types';

/** The most characters of one output or file that are compared; the rest is cut. */
const maxCharsPerOutput = 32_000;
/**
 * The most characters of user text and of outputs a chat keeps for comparing, each: the most
 * recent ones. This bounds the work of one write call whatever the chat's length.
 */
const maxLedgerChars = 4_000_000;
/** The most sources one input path lists. */
const maxSourcesPerPath = 8;
/** Keeps a value that spans two outputs from matching: normalized values never hold it. */
const separator = '\n\u0000\n';

/** Says whether a tool's output is trusted, by its name (built-in facts, an MCP server's config). */
export type TrustOf = (toolName: string) => ToolTrust;

/** One earlier output (or attached file) as the ledger compares it. */
type OutputEntry = { tool: string; toolCallId: string; trusted: boolean; start: number; end: number };

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
    if (length > maxCharsPerOutput || depth > 16) return;
    if (typeof node === 'string' || typeof node === 'number') {
      const line = normalizeText(String(node).slice(0, maxCharsPerOutput));
      lines.push(line);
      length += line.length + 1;
    } else if (typeof node === 'object' && node !== null) {
      for (const child of Object.values(node)) visit(child, depth + 1);
    }
  };
  visit(value, 0);
  return lines.join('\n').slice(0, maxCharsPerOutput);
}

/** The text of an attached file given inline (`data:` URL, a text type); '' for anything else. */
function fileText(part: { mediaType?: unknown; url?: unknown }): string {
  const url = typeof part.url === 'string' ? part.url : '';
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma === -1) return '';
  const header = url.slice(5, comma);
  const mediaType = typeof part.mediaType === 'string' ? part.mediaType : header.split(';')[0];
  if (!/^(text\/|application\/(json|xml))/i.test(mediaType ?? '')) return '';
  const body = url.slice(comma + 1, comma + 1 + maxCharsPerOutput * 2);
  try {
    const decoded = header.includes(';base64')
      ? Buffer.from(body, 'base64').toString('utf8')
      : decodeURIComponent(body);
    return normalizeText(decoded.slice(0, maxCharsPerOutput));
  } catch {
    return '';
  }
}

/** The next place `leaf` occurs in `text` from `from` (a number stands alone), or -1. */
function indexOfLeaf(leaf: InputLeaf, text: string, from: number): number {
  let at = text.indexOf(leaf.value, from);
  if (leaf.kind === 'text') return at;
  while (at !== -1) {
    const before = text.charCodeAt(at - 1);
    const next = text.slice(at + leaf.value.length, at + leaf.value.length + 24);
    // "250" stands alone in "250", "250.00" and "250." but not in "2500", "A1250" or "250.5".
    if (!(before >= 48 && before <= 57) && !/^(?:\d|\.0*[1-9])/.test(next)) return at;
    at = text.indexOf(leaf.value, at + 1);
  }
  return -1;
}

/**
 * What a chat said so far, for tracing the values of its write calls: the user's own text,
 * and every earlier tool output (and attached file) with its tool, call id and trust. Built
 * on the server from the saved history; a turn adds the outputs of its calls as they come
 * (`addOutput`). Everything after the last user message is "this turn".
 */
export class ProvenanceLedger {
  private userText = '';
  private outputText = '';
  private readonly outputs: OutputEntry[] = [];
  /** Untrusted outputs and files read since the last user message. */
  private turnUntrusted: ContextSource[] = [];
  /** What was added but not yet read in: a turn without a write call never pays for it. */
  private pending: (() => void)[] = [];

  constructor(private readonly trustOf: TrustOf) {}

  /**
   * The ledger of a saved history (the new user message last, or the assistant message a
   * continuation resumes). It is read in on the first `assess`, not before.
   */
  static fromHistory(history: readonly UIMessage[], trustOf: TrustOf): ProvenanceLedger {
    const ledger = new ProvenanceLedger(trustOf);
    ledger.pending.push(() => {
      for (const message of history) ledger.readMessage(message);
    });
    return ledger;
  }

  private catchUp(): void {
    const pending = this.pending;
    this.pending = [];
    for (const step of pending) step();
  }

  /** Adds one saved message: a user's text and files, or an assistant's tool outputs. */
  private readMessage(message: UIMessage): void {
    if (message.role === 'user') {
      this.turnUntrusted = [];
      for (const [index, part] of message.parts.entries()) {
        if (part.type === 'text') this.userText = this.bounded(this.userText, normalizeText(part.text));
        // A file the user attaches was written by someone else: untrusted content.
        if (part.type === 'file') {
          const name =
            typeof part.filename === 'string' && part.filename !== '' ? part.filename : 'attachment';
          this.addOutput({
            tool: `file:${name}`,
            toolCallId: `${message.id}:${index}`,
            trusted: false,
            text: fileText(part),
          });
        }
      }
      return;
    }
    if (message.role !== 'assistant') return;
    for (const part of message.parts) {
      if (!('toolCallId' in part) || part.state !== 'output-available') continue;
      const tool = toolNameOf(part);
      const trust = savedTrustOf(part) ?? this.trustOf(tool);
      this.addOutput({
        tool,
        toolCallId: part.toolCallId,
        trusted: trust === 'trusted',
        text: textOf(part.output),
      });
    }
  }

  /** Adds the output of a call of this turn, as the model will read it (its trust as of now). */
  addToolOutput(tool: string, toolCallId: string, output: unknown): void {
    const trusted = this.trustOf(tool) === 'trusted';
    this.pending.push(() => this.addOutput({ tool, toolCallId, trusted, text: textOf(output) }));
  }

  private addOutput({
    tool,
    toolCallId,
    trusted,
    text,
  }: Omit<OutputEntry, 'start' | 'end'> & { text: string }) {
    if (!trusted) this.turnUntrusted.push({ tool, toolCallId });
    if (text === '') return;
    if (this.outputText.length + text.length > maxLedgerChars) this.dropOldestOutputs(text.length);
    const start = this.outputText.length === 0 ? 0 : this.outputText.length + separator.length;
    this.outputText = this.outputText.length === 0 ? text : this.outputText + separator + text;
    this.outputs.push({ tool, toolCallId, trusted, start, end: start + text.length });
  }

  /** Drops the oldest outputs until `room` more characters fit. */
  private dropOldestOutputs(room: number): void {
    let cut = 0;
    while (this.outputs.length > 0 && this.outputText.length - cut + room > maxLedgerChars) {
      cut = (this.outputs.shift() as OutputEntry).end + separator.length;
    }
    this.outputText = this.outputText.slice(Math.min(cut, this.outputText.length));
    for (const entry of this.outputs) {
      entry.start -= cut;
      entry.end -= cut;
    }
  }

  private bounded(text: string, added: string): string {
    const joined = text === '' ? added : text + separator + added;
    return joined.length > maxLedgerChars ? joined.slice(joined.length - maxLedgerChars) : joined;
  }

  /** The output that holds position `at` of the output text (binary search). */
  private outputAt(at: number): OutputEntry | undefined {
    let low = 0;
    let high = this.outputs.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const entry = this.outputs[middle] as OutputEntry;
      if (at < entry.start) high = middle - 1;
      else if (at >= entry.end) low = middle + 1;
      else return entry;
    }
    return undefined;
  }

  /**
   * Where each value of a write call's input came from. A path is tainted when an untrusted
   * output is among its sources and the user's own text is not; the call's `context` lists
   * the untrusted outputs read earlier in this turn.
   */
  assess(input: unknown): CallProvenance {
    this.catchUp();
    const provenance: Record<string, ValueSource[]> = {};
    const tainted: string[] = [];
    for (const leaf of inputLeaves(input)) {
      const sources: ValueSource[] = [];
      const byUser = indexOfLeaf(leaf, this.userText, 0) !== -1;
      if (byUser) sources.push({ source: 'user' });
      let untrusted = false;
      let at = indexOfLeaf(leaf, this.outputText, 0);
      while (at !== -1 && sources.length < maxSourcesPerPath) {
        const entry = this.outputAt(at);
        if (entry === undefined) break;
        sources.push({
          source: 'tool',
          tool: entry.tool,
          toolCallId: entry.toolCallId,
          trusted: entry.trusted,
        });
        if (!entry.trusted) untrusted = true;
        at = indexOfLeaf(leaf, this.outputText, entry.end);
      }
      if (sources.length === 0) sources.push({ source: 'model' });
      const key = leaf.path === '' ? '$' : leaf.path;
      provenance[key] = sources;
      if (untrusted && !byUser) tainted.push(key);
    }
    const context = dedupe(this.turnUntrusted);
    return { tainted, provenance, ...(context.length > 0 && { context }) };
  }
}

function dedupe(sources: readonly ContextSource[]): ContextSource[] {
  const seen = new Set<string>();
  return sources.filter(({ toolCallId }) => !seen.has(toolCallId) && seen.add(toolCallId) !== undefined);
}
