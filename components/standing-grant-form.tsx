'use client';

import { useState } from 'react';
import type { GrantCondition, GrantRequest } from './api-types';
import { Button } from './ui/button';
import { NativeSelect, NativeSelectOption } from './ui/native-select';
import { useWorkspace } from './workspace-provider';

const durations = [900_000, 3_600_000, 86_400_000] as const;

/**
 * The narrowing of a standing grant: for each number of the call, "at most this value" (always:
 * the server refuses a grant that leaves a number unbounded); for each short text, "exactly
 * this", if the person picks it. Each condition holds for the call in front of them, so a grant
 * made here is never wider than that call.
 */
type Narrowing = { field: string; condition: GrantCondition; value: number | string };

function narrowingsOf(input: unknown): Narrowing[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  return Object.entries(input).flatMap(([field, value]): Narrowing[] => {
    if (typeof value === 'number' && Number.isFinite(value))
      return [{ field, condition: { lte: value }, value }];
    if (typeof value === 'string' && value.length > 0 && value.length <= 100)
      return [{ field, condition: { eq: value }, value }];
    return [];
  });
}

/** The card's "allow similar calls" form: how long, where, and which narrowing conditions. */
export function StandingGrantForm({
  toolCallId,
  input,
  disabled,
  onSubmit,
  onCancel,
}: {
  toolCallId: string;
  input: unknown;
  disabled: boolean;
  onSubmit: (remember: GrantRequest) => void;
  onCancel: () => void;
}) {
  const { t } = useWorkspace();
  const narrowings = narrowingsOf(input);
  const [ttlMs, setTtlMs] = useState<number>(3_600_000);
  const [scope, setScope] = useState<GrantRequest['scope']>('chat');
  // Numbers are always narrowed (the usual "refunds under this amount"); texts only when picked.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set());
  const isChosen = ({ field, value }: Narrowing) => typeof value === 'number' || chosen.has(field);
  const id = (name: string) => `grant-${name}-${toolCallId}`;

  return (
    <form
      className="flex flex-col gap-2 text-xs"
      aria-label={t.grantLegend}
      onSubmit={(event) => {
        event.preventDefault();
        const when = Object.fromEntries(
          narrowings.filter(isChosen).map(({ field, condition }) => [field, condition]),
        );
        onSubmit({ scope, ttlMs, ...(Object.keys(when).length > 0 && { when }) });
      }}
    >
      <p className="font-medium">{t.grantLegend}</p>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={id('ttl')}>{t.grantFor}</label>
        <NativeSelect id={id('ttl')} value={ttlMs} onChange={(event) => setTtlMs(Number(event.target.value))}>
          {durations.map((duration) => (
            <NativeSelectOption key={duration} value={duration}>
              {t.grantDurations[duration]}
            </NativeSelectOption>
          ))}
        </NativeSelect>
        <label htmlFor={id('scope')}>{t.grantWhere}</label>
        <NativeSelect
          id={id('scope')}
          value={scope}
          onChange={(event) => setScope(event.target.value === 'me' ? 'me' : 'chat')}
        >
          <NativeSelectOption value="chat">{t.grantScopeChat}</NativeSelectOption>
          <NativeSelectOption value="me">{t.grantScopeMe}</NativeSelectOption>
        </NativeSelect>
      </div>
      {narrowings.map((narrowing) => {
        const { field, value } = narrowing;
        return (
          <label key={field} className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={isChosen(narrowing)}
              disabled={typeof value === 'number'}
              onChange={(event) =>
                setChosen((current) => {
                  const next = new Set(current);
                  if (event.target.checked) next.add(field);
                  else next.delete(field);
                  return next;
                })
              }
            />
            {typeof value === 'number' ? t.grantAtMost(field, value) : t.grantSame(field, value)}
          </label>
        );
      })}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          {t.grantCancel}
        </Button>
        <Button type="submit" size="sm" disabled={disabled}>
          {t.grantSubmit}
        </Button>
      </div>
    </form>
  );
}
