import type { UIMessage } from 'ai';
import type {
  ApprovalDecisionAnswer,
  DecidedApproval,
  ListedApproval,
  ApprovalView as ServerApprovalView,
} from '@/lib/approvals/surfaces/approval-wire-types';
import type { WorkerName } from '@/lib/tools/worker-names';

/**
 * Shapes of the JSON the page reads from the app's own routes. The approvals' are the
 * server's own (lib/approvals/surfaces/approval-wire-types.ts, a types-only module: nothing
 * server-only can leak into the browser bundle); the rest are written here.
 */

export type { ApprovalStepView, ValueSourceView } from '@/lib/approvals/surfaces/approval-wire-types';

/**
 * An approval as `GET /api/approvals/:id` answers it, with the fields the inbox lists add
 * (`GET /api/approvals`: `chatExcerpt`; `GET /api/approvals/decided`: `myDecision`, `decidedAt`).
 */
export type ApprovalView = ServerApprovalView &
  Partial<Omit<ListedApproval & DecidedApproval, keyof ServerApprovalView>>;

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
export type ToolgateMetadata = {
  worker?: string;
  model?: string;
  /** A note the server wrote into the chat (an outcome, an approver's question), not a model's reply. */
  notice?: boolean;
  /** The note is an approver's question: people's words, drawn as text, never as markdown. */
  question?: { approvalId: string; questionId: string };
};

/** A chat message as this app sends and receives it. */
export type ToolgateMessage = UIMessage<ToolgateMetadata>;

/** The answer to a decision: `POST /api/chat/approve`. */
export type ApprovalDecision = ApprovalDecisionAnswer & {
  /** The route answered 400 (e.g. the policy refuses an edit): nothing was decided, the card stays decidable. */
  refused?: boolean;
};

/** A decision on one approval card, as the card sends it to `POST /api/chat/approve`. */
export type ApprovalDecisionRequest = {
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
};

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

/** The untrusted reads that mark a chat (`GET /api/chats/:id/untrusted-reads`), newest first. */
export type ChatUntrustedReads = {
  reads: { tool: string; toolCallId: string; unreadable: boolean; readAt: string }[];
};
