'use client';

import { Clock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { fetchJson, type StandingGrants } from './api-types';
import { RevocableBar, RevocableItem } from './revocable-bar';
import { useWorkspace } from './workspace-provider';

const symbols: Record<string, string> = { eq: '=', ne: '≠', gt: '>', gte: '≥', lt: '<', lte: '≤', in: 'in' };

/** `amount ≤ 30 and orderId = "A1002"`: what a grant's conditions cover. */
function conditionsText(when: StandingGrants['grants'][number]['when']): string {
  return Object.entries(when ?? {})
    .flatMap(([field, condition]) =>
      Object.entries(condition).map(
        ([operator, operand]) => `${field} ${symbols[operator] ?? operator} ${JSON.stringify(operand)}`,
      ),
    )
    .join(' and ');
}

/**
 * The chat header's list of the caller's standing grants that cover this chat (made here, or
 * for all their chats): what each covers, when it ends, and a revoke button. Shows nothing
 * while there are none; `version` changes when a card may have made one.
 */
export function StandingGrantsBar({ chatId, version }: { chatId: string; version: number }) {
  const { t, locale } = useWorkspace();
  const [grants, setGrants] = useState<StandingGrants['grants']>([]);
  const [reload, setReload] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version and reload are refresh triggers.
  useEffect(() => {
    let cancelled = false;
    fetchJson<StandingGrants>('/api/grants')
      .then((value) => {
        if (!cancelled)
          setGrants(value.grants.filter((grant) => grant.scope === 'me' || grant.chatId === chatId));
      })
      .catch(() => {
        if (!cancelled) setGrants([]);
      });
    return () => {
      cancelled = true;
    };
  }, [chatId, version, reload]);

  // A grant leaves the list when it ends, without a reload.
  useEffect(() => {
    const next = Math.min(...grants.map((grant) => grant.expiresAt));
    if (!Number.isFinite(next)) return;
    const timer = setTimeout(() => setReload((value) => value + 1), Math.max(0, next - Date.now()) + 500);
    return () => clearTimeout(timer);
  }, [grants]);

  async function revoke(id: string) {
    await fetch(`/api/grants/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => undefined);
    setReload((value) => value + 1);
  }

  if (grants.length === 0) return null;
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  return (
    <RevocableBar label={t.standingGrants} icon={Clock} testId="standing-grants">
      {grants.map((grant) => (
        <RevocableItem
          key={grant.id}
          revokeLabel={t.revokeGrant(grant.toolName)}
          onRevoke={() => void revoke(grant.id)}
        >
          <span className="font-mono">{t.grantCovers(grant.toolName, conditionsText(grant.when))}</span>
          {grant.scope === 'me' && <span>· {t.grantEverywhere}</span>}
          <span>· {t.grantEnds(time.format(grant.expiresAt))}</span>
        </RevocableItem>
      ))}
    </RevocableBar>
  );
}
