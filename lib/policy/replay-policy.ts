import type { Policy, PolicyLimit } from '@toolgate/engine/policy';
import { type PolicyVerdict, verdictOf } from '@toolgate/engine/policy';

/**
 * Where a call went: refused without a card, run without one, asked of its requester,
 * or routed to people holding roles (`role:supervisor`, `role:supervisor+finance`).
 */
export type CallRoute = 'denied' | 'run' | 'requester' | `role:${string}`;

/** One write call as a chat saved it, and where it went then. */
export type SavedWriteCall = {
  chatId: string;
  /** The chat owner's user id (the requester), when the chat has one. */
  userId: string | null;
  toolName: string;
  input: unknown;
  /** Whether an untrusted output supplied its values (recorded on its card). */
  tainted: boolean;
  /** When the message holding the call was saved (ISO 8601). */
  at: string;
  happened: CallRoute;
};

/** The calls one rule (or no rule) of the candidate would have judged. */
export type ReplayRuleRow = {
  /** The rule's label (`rules[2]: <tool> amount > 50`), or `no rule` for calls no rule matched. */
  rule: string;
  calls: number;
  /** Where the candidate would send them (a quota's refusals are counted under `denied`). */
  would: Record<string, number>;
  /** Where they went when they were made. */
  happened: Record<string, number>;
  /** Of `would.denied`, those refused only for being past the rule's quota. */
  quotaDenied: number;
  /** Calls the candidate would send elsewhere than they went. */
  changed: number;
};

/** What replaying saved calls under a candidate policy found; nothing is changed. */
export type ReplayReport = { calls: number; changed: number; rules: ReplayRuleRow[] };

/** Options of {@link replayPolicy}. */
export type ReplayOptions = {
  /** The candidate policy. */
  policy: Policy;
  /** Tools that ask their requester when no rule matches (`AGENT_CONFIRM_TOOLS`). */
  confirmTools: ReadonlySet<string>;
};

const noRule = 'no rule';

/** The route a verdict gives (before quotas), with the tainted-call floor: a person always. */
function routeOf(
  verdict: PolicyVerdict,
  toolName: string,
  tainted: boolean,
  confirmTools: ReadonlySet<string>,
) {
  let route: CallRoute;
  if (verdict.kind === 'deny') route = 'denied';
  else if (verdict.kind === 'run') route = 'run';
  else if (verdict.kind === 'approve') {
    const roles = verdict.steps.flatMap((step) => (step.kind === 'role' ? [step.role] : []));
    route = roles.length > 0 ? `role:${[...new Set(roles)].sort().join('+')}` : 'requester';
  } else route = confirmTools.has(toolName) ? 'requester' : 'run';
  return tainted && route === 'run' ? 'requester' : route;
}

/** Counts executed calls per quota key in a sliding window, in the order the calls came. */
function createQuotaCounter() {
  const timesByKey = new Map<string, number[]>();
  return (key: string, limit: PolicyLimit, at: number): boolean => {
    const times = timesByKey.get(key) ?? [];
    while (times.length > 0 && (times[0] as number) <= at - limit.windowMs) times.shift();
    if (times.length >= limit.max) return false;
    times.push(at);
    timesByKey.set(key, times);
    return true;
  };
}

/**
 * Judges saved write calls under a candidate policy, oldest first, and counts per rule where
 * each would go beside where it went. Quotas are replayed too: a call the candidate would let
 * run counts against its rule's quota. Pure: reads nothing and changes nothing.
 */
export function replayPolicy(
  calls: readonly SavedWriteCall[],
  { policy, confirmTools }: ReplayOptions,
): ReplayReport {
  const ordered = [...calls].sort((first, second) =>
    first.at < second.at ? -1 : first.at > second.at ? 1 : 0,
  );
  const rowByRule = new Map<string, ReplayRuleRow & { index: number }>();
  const withinQuota = createQuotaCounter();
  let changed = 0;
  for (const call of ordered) {
    const verdict = verdictOf(policy, call.toolName, call.input, { tainted: call.tainted });
    let route = routeOf(verdict, call.toolName, call.tainted, confirmTools);
    let quotaDenied = false;
    if (
      (verdict.kind === 'run' || verdict.kind === 'approve') &&
      verdict.limit !== undefined &&
      route !== 'denied'
    ) {
      const { per } = verdict.limit;
      const key = `${verdict.rule}:${per === 'all' ? '' : per === 'user' ? (call.userId ?? call.chatId) : call.chatId}`;
      if (!withinQuota(key, verdict.limit, Date.parse(call.at))) {
        route = 'denied';
        quotaDenied = true;
      }
    }
    const label = verdict.kind === 'none' ? noRule : verdict.label;
    let row = rowByRule.get(label);
    if (row === undefined) {
      row = {
        index: verdict.kind === 'none' ? Number.MAX_SAFE_INTEGER : verdict.rule,
        rule: label,
        calls: 0,
        would: {},
        happened: {},
        quotaDenied: 0,
        changed: 0,
      };
      rowByRule.set(label, row);
    }
    row.calls += 1;
    row.would[route] = (row.would[route] ?? 0) + 1;
    row.happened[call.happened] = (row.happened[call.happened] ?? 0) + 1;
    if (quotaDenied) row.quotaDenied += 1;
    if (route !== call.happened) {
      row.changed += 1;
      changed += 1;
    }
  }
  const rules = [...rowByRule.values()]
    .sort((first, second) => first.index - second.index || first.rule.localeCompare(second.rule))
    .map(({ index: _index, ...row }) => row);
  return { calls: calls.length, changed, rules };
}

/** The report as an operator reads it in a terminal: one block per rule. */
export function formatReplayReport(report: ReplayReport): string {
  const counts = (byRoute: Record<string, number>) =>
    Object.entries(byRoute)
      .sort(([first], [second]) => first.localeCompare(second))
      .map(([route, count]) => `${route} ${count}`)
      .join(', ') || '-';
  const lines = [
    `${report.calls} saved write calls, ${report.changed} would go elsewhere under the candidate`,
  ];
  for (const row of report.rules) {
    lines.push('', `${row.rule}  (${row.calls} calls, ${row.changed} changed)`);
    lines.push(
      `  would:    ${counts(row.would)}${row.quotaDenied > 0 ? ` (${row.quotaDenied} past the quota)` : ''}`,
    );
    lines.push(`  happened: ${counts(row.happened)}`);
  }
  return lines.join('\n');
}
