import type { UIMessage } from 'ai';
import type { WorkerName } from '@/lib/tools/worker-names';

/**
 * Shapes of the JSON the page reads from the app's own routes. Written here, not
 * imported from the server, so nothing server-only can leak into the browser bundle.
 */

/** The worker names the picker offers besides `auto` (a module with no imports, safe for the browser). */
export { workerNames } from '@/lib/tools/worker-names';

/** A worker choice sent with each request; `auto` lets the router pick. MCP servers may add workers. */
export type WorkerChoice = 'auto' | WorkerName | (string & {});

/** What the server tells about itself: `GET /api/meta`. */
export type Meta = {
  model: string;
  workers: {
    name: string;
    tools: string[];
    /** The worker's MCP tools: which server serves each, what it does, and whether it answers now. */
    mcpTools?: {
      name: string;
      server: string;
      description: string;
      available: boolean;
      readOnly?: boolean;
    }[];
  }[];
  /** The tools that only read (built-in reads, MCP tools marked read-only): their calls fold to one line. */
  readOnlyTools?: string[];
  confirmTools: string[];
  confirmTimeoutMs: number;
  /** Each built-in tool's input as JSON Schema, for the approval card's edit form. */
  toolInputSchemas?: Record<string, JsonSchema>;
  /** Each built-in tool's field labels by field name, in every UI language (the form's labels). */
  toolFieldLabels?: Record<string, Record<string, Record<'en' | 'zh', string>>>;
};

/** The part of JSON Schema the edit form reads. */
export type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};

/** One row of `GET /api/tickets`. */
export type Ticket = {
  ticketId: string;
  title: string;
  detail?: string | null;
  orderId?: string | null;
  status: 'open' | 'closed' | 'cancelled';
  createdAt: string | number;
};

/** One row of `GET /api/todos`. */
export type Todo = {
  id: string | number;
  title: string;
  status: 'open' | 'done';
  createdAt: string | number;
};

/** One row of `GET /api/chats`. */
/** Who is signed in, as the page shows it (from the server's session, never the client). */
export type AccountSummary = {
  email: string;
  isAnonymous: boolean;
  isAdmin: boolean;
  /** Holds a role a policy step may ask for: the sidebar offers the approvers' inbox. */
  isApprover?: boolean;
};

export type ChatSummary = {
  id: string;
  title: string | null;
  worker?: string | null;
  updatedAt: string | number;
};

/** What the server attaches to each assistant message: the worker that answered and the model label. */
export type ToolgateMetadata = { worker?: string; model?: string };

/** A chat message as this app sends and receives it. */
export type ToolgateMessage = UIMessage<ToolgateMetadata>;

/** The result of deciding an approval (the server action's contract). */
export type ApprovalDecision =
  | { status: 'approved' | 'denied' | 'waiting' }
  | { error: string; fieldErrors?: Record<string, string[]> };

/** The server action the approval card calls; passed down from a server component. */
export type ApproveToolCall = (input: {
  approvalId: string;
  chatId: string;
  approved: boolean;
  /** The whole input, edited by the person (allow only). */
  input?: Record<string, unknown>;
  /** Allow this tool for the rest of the chat, or make a narrow, expiring standing grant. */
  remember?: 'chat' | GrantRequest;
  /** Why not (deny only). */
  reason?: string;
  /** The view's digest of the input the person saw (for an edit: the input the form started from). */
  inputDigest?: string;
}) => Promise<ApprovalDecision>;

/** `GET /api/chats/:id/approval-rules`. */
export type ApprovalRules = { rules: { toolName: string; createdAt: string }[] };

/** A condition on one input field, as a grant's `when` holds it. */
export type GrantCondition = Partial<Record<'eq' | 'lte', string | number | boolean>>;

/** A standing grant asked for with an allow: later calls like this one run without a card until `ttlMs` ends. */
export type GrantRequest = { scope: 'chat' | 'me'; ttlMs: number; when?: Record<string, GrantCondition> };

/** `GET /api/grants`: the caller's standing grants in force, newest first. */
export type StandingGrants = {
  grants: {
    id: string;
    toolName: string;
    scope: 'chat' | 'me';
    chatId?: string;
    when?: Record<string, Record<string, unknown>>;
    expiresAt: number;
    remainingMs: number;
  }[];
};

/** GETs JSON from one of the app's routes; rejects on a non-2xx answer so callers can show an error. */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, { cache: 'no-store', ...init });
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/** One step of an approval as `GET /api/approvals/:id` shows it. */
export type ApprovalStepView = {
  kind: 'requester' | 'role';
  role?: string;
  decision?: 'allow' | 'deny';
  decidedBy?: { name: string };
};

/** Where one input value was found (the user's text, an earlier tool output, or neither). */
export type ValueSourceView = {
  source: 'user' | 'tool' | 'model';
  tool?: string;
  toolCallId?: string;
  trusted?: boolean;
};

/** `GET /api/approvals/:id`: an approval as its requester and its approvers see it. */
export type ApprovalView = {
  approvalId: string;
  chatId: string;
  tool: string;
  summary?: Record<string, string>;
  input: unknown;
  /** Lowercase hex SHA-256 of `input`'s canonical JSON: sent back with a decision (409 `stale` once it changed). */
  inputDigest: string;
  /** The tool's preview of `input` in the reader's language, when the tool declares one. */
  preview?: { lines: { label: string; value: string }[]; warnings: string[] };
  /** Why the tool's preview was left out (it failed or took too long). */
  previewNote?: string;
  status: string;
  requester: { name: string };
  steps: ApprovalStepView[];
  rule?: string;
  /** Input paths an untrusted output supplied and the user did not type. */
  tainted?: string[];
  /** Each traced input path's sources. */
  provenance?: Record<string, ValueSourceView[]>;
  /** Untrusted outputs read earlier in the turn that proposed the call. */
  context?: { tool: string; toolCallId: string }[];
  expiresAt: number;
  remainingMs: number;
  viewer: { canAllow: boolean; canDeny: boolean; isRequester: boolean };
  /** In `GET /api/approvals` only: the user message that led to the call. */
  chatExcerpt?: string;
  /** In `GET /api/approvals/decided` only: what this person decided, and when. */
  myDecision?: 'allow' | 'deny';
  decidedAt?: string;
};
