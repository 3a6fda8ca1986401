'use client';

import { ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { type ApprovalRules, fetchJson } from './api-types';
import { RevocableBar, RevocableItem } from './revocable-bar';
import { useWorkspace } from './workspace-provider';

/**
 * The chat header's list of tools allowed for the rest of this chat ("Allow for
 * this chat" on a card), each with a revoke button. Shows nothing while there are
 * none. `version` changes when a card may have added one. Nothing is asked
 * before `chatExists` (a new chat is saved with its first message; until then
 * the server would answer 404).
 */
export function ApprovalRulesBar({
  chatId,
  chatExists,
  version,
}: {
  chatId: string;
  chatExists: boolean;
  version: number;
}) {
  const { t } = useWorkspace();
  const [rules, setRules] = useState<ApprovalRules['rules']>([]);
  const [reload, setReload] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version and reload are refresh triggers.
  useEffect(() => {
    if (!chatExists) return;
    let cancelled = false;
    fetchJson<ApprovalRules>(`/api/chats/${encodeURIComponent(chatId)}/approval-rules`)
      .then((value) => {
        if (!cancelled) setRules(value.rules);
      })
      // A chat not saved yet has no rules.
      .catch(() => {
        if (!cancelled) setRules([]);
      });
    return () => {
      cancelled = true;
    };
  }, [chatId, chatExists, version, reload]);

  async function revoke(toolName: string) {
    await fetch(`/api/chats/${encodeURIComponent(chatId)}/approval-rules/${encodeURIComponent(toolName)}`, {
      method: 'DELETE',
    }).catch(() => undefined);
    setReload((value) => value + 1);
  }

  if (rules.length === 0) return null;
  return (
    <RevocableBar label={t.approvalRules} icon={ShieldCheck} testId="approval-rules">
      {rules.map((rule) => (
        <RevocableItem
          key={rule.toolName}
          revokeLabel={t.revokeRule(rule.toolName)}
          onRevoke={() => void revoke(rule.toolName)}
        >
          <span className="font-mono">{rule.toolName}</span>
        </RevocableItem>
      ))}
    </RevocableBar>
  );
}
