import type { Generated } from 'kysely';

/*
 * The tables as both engines hold them. Timestamps are ISO 8601 text on both, so a
 * row reads the same from SQLite and Postgres; JSON columns are text for the same reason.
 */

export type TicketTable = {
  /** AUTOINCREMENT on SQLite, an identity (a sequence) on Postgres: never reused, never shared. */
  id: Generated<number>;
  title: string;
  detail: string | null;
  order_id: string | null;
  /** `cancelled` once its creation was undone within the undo window. */
  status: 'open' | 'closed' | 'cancelled';
  chat_id: string | null;
  /** The user the ticket belongs to; null only for rows written before accounts existed. */
  user_id: string | null;
  created_at: string;
};

export type TodoTable = {
  id: Generated<number>;
  title: string;
  status: 'open' | 'done';
  user_id: string | null;
  created_at: string;
};

export type OrderTable = {
  id: string;
  status: string;
  carrier: string | null;
  eta: string | null;
  /** JSON array of `{ sku, name, quantity }`. */
  items: string;
  placed_at: string;
  /** What the order cost, in minor units of `currency` (cents, fen); null for an order entered without one. */
  total_minor: number | null;
  /** ISO 4217 code of `total_minor`, e.g. `CNY`, `USD`. */
  currency: string | null;
};

/** Money paid back on an order; the issued refunds of an order never add up to more than its total. */
export type RefundTable = {
  /** AUTOINCREMENT on SQLite, an identity on Postgres: `RF-000001`, never reused. */
  id: Generated<number>;
  order_id: string;
  /** In minor units of the order's currency, at the time of the refund. */
  amount_minor: number;
  currency: string;
  reason: string;
  /** `issued`, or `voided` once taken back (a voided refund no longer counts against the total). */
  status: 'issued' | 'voided';
  /** The user who asked for it; only they see it. */
  user_id: string;
  chat_id: string | null;
  created_at: string;
};

export type KnowledgeArticleTable = {
  id: string;
  topic: string;
  lang: 'zh' | 'en';
  title: string;
  body: string;
  keywords: string;
};

/** SQLite only: the FTS5 trigram index over the articles, kept in step by triggers. */
export type KnowledgeFtsTable = {
  article_id: string;
  title: string;
  body: string;
  keywords: string;
};

export type ChatTable = {
  id: string;
  /** The user id of the chat's owner. */
  owner_id: string | null;
  title: string;
  worker: string;
  created_at: string;
  updated_at: string;
};

export type ChatMessageTable = {
  chat_id: string;
  id: string;
  position: number;
  role: string;
  /** The whole UIMessage as JSON. */
  message: string;
  created_at: string;
};

export type ToolAuditTable = {
  id: Generated<number>;
  chat_id: string;
  worker: string;
  tool_name: string;
  tool_call_id: string;
  args_hash: string;
  outcome: string;
  duration_ms: number;
  user_id: string | null;
  created_at: string;
  /** JSON of what a person added to the call: `{ edited: true }`, `{ note }`. */
  detail: string | null;
  /** JSON of the call's one-line summary per UI language, `{ en, zh }`; null when there is none. */
  summary: string | null;
  /** The row's place in the hash chain, 1, 2, 3, … with no gaps (lib/db/audit-chain.ts). */
  seq: number | null;
  /** When the row joined the chain (ISO 8601); never earlier than the row before it. */
  chained_at: string | null;
  /** The hash of the row at `seq - 1` (the genesis hash for the first). */
  prev_hash: string | null;
  /** SHA-256 over `prev_hash` and this row's canonical JSON. */
  hash: string | null;
};

/** better-auth's user table (its column names are camelCase). */
export type UserTable = {
  id: string;
  name: string;
  email: string;
  isAnonymous: boolean | number | null;
  emailVerified: boolean | number;
  role: string | null;
  banned: boolean | number | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  /** The UI language (`en` / `zh`) the user last used, for mail to them; null until known. Ours, not better-auth's. */
  locale: string | null;
};

/** A role granted to a user (`supervisor`, `admin`…); it counts only while the user's email is verified. */
export type UserRoleTable = {
  user_id: string;
  role: string;
  granted_at: string;
  /** `policy` when the policy file gave it (it follows the file); null when an admin or the CLI did. */
  source: Generated<string | null>;
};

/**
 * A role of the policy file's `roles` given to the verified account with that email: once per
 * (email, role), so a revoke afterwards stands. `user_id` is who got it (no foreign key: the
 * record outlives the account, and the pair stays used).
 */
export type RoleBootstrapTable = {
  email: string;
  role: string;
  user_id: string;
  applied_at: string;
};

/** One account action: an email verified, a role granted or revoked, an admin endpoint used. */
export type AccountAuditTable = {
  id: Generated<number>;
  /** The user who acted, or null for the operators' CLI. */
  actor_id: string | null;
  action: string;
  target_user_id: string | null;
  /** JSON of what else the action named (the role, the endpoint). */
  detail: string | null;
  created_at: string;
};

/** A tool call that waits, or waited, for a person (see `lib/approvals/` for its life cycle). */
export type ApprovalTable = {
  id: string;
  chat_id: string;
  owner_id: string | null;
  /** The assistant message that holds the call's tool part. */
  message_id: string;
  tool_call_id: string;
  tool_name: string;
  worker: string;
  /** The validated input as JSON. */
  input: string;
  /** Epoch milliseconds; past it the approval can only end `expired`. */
  expires_at: number;
  status: string;
  /** 1 once a turn (the live one or a continuation) has taken the decision on. */
  claimed: number;
  /** The input a person put in place of the model's, validated, as JSON; null when not edited. */
  edited_input: string | null;
  /** The user who edited the input, when someone did. */
  edited_by: Generated<string | null>;
  /** What the person said with a "no". */
  note: string | null;
  /** How many times the deadline was extended. */
  extensions: Generated<number>;
  /** The W3C `traceparent` of the call that asked, when tracing was on: a continuation links to it. */
  trace_parent: string | null;
  /** Bumped by every decision of a step: a compare-and-set token across instances. */
  version: Generated<number>;
  /** The label of the policy rule that asked for this approval, when one did. */
  rule_label: string | null;
  /** The user message that led to the call, truncated (for approvers' lists). */
  excerpt: string | null;
  /** The tool's preview of the call (of the edited input, after an edit) as JSON; null without one. */
  preview: Generated<string | null>;
  /** Where the call's values came from (paths, tools and call ids, never values) as JSON; null when not traced. */
  provenance: Generated<string | null>;
  /** Epoch ms: when approvers who have not decided get a reminder; null once sent or when none is due. */
  remind_at: Generated<number | null>;
  /** Epoch ms: when open role steps go to the rule's escalation role; null once done or when none is due. */
  escalate_at: Generated<number | null>;
  /** JSON `{ to, timeoutMs }`: the role open role steps go to, and the wait that then restarts. */
  escalation: Generated<string | null>;
  /** The version of the policy the call was asked under (hex SHA-256); null without a policy. */
  policy_version: Generated<string | null>;
  /** Why a denied call ended, when its status alone does not say: `policy_changed` (re-judged under a newer policy). */
  end_reason: Generated<string | null>;
  /** When a re-judge under a newer policy replaced the steps (ISO 8601); null when it never did. */
  policy_changed_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
};

/** One step of an approval: who must allow it, and what they said. */
export type ApprovalStepTable = {
  approval_id: string;
  /** 0-based order of the step in its rule. */
  position: number;
  kind: string;
  /** For `kind = 'role'`: the role that may fill it. */
  role: string | null;
  /** `allow` / `deny`, null while open. */
  decision: string | null;
  /** The user who filled it. */
  decided_by: string | null;
  decided_at: string | null;
  /** The role an escalation handed this step to (`role` is then that role); null otherwise. */
  escalated_to: Generated<string | null>;
};

/** A tool a user allowed for the rest of one chat: its calls there run without a card. */
export type ApprovalRuleTable = {
  chat_id: string;
  owner_id: string;
  tool_name: string;
  created_at: string;
};

/** The resumable stream a chat's running turn writes, if any. */
export type ChatStreamTable = {
  chat_id: string;
  stream_id: string;
  /** The assistant message the stream builds. */
  message_id: string;
  /** How many parts that message had when the stream began; -1 when the stream starts it. */
  base_parts: number;
  started_at: string;
};

/**
 * The record of one write tool call's result, committed in the same transaction as the
 * write itself (lib/db/tool-effects.ts): a repeat replays it when the idempotency store
 * never learnt of the call or forgot it.
 */
export type ToolEffectTable = {
  id: string;
  /** Hex SHA-256 of `scope::toolName::stableStringify(input)`: the key the tool was given. */
  idempotency_key: string;
  /** The chat the call came from (the idempotency shell's scope). */
  scope: string;
  user_id: string | null;
  tool_name: string;
  /** The call that executed (a replay keeps the first call's id). */
  tool_call_id: string;
  /** The validated input, as JSON (an undo drops the idempotency store's entry by it). */
  input: string;
  /** What the model saw, as JSON. */
  result: string;
  /** Epoch milliseconds of the commit. */
  created_at: number;
  /** Epoch milliseconds; from then on a repeat executes anew. */
  expires_at: number;
  /** Epoch milliseconds of the undo; null while the effect stands. */
  undone_at: number | null;
};

/**
 * A guest session that became an account (sign-up or sign-in): the guest's audit rows keep
 * the guest's id, and count as the account's. No foreign key: the guest user is deleted.
 */
export type GuestLinkTable = {
  guest_id: string;
  user_id: string;
  linked_at: string;
};

/** One approval webhook event and its delivery (see `lib/webhooks`). */
export type WebhookDeliveryTable = {
  /** The event id, sent as `X-Toolgate-Event-Id` and in the body. */
  id: string;
  event_type: string;
  approval_id: string;
  /** The exact JSON POSTed (and signed) on every try. */
  body: string;
  /** Tries started so far. */
  attempts: Generated<number>;
  /** Epoch milliseconds: when the next try is due, or when a try in flight counts as lost. */
  next_attempt_at: number;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  last_error: string | null;
  /** The receiver's HTTP status on the last try that got an answer. */
  last_status: number | null;
  created_at: string;
  updated_at: string;
  /** `webhook` (POSTed to the receiver) or `mail` (sent over SMTP to one approver). */
  channel: Generated<string>;
  /** Unique when set: a second row with the same key is never queued (one mail of a kind per person). */
  dedupe_key: Generated<string | null>;
};

export type SchemaMigrationTable = {
  version: number;
  name: string;
  applied_at: string;
};

/** One executed call counted against a policy rule's quota (lib/policy/policy-quota.ts). */
export type PolicyQuotaCallTable = {
  id: string;
  /** The rule, its limit and whom it counts (a user, a chat, or all). */
  quota_key: string;
  /** Epoch milliseconds of the call. */
  called_at: number;
};

/** A standing grant: later calls of one tool by one user run without a card while they match (lib/approvals/life-cycle/standing-grants.ts). */
export type StandingGrantTable = {
  id: string;
  owner_id: string;
  tool_name: string;
  /** The chat it covers; null covers every chat of the owner. */
  chat_id: string | null;
  /** JSON of the input conditions a call must satisfy (policy `when` syntax); null matches every call. */
  conditions: string | null;
  /** The approval it was created from. */
  approval_id: string;
  created_at: string;
  /** Epoch milliseconds: from then on it covers nothing. */
  expires_at: number;
  /** Epoch milliseconds of the revocation; null while it stands. */
  revoked_at: number | null;
};

/** An untrusted read that marks its chat until the person clears it (lib/db/chat-untrusted-reads.ts). */
export type ChatUntrustedReadTable = {
  chat_id: string;
  /** The call id of the output, or `<message id>:<part index>` of an attached file. */
  tool_call_id: string;
  /** The tool's name, or `file:<name>`. */
  tool: string;
  /** 1 for an attached file whose text could not be read. */
  unreadable: number;
  read_at: string;
  /** When the person cleared it; null while it marks the chat. */
  cleared_at: string | null;
};

/**
 * A question an approver asked a call's requester while it waited (free text), and the
 * requester's answer: their next chat message, once they sent it.
 */
export type ApprovalQuestionTable = {
  id: string;
  approval_id: string;
  chat_id: string;
  /** The user id of the approver who asked. */
  asked_by: string;
  /** The role whose step made them an approver of the call. */
  asked_role: string;
  question: string;
  asked_at: string;
  /** The requester's answer; null while the question is open. */
  answer: string | null;
  answered_at: string | null;
};

/** Every table the product owns, as Kysely types them. */
export type DatabaseSchema = {
  tickets: TicketTable;
  todos: TodoTable;
  orders: OrderTable;
  refunds: RefundTable;
  knowledge_articles: KnowledgeArticleTable;
  knowledge_fts: KnowledgeFtsTable;
  chats: ChatTable;
  chat_messages: ChatMessageTable;
  tool_audit: ToolAuditTable;
  approvals: ApprovalTable;
  approval_steps: ApprovalStepTable;
  approval_rules: ApprovalRuleTable;
  chat_streams: ChatStreamTable;
  tool_effects: ToolEffectTable;
  schema_migrations: SchemaMigrationTable;
  webhook_delivery: WebhookDeliveryTable;
  user: UserTable;
  user_role: UserRoleTable;
  account_audit: AccountAuditTable;
  role_bootstrap: RoleBootstrapTable;
  guest_link: GuestLinkTable;
  policy_quota_calls: PolicyQuotaCallTable;
  standing_grants: StandingGrantTable;
  chat_untrusted_reads: ChatUntrustedReadTable;
  approval_questions: ApprovalQuestionTable;
};
